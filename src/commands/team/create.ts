import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationAccess, teamAccessFlags, teamSettingFlags, teamSettings } from '../../cli/flags/team-access.js';
import { teamFields } from '../../cli/views/team.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamCreate extends BerthCommand<typeof TeamCreate> {
  static override summary = 'Create a team in an organization.';
  static override examples = [
    '<%= config.bin %> team create platform --org acme --manage-workspaces',
    '<%= config.bin %> team create auditors --org acme --read-projects --read-workspaces --visibility organization',
    '<%= config.bin %> team create people --org acme --manage-membership --manage-teams --access-secret-teams',
    '<%= config.bin %> team create bots --org acme --no-allow-member-token-management --sso-team-id 7dddb675',
  ];
  static override args = { name: Args.string({ description: 'team name', required: true }) };
  static override flags = {
    ...teamAccessFlags,
    ...teamSettingFlags,
    visibility: Flags.string({
      description: 'who sees the team: its members (secret) or the whole organization',
      options: ['secret', 'organization'],
    }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const { data } = await teamsApi(await this.client()).create(org, {
      name: this.args.name,
      visibility: this.flags.visibility,
      ...teamSettings(this.flags),
      'organization-access': organizationAccess(this.flags),
    });
    this.print(data, () => `Created team ${data.attributes.name} (${data.id}).\n${teamFields(data)}`);
  }
}
