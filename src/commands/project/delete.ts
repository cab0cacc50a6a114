import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { refuseUnlessPermitted } from '../../cli/common/refusals.js';
import { resolveProject } from '../../cli/projects/resolve-project.js';
import { deleteProject } from '../../client/projects.js';

export default class ProjectDelete extends BerthCommand<typeof ProjectDelete> {
  static override summary = 'Delete an empty project.';
  static override description =
    'A project that still contains workspaces cannot be deleted, nor can the default project of an organization (exit code 4). Asks to confirm on a terminal; elsewhere it refuses unless --yes is given.';
  static override examples = [
    '<%= config.bin %> project delete "Old stuff" --org acme',
    '<%= config.bin %> project delete prj-WsVcWRr7SfxRci1v --yes',
  ];
  static override args = {
    project: Args.string({ description: 'project id (prj-...) or name in --org', required: true }),
  };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const project = await resolveProject(client, this.args.project, this.flags.org);
    const label = `${project.attributes.name} (${project.id})`;
    // Refused before the confirmation, with the API's answer (403, exit 6).
    refuseUnlessPermitted(project, 'can-destroy', { status: 403, action: `delete project ${project.attributes.name}` });
    await confirmDestructive(`delete project ${label}`, this.flags);
    await deleteProject(client, project.id);
    this.print({ id: project.id, type: 'projects', deleted: true }, () => `Deleted project ${label}.`);
  }
}
