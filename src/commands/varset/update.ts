import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { VarsetsClient, type VarsetAttributes } from '../../client/variables.js';

export default class VarsetUpdate extends BerthCommand<typeof VarsetUpdate> {
  static override summary = "Change a variable set's name, description, scope or priority.";
  static override examples = [
    '<%= config.bin %> varset update aws-creds --name aws --org acme',
    '<%= config.bin %> varset update defaults --no-global --org acme',
    '<%= config.bin %> varset update guardrails --priority --org acme',
  ];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'a new name' }),
    description: Flags.string({ description: 'a new description' }),
    global: Flags.boolean({ description: 'apply to every workspace of the organization', allowNo: true }),
    priority: Flags.boolean({ description: 'override workspace and run variables', allowNo: true }),
  };

  async run(): Promise<void> {
    const attributes: Partial<VarsetAttributes> = {};
    if (this.flags.name !== undefined) attributes.name = this.flags.name;
    if (this.flags.description !== undefined) attributes.description = this.flags.description;
    if (this.flags.global !== undefined) attributes.global = this.flags.global;
    if (this.flags.priority !== undefined) attributes.priority = this.flags.priority;
    if (Object.keys(attributes).length === 0)
      throw usageError('nothing to change: give --name, --description, --[no-]global or --[no-]priority');
    const sets = new VarsetsClient(await this.client());
    const set = await sets.update(await sets.resolve(this.flags.org, this.args.set), attributes);
    this.print(set, () => `Updated variable set ${set.attributes.name}.`);
  }
}
