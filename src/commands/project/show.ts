import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolOf } from '../../cli/output/related-names.js';
import { resolveProject } from '../../cli/projects/resolve-project.js';
import { projectFields } from '../../cli/views/project.js';
import { listTagBindings } from '../../client/projects.js';

export default class ProjectShow extends BerthCommand<typeof ProjectShow> {
  static override summary = 'Show one project and its tags.';
  static override examples = [
    '<%= config.bin %> project show "Web Platform" --org acme',
    '<%= config.bin %> project show prj-WsVcWRr7SfxRci1v --json',
  ];
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    if (this.jsonMode) return this.print(project, () => '');
    const tags = await listTagBindings(client, project.id);
    const pool = await agentPoolOf(client, project, 'default-agent-pool');
    this.print(project, () => projectFields(project, tags, pool ? [pool] : []));
  }
}
