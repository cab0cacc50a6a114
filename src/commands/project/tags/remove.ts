import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { resolveProject } from '../../../cli/projects/resolve-project.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { listTagBindings, replaceTagBindings } from '../../../client/projects.js';
import { formatTagPairs, planTagBindings } from '../../../client/tag-binding-changes.js';

export default class ProjectTagsRemove extends BerthCommand<typeof ProjectTagsRemove> {
  static override summary = 'Remove key-value tags of a project by key.';
  static override description =
    'Removes only the keys named (the project keeps its other tags; its workspaces stop inheriting the removed ones); a key the project does not have is an error (exit 3) and nothing changes. Prints the tags the project keeps; --json prints them as an array.';
  static override examples = [
    '<%= config.bin %> project tags remove "Web Platform" env --org acme',
    '<%= config.bin %> project tags remove prj-WsVcWRr7SfxRci1v env team --json',
  ];
  static override strict = false;
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
    keys: Args.string({ description: 'KEY ... (one or more)' }),
  };

  async run(): Promise<void> {
    const keys = this.positionals.slice(1);
    if (keys.length === 0) throw usageError('give at least one key: berth project tags remove PROJECT KEY ...');
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    const current = await listTagBindings(client, project.id);
    const plan = planTagBindings(current, { remove: keys }, `project ${project.attributes.name}`);
    await replaceTagBindings(client, project.id, plan.next);
    const kept = await listTagBindings(client, project.id);
    this.print(
      kept,
      () =>
        `Removed ${formatTagPairs(plan.removed)} from project ${project.attributes.name}.\n${kept.length === 0 ? 'No tags left.' : `Keeps:\n${tagBindingTable(kept)}`}`,
    );
  }
}
