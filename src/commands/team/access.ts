import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { resolveProject } from '../../cli/projects/resolve-project.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { teamAccessApi } from '../../client/team-access.js';
import { teamsApi } from '../../client/teams.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { PROJECT_ACCESS_LEVELS, WORKSPACE_ACCESS_LEVELS } from '../../domain/permissions/access.js';

export default class TeamAccess extends BerthCommand<typeof TeamAccess> {
  static override summary = "Grant, change or remove a team's access to one workspace or one project.";
  static override description =
    'Creates the grant when the team has none on the workspace or project, else changes its level. ' +
    'Workspace levels: read, plan, write, admin. Project levels: read, write, maintain, admin (project access applies to every workspace in it). ' +
    'Custom levels are set through the API (team-workspaces, team-projects).';
  static override examples = [
    '<%= config.bin %> team access devs --workspace web --level write --org acme',
    '<%= config.bin %> team access platform --project Payments --level admin --org acme',
    '<%= config.bin %> team access devs --workspace web --remove --org acme',
  ];
  static override args = {
    team: Args.string({ description: 'team- id, or name within --org', required: true }),
  };
  static override flags = {
    workspace: Flags.string({
      char: 'w',
      description: 'workspace: ws- id, ORG/NAME, or NAME in --org',
      exactlyOne: ['workspace', 'project'],
    }),
    project: Flags.string({ char: 'p', description: 'project: prj- id, or name in --org' }),
    level: Flags.string({
      description: 'access level (workspace: read|plan|write|admin; project: read|write|maintain|admin)',
    }),
    remove: Flags.boolean({ description: "remove the team's access instead", default: false }),
  };

  async run(): Promise<void> {
    const { level, remove } = this.flags;
    const kind = this.flags.workspace !== undefined ? 'workspace' : 'project';
    const allowed = (kind === 'workspace' ? WORKSPACE_ACCESS_LEVELS : PROJECT_ACCESS_LEVELS).filter(
      (l) => l !== 'custom',
    );
    if (remove && level !== undefined) throw usageError('--remove and --level cannot be combined');
    if (!remove && level === undefined) throw usageError(`--level is required: one of ${allowed.join(', ')}`);
    if (level !== undefined && !(allowed as readonly string[]).includes(level)) {
      throw usageError(`--level for a ${kind} must be one of ${allowed.join(', ')}`);
    }
    const client = await this.client();
    const team = await teamsApi(client).resolve(this.args.team, this.flags.org);
    const target =
      kind === 'workspace'
        ? (await new WorkspacesClient(client).get(parseWorkspaceArg(this.flags.workspace!, this.flags.org))).data
        : await resolveProject(client, this.flags.project!, this.flags.org);
    const api = teamAccessApi(client);
    const existing = await api.find(kind, target.id, team.id);
    const what = `${kind} ${target.attributes.name}`;
    if (remove) {
      if (!existing) {
        this.print({ removed: false }, () => `Team ${team.attributes.name} has no access of its own to ${what}.`);
        return;
      }
      await api.delete(kind, existing.id);
      this.print(
        { removed: true, id: existing.id },
        () => `Removed the access of team ${team.attributes.name} to ${what}.`,
      );
      return;
    }
    const { data } = existing
      ? await api.update(kind, existing.id, level!)
      : await api.create(kind, team.id, target.id, level!);
    this.print(data, () => `Team ${team.attributes.name} has ${level} access to ${what}.`);
  }
}
