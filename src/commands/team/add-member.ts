import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { changeTeamMembers } from '../../cli/teams/team-members.js';

export default class TeamAddMember extends BerthCommand<typeof TeamAddMember> {
  static override summary = 'Add members of the organization to a team, by username.';
  static override description =
    'Only members of the organization (see `berth org invite`) can be put in its teams; an invited member joins the team when they accept.';
  static override examples = [
    '<%= config.bin %> team add-member owners alice --org acme',
    '<%= config.bin %> team add-member platform alice bob --org acme',
  ];
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
      'add',
    );
    this.print(after, () => `Added ${names.join(', ')} to team ${before.attributes.name}.`);
  }
}
