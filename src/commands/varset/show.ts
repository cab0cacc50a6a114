import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { varsetFields } from '../../cli/views/variable.js';
import { VarsetsClient, varsetVariables } from '../../client/variables.js';

export default class VarsetShow extends BerthCommand<typeof VarsetShow> {
  static override summary = 'Show a variable set and its variables (sensitive values are never shown).';
  static override examples = [
    '<%= config.bin %> varset show aws-creds --org acme',
    '<%= config.bin %> varset show varset-6jrRyVDv1J8zQMB5 --json',
  ];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    const sets = new VarsetsClient(client);
    const id = await sets.resolve(this.flags.org, this.args.set);
    const set = (await sets.get(id)).data;
    const vars = await varsetVariables(client, id).list();
    this.print(set, () => varsetFields(set, vars));
  }
}
