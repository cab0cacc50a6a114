import { Args } from '@oclif/core';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { ProjectWorkspacesClient, resolveProjectId, WorkspacesClient } from '../../client/workspaces.js';

export default class ProjectMoveWorkspaces extends BerthCommand<typeof ProjectMoveWorkspaces> {
  static override summary = 'Move workspaces into a project (all or nothing).';
  static override description =
    'PROJECT is a prj- id or a project name in --org. Each WORKSPACE is a ws- id, a NAME in --org, or ORG/NAME. Either every workspace moves or none does.';
  static override examples = [
    '<%= config.bin %> project move-workspaces prj-WsVcWRr7SfxRci1v app-prod app-staging --org acme',
    '<%= config.bin %> project move-workspaces Platform ws-6jrRyVDv1J8zQMB5 --org acme',
  ];
  static override strict = false;
  static override args = {
    project: Args.string({ description: 'prj- id or project name', required: true }),
    workspace: Args.string({ description: 'workspace(s) to move', required: true }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(ProjectMoveWorkspaces);
    const [project, ...workspaces] = argv as string[];
    if (!project || workspaces.length === 0) throw usageError('usage: project move-workspaces PROJECT WORKSPACE...');
    const client = await this.client();
    const org = this.flags.org;
    let projectId = project;
    if (!/^prj-[A-Za-z0-9]{16}$/.test(project)) {
      if (!org) throw usageError('a project name needs --org (or pass the prj- id)');
      projectId = await resolveProjectId(client, org, project);
    }
    const ws = new WorkspacesClient(client);
    const ids: string[] = [];
    for (const arg of workspaces) {
      const ref = parseWorkspaceArg(arg, org);
      ids.push('id' in ref ? ref.id : (await ws.get(ref)).data.id);
    }
    await new ProjectWorkspacesClient(client).move(projectId, ids);
    this.print({ project: projectId, moved: ids }, () => `Moved ${ids.length} workspace(s) into project ${projectId}: ${ids.join(', ')}`);
  }
}
