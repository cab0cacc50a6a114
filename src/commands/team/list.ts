import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { teamTable } from '../../cli/views/team.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamList extends BerthCommand<typeof TeamList> {
  static override summary = 'List the teams of an organization that you can see.';
  static override examples = [
    '<%= config.bin %> team list --org acme',
    '<%= config.bin %> team list --org acme --json',
  ];

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const teams = await teamsApi(await this.client()).list(this.requireOrg(), { limit: this.flags.limit });
    this.print(teams, () => teamTable(teams));
  }
}
