import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderFields } from '../../cli/output/output.js';
import { VarsetsClient } from '../../client/variables.js';

export default class VarsetCreate extends BerthCommand<typeof VarsetCreate> {
  static override summary = 'Create a variable set in an organization.';
  static override description =
    'A global set gives its variables to every workspace of the organization; otherwise apply it to workspaces and projects with `berth varset apply`. A priority set overrides workspace variables and the variables of a run.';
  static override examples = [
    '<%= config.bin %> varset create aws-creds --description "AWS credentials" --org acme',
    '<%= config.bin %> varset create defaults --global --org acme',
    '<%= config.bin %> varset create guardrails --priority --org acme',
  ];
  static override args = { name: Args.string({ description: 'a name, unique in the organization', required: true }) };
  static override flags = {
    description: Flags.string({ description: 'what the set is for' }),
    global: Flags.boolean({ description: 'apply to every workspace of the organization', default: false }),
    priority: Flags.boolean({ description: 'override workspace and run variables', default: false }),
  };

  async run(): Promise<void> {
    const set = await new VarsetsClient(await this.client()).create(this.requireOrg(), {
      name: this.args.name,
      ...(this.flags.description !== undefined ? { description: this.flags.description } : {}),
      global: this.flags.global,
      priority: this.flags.priority,
    });
    this.print(
      set,
      () =>
        `Created variable set ${set.attributes.name}.\n${renderFields([
          ['ID', set.id],
          ['Global', set.attributes.global ? 'yes' : 'no'],
          ['Priority', set.attributes.priority ? 'yes' : 'no'],
        ])}`,
    );
  }
}
