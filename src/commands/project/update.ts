import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { resolveProject } from '../../cli/projects/resolve-project.js';
import { parseTagArg } from '../../cli/projects/tag-args.js';
import { projectFields } from '../../cli/views/project.js';
import { listTagBindings, updateProject } from '../../client/projects.js';
import { formatTagPairs, planTagBindings } from '../../client/tag-binding-changes.js';
import { resolveAgentPoolId } from '../../client/workspaces.js';

export default class ProjectUpdate extends BerthCommand<typeof ProjectUpdate> {
  static override summary = 'Change the settings of a project.';
  static override description =
    'Changes only what is given. --tag KEY=VALUE adds a tag or changes its value and never removes one; --remove-tag KEY removes one; --clear-tags removes them all and says which. A new auto-destroy duration applies to every workspace of the project that does not set its own.';
  static override examples = [
    '<%= config.bin %> project update "Web Platform" --org acme --description "Public web"',
    '<%= config.bin %> project update prj-WsVcWRr7SfxRci1v --auto-destroy-duration 7d',
    '<%= config.bin %> project update web --org acme --no-auto-destroy --clear-tags',
    '<%= config.bin %> project update web --org acme --tag env=prod --remove-tag owner',
    '<%= config.bin %> project update builds --org acme --default-execution-mode agent --default-agent-pool builders',
    '<%= config.bin %> project update builds --org acme --inherit-execution-mode',
  ];
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
  };
  static override flags = {
    name: Flags.string({ description: 'new name' }),
    description: Flags.string({ description: 'new description ("" for none)' }),
    'auto-destroy-duration': Flags.string({
      description: 'default inactivity period, e.g. 14d or 36h',
      exclusive: ['no-auto-destroy'],
    }),
    'no-auto-destroy': Flags.boolean({
      description: 'clear the auto-destroy duration',
      exclusive: ['auto-destroy-duration'],
    }),
    tag: Flags.string({
      description: 'KEY=VALUE: add this tag or change its value; the other tags stay (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
      exclusive: ['clear-tags'],
    }),
    'remove-tag': Flags.string({
      description: 'KEY: remove this tag of the project (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
      exclusive: ['clear-tags'],
    }),
    'clear-tags': Flags.boolean({
      description: 'remove every tag of the project (prints which)',
      exclusive: ['tag', 'remove-tag'],
    }),
    'default-execution-mode': Flags.string({
      description: "the project's own default for its workspaces",
      options: ['remote', 'local', 'agent'],
      exclusive: ['inherit-execution-mode'],
    }),
    'default-agent-pool': Flags.string({
      description: 'agent pool (name or apool- id) of the agent default execution mode',
      exclusive: ['inherit-execution-mode'],
    }),
    'inherit-execution-mode': Flags.boolean({
      description: "drop the project's own default execution mode: follow the organization's",
      exclusive: ['default-execution-mode', 'default-agent-pool'],
    }),
  };

  async run(): Promise<void> {
    const f = this.flags;
    const attributes: Record<string, unknown> = {
      name: f.name,
      description: f.description,
      'auto-destroy-activity-duration': f['no-auto-destroy'] ? null : f['auto-destroy-duration'],
    };
    const tagChange = { set: f.tag?.map(parseTagArg), remove: f['remove-tag'], clear: f['clear-tags'] };
    const changesTags = Boolean(tagChange.set || tagChange.remove || tagChange.clear);
    if (f['default-execution-mode']) attributes['default-execution-mode'] = f['default-execution-mode'];
    if (f['inherit-execution-mode'])
      attributes['setting-overwrites'] = { 'default-execution-mode': false, 'default-agent-pool': false };
    if (
      Object.values(attributes).every((v) => v === undefined) &&
      !changesTags &&
      f['default-agent-pool'] === undefined
    ) {
      throw usageError(
        'nothing to change: pass --name, --description, --auto-destroy-duration, --no-auto-destroy, --tag, --remove-tag, --clear-tags, --default-execution-mode, --default-agent-pool or --inherit-execution-mode',
      );
    }
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, f.org);
    if (f['default-agent-pool'])
      attributes['default-agent-pool-id'] = await resolveAgentPoolId(
        client,
        project.relationships?.organization?.data && !Array.isArray(project.relationships.organization.data)
          ? project.relationships.organization.data.id
          : (f.org ?? ''),
        f['default-agent-pool'],
      );
    // The whole new tag set, inline: one request changes the settings and the tags, or nothing.
    const plan = changesTags
      ? planTagBindings(await listTagBindings(client, project.id), tagChange, `project ${project.attributes.name}`)
      : undefined;
    const { data } = await updateProject(client, project.id, attributes, plan?.next);
    const removed = plan?.removed ?? [];
    const cleared =
      removed.length > 0
        ? `Removed tags: ${formatTagPairs(removed)}.`
        : f['clear-tags']
          ? 'It had no tags to clear.'
          : '';
    this.print(
      data,
      () =>
        `Updated project ${data.attributes.name} (${data.id}).${cleared ? ` ${cleared}` : ''}\n${projectFields(data)}`,
    );
  }
}
