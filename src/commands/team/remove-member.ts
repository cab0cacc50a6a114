import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { changeTeamMembers } from '../../cli/teams/team-members.js';

export default class TeamRemoveMember extends BerthCommand<typeof TeamRemoveMember> {
  static override summary = 'Remove users from a team.';
  static override examples = ['<%= config.bin %> team remove-member platform alice --org acme'];
  static override strict = false;
  static override args = {
    team: Args.string({ description: 'team- id, or name within --org', required: true }),
    user: Args.string({ description: 'username (several may follow)', required: true }),
  };

  async run(): Promise<void> {
    const names = this.positionals.slice(1);
    const { before, after } = await changeTeamMembers(
      await this.client(),
      this.args.team,
      this.flags.org,
      names,
      'remove',
    );
    this.print(after, () => `Removed ${names.join(', ')} from team ${before.attributes.name}.`);
  }
}
