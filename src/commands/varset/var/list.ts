import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { variableTable } from '../../../cli/views/variable.js';
import { VarsetsClient, varsetVariables } from '../../../client/variables.js';

export default class VarsetVarList extends BerthCommand<typeof VarsetVarList> {
  static override summary = 'List the variables of a variable set (sensitive values are never shown).';
  static override examples = ['<%= config.bin %> varset var list aws-creds --org acme'];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    const id = await new VarsetsClient(client).resolve(this.flags.org, this.args.set);
    const vars = await varsetVariables(client, id).list();
    this.print(vars, () =>
      vars.length === 0 ? `No variables in variable set ${this.args.set}.` : variableTable(vars),
    );
  }
}
