import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { resolveProject } from '../../../cli/projects/resolve-project.js';
import { parseTagArg } from '../../../cli/projects/tag-args.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { addTagBindings } from '../../../client/projects.js';

export default class ProjectTagsAdd extends BerthCommand<typeof ProjectTagsAdd> {
  static override summary = 'Add key-value tags to a project, or change their values.';
  static override description =
    'Never removes a tag. A project has at most 10 tags. Prints every tag of the project afterwards.';
  static override examples = ['<%= config.bin %> project tags add "Web Platform" env=prod team=web --org acme'];
  static override strict = false;
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
    tags: Args.string({ description: 'KEY=VALUE ... (one or more)' }),
  };

  async run(): Promise<void> {
    const tags = this.positionals.slice(1).map(parseTagArg);
    if (tags.length === 0) throw usageError('give at least one tag: berth project tags add PROJECT KEY=VALUE ...');
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    const added = await addTagBindings(client, project.id, tags);
    this.print(added, () => `Added or updated on project ${project.attributes.name}:\n${tagBindingTable(added)}`);
  }
}
