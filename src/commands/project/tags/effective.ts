import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { inheritedFromNames } from '../../../cli/output/related-names.js';
import { limited, limitFlag } from '../../../cli/flags/paging.js';
import { resolveProject } from '../../../cli/projects/resolve-project.js';
import { effectiveTagTable } from '../../../cli/views/project.js';
import { listEffectiveTagBindings } from '../../../client/projects.js';

export default class ProjectTagsEffective extends BerthCommand<typeof ProjectTagsEffective> {
  static override summary = 'List the effective key-value tags of a project.';
  static override description = 'For a project these are the tags set on it; its workspaces inherit them.';
  static override examples = ['<%= config.bin %> project tags effective "Web Platform" --org acme'];
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    const tags = limited(await listEffectiveTagBindings(client, project.id), this.flags.limit, (shown, total) =>
      this.limitNote(shown, total),
    );
    const known = new Map([[project.id, String(project.attributes.name)]]);
    const names = this.jsonMode ? known : await inheritedFromNames(client, tags, known);
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : effectiveTagTable(tags, names)));
  }
}
