import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { renderTable } from '../../../cli/output/output.js';
import { teamGrants } from '../../../cli/teams/team-grants.js';
import { teamsApi } from '../../../client/teams.js';

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
    const rows = await teamGrants(client, org, team.id);
    if (this.flags.limit !== undefined && rows.length > this.flags.limit) {
      this.limitNote(this.flags.limit, rows.length);
      rows.splice(this.flags.limit);
    }
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
