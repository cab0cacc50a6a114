import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { membershipsApi } from '../../client/memberships.js';
import { teamsApi } from '../../client/teams.js';

export default class OrgInvite extends BerthCommand<typeof OrgInvite> {
  static override summary = 'Invite a user, by email, to an organization (and to some of its teams).';
  static override description =
    'The user with this email is invited; when there is none, a user is created (named after the email) for a site administrator to mint a token for. The invited user accepts with `berth org join ORG` and only then acts in the organization, through the teams given here.';
  static override examples = [
    '<%= config.bin %> org invite alice@example.com --org acme',
    '<%= config.bin %> org invite alice@example.com --team devs --team ops --org acme --json',
  ];
  static override args = { email: Args.string({ description: "the user's email", required: true }) };
  static override flags = {
    team: Flags.string({
      description: 'a team (team- id or name) to join on accepting; repeatable',
      multiple: true,
      multipleNonGreedy: true,
    }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    const teams = teamsApi(client);
    const teamIds: string[] = [];
    for (const t of this.flags.team ?? []) teamIds.push((await teams.resolve(t, org)).id);
    const { data } = await membershipsApi(client).invite(org, this.args.email, teamIds);
    this.print(data, () => `Invited ${this.args.email} to organization ${org} (${data.id}).`);
  }
}
