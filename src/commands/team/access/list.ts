import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { renderTable } from '../../../cli/output.js';
import { listAllProjects } from '../../../client/projects.js';
import { teamAccessApi } from '../../../client/team-access.js';
import { teamsApi } from '../../../client/teams.js';
import { WorkspacesClient } from '../../../client/workspaces.js';

interface Row {
  kind: 'project' | 'workspace';
  name: string;
  targetId: string;
  access: string;
  id: string;
}

export default class TeamAccessList extends BerthCommand<typeof TeamAccessList> {
  static override summary = 'List the projects and workspaces a team has access to (those you can see).';
  static override examples = [
    '<%= config.bin %> team access list devs --org acme',
    '<%= config.bin %> team access list devs --org acme --json',
  ];
  static override args = {
    team: Args.string({ description: 'team- id, or name within --org', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    const team = await teamsApi(client).resolve(this.args.team, org);
    const api = teamAccessApi(client);
    const rows: Row[] = [];
    const mine = (g: { relationships?: Record<string, { data?: unknown }> }) =>
      (g.relationships?.team?.data as { id?: string } | undefined)?.id === team.id;
    for (const p of await listAllProjects(client, org)) {
      for (const g of (await api.list('project', p.id)).filter(mine)) {
        rows.push({ kind: 'project', name: p.attributes.name, targetId: p.id, access: g.attributes.access, id: g.id });
      }
    }
    for (const w of await new WorkspacesClient(client).listAll(org)) {
      for (const g of (await api.list('workspace', w.id)).filter(mine)) {
        rows.push({
          kind: 'workspace',
          name: w.attributes.name,
          targetId: w.id,
          access: g.attributes.access,
          id: g.id,
        });
      }
    }
    if (this.flags.limit !== undefined) rows.splice(this.flags.limit);
    this.print(rows, () =>
      rows.length === 0
        ? `Team ${team.attributes.name} has no project or workspace access of its own.`
        : renderTable(rows, [
            { header: 'KIND', value: (r) => r.kind },
            { header: 'NAME', value: (r) => r.name },
            { header: 'ID', value: (r) => r.targetId },
            { header: 'ACCESS', value: (r) => r.access },
            { header: 'GRANT', value: (r) => r.id },
          ]),
    );
  }
}
