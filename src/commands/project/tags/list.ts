import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limited, limitFlag } from '../../../cli/flags/paging.js';
import { resolveProject } from '../../../cli/projects/resolve-project.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { listTagBindings } from '../../../client/projects.js';

export default class ProjectTagsList extends BerthCommand<typeof ProjectTagsList> {
  static override summary = 'List the key-value tags set on a project.';
  static override examples = [
    '<%= config.bin %> project tags list "Web Platform" --org acme',
    '<%= config.bin %> project tags list prj-WsVcWRr7SfxRci1v --json',
  ];
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    const tags = limited(await listTagBindings(client, project.id), this.flags.limit, (shown, total) =>
      this.limitNote(shown, total),
    );
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : tagBindingTable(tags)));
  }
}
