import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationAccess, teamAccessFlags } from '../../cli/flags/team-access.js';
import { usageError } from '../../cli/prompts.js';
import { teamFields } from '../../cli/views/team.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamUpdate extends BerthCommand<typeof TeamUpdate> {
  static override summary = "Change a team's name, visibility or organization access.";
  static override examples = [
    '<%= config.bin %> team update platform --org acme --manage-projects',
    '<%= config.bin %> team update platform --org acme --no-manage-workspaces',
  ];
  static override args = { team: Args.string({ description: 'team- id, or name within --org', required: true }) };
  static override flags = {
    ...teamAccessFlags,
    name: Flags.string({ description: 'new name' }),
    visibility: Flags.string({ description: 'secret or organization', options: ['secret', 'organization'] }),
  };

  async run(): Promise<void> {
    const api = teamsApi(await this.client());
    const access = organizationAccess(this.flags);
    if (!access && !this.flags.name && !this.flags.visibility)
      throw usageError('nothing to change: pass a name, visibility or access flag');
    const team = await api.resolve(this.args.team, this.flags.org);
    const { data } = await api.update(team.id, {
      name: this.flags.name,
      visibility: this.flags.visibility,
      'organization-access': access,
    });
    this.print(data, () => `Updated team ${data.attributes.name}.\n${teamFields(data)}`);
  }
}
