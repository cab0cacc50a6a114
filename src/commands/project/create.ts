import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { canPrompt, input, usageError } from '../../cli/common/prompts.js';
import { parseTagArg } from '../../cli/projects/tag-args.js';
import { projectFields } from '../../cli/views/project.js';
import { createProject } from '../../client/projects.js';
import { resolveAgentPoolId } from '../../client/workspaces.js';

export default class ProjectCreate extends BerthCommand<typeof ProjectCreate> {
  static override summary = 'Create a project in an organization.';
  static override description =
    'Creates a project in --org. Without NAME it asks for the name (and offers the optional settings) on a terminal; elsewhere a missing NAME is a usage error.';
  static override examples = [
    '<%= config.bin %> project create "Web Platform" --org acme',
    '<%= config.bin %> project create data --org acme --description "Data team" --auto-destroy-duration 14d --tag env=prod --tag team=data',
    '<%= config.bin %> project create builds --org acme --default-execution-mode agent --default-agent-pool builders',
  ];
  static override args = {
    name: Args.string({ description: 'project name: 3 to 40 letters, digits, spaces, - and _' }),
  };
  static override flags = {
    description: Flags.string({ description: 'what the project is for (at most 256 characters)' }),
    'auto-destroy-duration': Flags.string({
      description: 'default inactivity period before its workspaces are destroyed, e.g. 14d or 36h',
    }),
    tag: Flags.string({
      description: 'a key-value tag KEY=VALUE (repeatable, at most 10)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'default-execution-mode': Flags.string({
      description: "the project's own default for its workspaces (else it follows the organization's)",
      options: ['remote', 'local', 'agent'],
    }),
    'default-agent-pool': Flags.string({
      description: 'agent pool (name or apool- id) of the agent default execution mode',
    }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    let { name } = this.args;
    let description = this.flags.description;
    let duration = this.flags['auto-destroy-duration'];
    const tags = (this.flags.tag ?? []).map(parseTagArg);
    if (name === undefined) {
      if (!canPrompt(this.flags)) throw usageError('a project name is required: berth project create NAME --org ORG');
      name = await input('Project name', { validate: (v) => (v.trim().length > 0 ? true : 'a name is required') });
      if (description === undefined) description = (await input('Description (optional)')) || undefined;
      if (duration === undefined)
        duration = (await input('Auto-destroy after inactivity, e.g. 14d or 36h (optional)')) || undefined;
    }
    const client = await this.client();
    const pool = this.flags['default-agent-pool'];
    const { data } = await createProject(
      client,
      org,
      {
        name,
        description,
        'auto-destroy-activity-duration': duration,
        'default-execution-mode': this.flags['default-execution-mode'],
        'default-agent-pool-id': pool && (await resolveAgentPoolId(client, org, pool)),
      },
      tags.length > 0 ? tags : undefined,
    );
    this.print(data, () => `Created project ${data.attributes.name} (${data.id}).\n${projectFields(data)}`);
  }
}
