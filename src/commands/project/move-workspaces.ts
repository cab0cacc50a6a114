import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { bulkFlags, confirmBulk, matchingWorkspaces } from '../../cli/workspaces/bulk.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { resolveProject } from '../../cli/projects/resolve-project.js';
import { ProjectWorkspacesClient, WorkspacesClient } from '../../client/workspaces.js';
import { plural } from '../../domain/common/plural.js';

export default class ProjectMoveWorkspaces extends BerthCommand<typeof ProjectMoveWorkspaces> {
  static override summary = 'Move workspaces into a project (all or nothing).';
  static override description = `PROJECT is a prj- id or a project name in --org. Each WORKSPACE is a ws- id, a NAME in --org, or ORG/NAME. Either every workspace moves or none does.

With --all-matching and the filters of \`workspace list\`, moves every matching workspace (not already in the project): it previews them and asks to confirm on a terminal (or takes --yes). --dry-run shows what would move and moves nothing.`;
  static override examples = [
    '<%= config.bin %> project move-workspaces prj-WsVcWRr7SfxRci1v app-prod app-staging --org acme',
    '<%= config.bin %> project move-workspaces Platform ws-6jrRyVDv1J8zQMB5 --org acme',
    '<%= config.bin %> project move-workspaces Platform --all-matching --wildcard "platform-*" --org acme --yes',
  ];
  static override strict = false;
  static override args = {
    project: Args.string({ description: 'prj- id or project name', required: true }),
    workspace: Args.string({ description: 'workspace(s) to move' }),
  };
  static override flags = {
    ...bulkFlags('move'),
  };

  async run(): Promise<void> {
    const [project, ...workspaces] = this.positionals;
    const client = await this.client();
    const org = this.flags.org;
    if (!/^prj-[A-Za-z0-9]{16}$/.test(project) && !org)
      throw usageError('a project name needs --org (or pass the prj- id)');
    const target = await resolveProject(client, project, org);
    const projectId = target.id;
    const projectName = String(target.attributes.name);
    const ws = new WorkspacesClient(client);
    const ids: string[] = [];
    const names: string[] = [];
    const already: { id: string; name: string }[] = [];
    if (this.flags['all-matching']) {
      const matching = (await matchingWorkspaces(client, this.requireOrg(), workspaces, this.flags)).filter(
        (w) => (w.relationships?.project?.data as { id?: string } | undefined)?.id !== projectId,
      );
      if (matching.length === 0) {
        this.print({ project: projectId, moved: [] }, () => 'No matching workspace outside the project.');
        return;
      }
      await confirmBulk(matching, `Moving into ${projectName}`, this.flags);
      ids.push(...matching.map((w) => w.id));
      names.push(...matching.map((w) => String(w.attributes.name)));
    } else {
      if (workspaces.length === 0)
        throw usageError('usage: project move-workspaces PROJECT WORKSPACE... (or --all-matching with filters)');
      for (const arg of workspaces) {
        const { data } = await ws.get(parseWorkspaceArg(arg, org));
        if (ids.includes(data.id) || already.some((a) => a.id === data.id)) continue;
        // Already in the project: nothing to move, and said so rather than counted as moved.
        if ((data.relationships?.project?.data as { id?: string } | undefined)?.id === projectId) {
          already.push({ id: data.id, name: String(data.attributes.name) });
          continue;
        }
        ids.push(data.id);
        names.push(String(data.attributes.name));
      }
    }
    const alreadyThere = already.length > 0 ? { 'already-in-project': already.map((a) => a.id) } : {};
    const alreadyLine =
      already.length > 0
        ? ` ${already.map((a) => a.name).join(', ')} ${already.length === 1 ? 'was' : 'were'} already in ${projectName}.`
        : '';
    if (this.flags['dry-run']) {
      this.print(
        { project: projectId, moved: [], 'would-move': ids, ...alreadyThere, 'dry-run': true },
        () =>
          `Dry run: would move ${plural(ids.length, 'workspace')} into project ${project}; nothing was changed.${alreadyLine}`,
      );
      return;
    }
    if (ids.length === 0) {
      this.print({ project: projectId, moved: [], ...alreadyThere }, () => `Nothing to move.${alreadyLine}`);
      return;
    }
    await new ProjectWorkspacesClient(client).move(projectId, ids);
    this.print(
      { project: projectId, moved: ids, ...alreadyThere },
      () => `Moved ${plural(ids.length, 'workspace')} into ${projectName}: ${names.join(', ')}.${alreadyLine}`,
    );
  }
}
