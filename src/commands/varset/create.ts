import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderFields } from '../../cli/output/output.js';
import { VarsetsClient } from '../../client/variables.js';
import { resolveProjectId } from '../../client/workspaces.js';

export default class VarsetCreate extends BerthCommand<typeof VarsetCreate> {
  static override summary = 'Create a variable set in an organization.';
  static override description =
    'A global set gives its variables to every workspace of the organization; otherwise apply it to workspaces and projects with `berth varset apply`. A priority set overrides workspace variables and the variables of a run. With --project the set is owned by that project: its admins manage it, it is never global, and it applies only to the project and its workspaces.';
  static override examples = [
    '<%= config.bin %> varset create aws-creds --description "AWS credentials" --org acme',
    '<%= config.bin %> varset create defaults --global --org acme',
    '<%= config.bin %> varset create guardrails --priority --org acme',
    '<%= config.bin %> varset create platform-defaults --project Platform --org acme',
  ];
  static override args = { name: Args.string({ description: 'a name, unique in the organization', required: true }) };
  static override flags = {
    description: Flags.string({ description: 'what the set is for' }),
    global: Flags.boolean({ description: 'apply to every workspace of the organization', default: false }),
    priority: Flags.boolean({ description: 'override workspace and run variables', default: false }),
    project: Flags.string({
      description: 'the project that owns the set (NAME or prj- id): it applies only within it',
      exclusive: ['global'],
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const org = this.requireOrg();
    const parent = this.flags.project ? await resolveProjectId(client, org, this.flags.project) : undefined;
    const set = await new VarsetsClient(client).create(
      org,
      {
        name: this.args.name,
        ...(this.flags.description !== undefined ? { description: this.flags.description } : {}),
        global: this.flags.global,
        priority: this.flags.priority,
      },
      parent,
    );
    this.print(
      set,
      () =>
        `Created variable set ${set.attributes.name}.\n${renderFields([
          ['ID', set.id],
          ...(parent ? [['Owner', `project ${this.flags.project}`] as [string, string]] : []),
          ['Global', set.attributes.global ? 'yes' : 'no'],
          ['Priority', set.attributes.priority ? 'yes' : 'no'],
        ])}`,
    );
  }
}
