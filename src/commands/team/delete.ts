import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { refuseUnlessPermitted } from '../../cli/common/refusals.js';
import { teamsApi } from '../../client/teams.js';

export default class TeamDelete extends BerthCommand<typeof TeamDelete> {
  static override summary = 'Delete a team (never the owners team).';
  static override examples = ['<%= config.bin %> team delete platform --org acme --yes'];
  static override args = { team: Args.string({ description: 'team- id, or name within --org', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const api = teamsApi(await this.client());
    const team = await api.resolve(this.args.team, this.flags.org);
    // Refused before the confirmation, with the API's answer (404, exit 3); the owners team's own
    // refusal (403: it is never deleted) is the API's to say.
    if (team.attributes.name !== 'owners')
      refuseUnlessPermitted(team, 'can-destroy', { status: 404, action: `delete team ${team.attributes.name}` });
    await confirmDestructive(`delete team ${team.attributes.name}`, this.flags);
    await api.delete(team.id);
    this.print({ id: team.id, type: 'teams', deleted: true }, () => `Deleted team ${team.attributes.name}.`);
  }
}
