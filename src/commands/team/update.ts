import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationAccess, teamAccessFlags, teamSettingFlags, teamSettings } from '../../cli/flags/team-access.js';
import { usageError } from '../../cli/common/prompts.js';
import { teamFields } from '../../cli/views/team.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamUpdate extends BerthCommand<typeof TeamUpdate> {
  static override summary = "Change a team's name, visibility, settings or organization access.";
  static override examples = [
    '<%= config.bin %> team update platform --org acme --manage-projects',
    '<%= config.bin %> team update platform --org acme --no-manage-workspaces',
    '<%= config.bin %> team update people --org acme --manage-organization-access --no-manage-agent-pools',
    '<%= config.bin %> team update bots --org acme --allow-member-token-management',
  ];
  static override args = { team: Args.string({ description: 'team- id, or name within --org', required: true }) };
  static override flags = {
    ...teamAccessFlags,
    ...teamSettingFlags,
    name: Flags.string({ description: 'new name' }),
    visibility: Flags.string({ description: 'secret or organization', options: ['secret', 'organization'] }),
  };

  async run(): Promise<void> {
    const api = teamsApi(await this.client());
    const access = organizationAccess(this.flags);
    const settings = teamSettings(this.flags);
    if (!access && !this.flags.name && !this.flags.visibility && Object.keys(settings).length === 0)
      throw usageError('nothing to change: pass a name, visibility, setting or access flag');
    const team = await api.resolve(this.args.team, this.flags.org);
    const { data } = await api.update(team.id, {
      name: this.flags.name,
      visibility: this.flags.visibility,
      ...settings,
      'organization-access': access,
    });
    this.print(data, () => `Updated team ${data.attributes.name}.\n${teamFields(data)}`);
  }
}
