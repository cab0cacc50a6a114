import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { teamGrants } from '../../cli/teams/team-grants.js';
import { teamFields } from '../../cli/views/team.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamShow extends BerthCommand<typeof TeamShow> {
  static override summary = 'Show a team, its access and its members.';
  static override examples = [
    '<%= config.bin %> team show owners --org acme',
    '<%= config.bin %> team show team-4bXkJ2pQwErTyUiO',
  ];
  static override args = { team: Args.string({ description: 'team- id, or name within --org', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    const team = await teamsApi(client).resolve(this.args.team, this.flags.org);
    // Its project and workspace access, by name, for a person (--json keeps the team resource).
    const org = team.relationships?.organization?.data;
    const grants =
      this.jsonMode || !org || Array.isArray(org) || team.attributes['is-owners']
        ? undefined
        : await teamGrants(client, org.id, team.id);
    this.print(team, () => teamFields(team, grants));
  }
}
