import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { membershipsApi } from '../../client/memberships.js';
import { notFound } from '../../domain/common/errors.js';

export default class OrgJoin extends BerthCommand<typeof OrgJoin> {
  static override summary = 'Accept your invitation to an organization.';
  static override description =
    'Run it with your own token: the invitation becomes an active membership, and you join the teams you were invited to.';
  static override examples = ['BERTH_TOKEN=... <%= config.bin %> org join acme'];
  static override args = { name: Args.string({ description: 'organization name (default: --org)' }) };

  async run(): Promise<void> {
    const org = this.args.name ?? this.requireOrg();
    const api = membershipsApi(await this.client());
    const mine = (await api.own()).find((m) => {
      const data = m.relationships?.organization?.data;
      return !!data && !Array.isArray(data) && data.id === org;
    });
    if (!mine) throw notFound(`you have no invitation to organization ${org}`);
    if (mine.attributes.status === 'active') {
      this.print(mine, () => `You are already a member of organization ${org}.`);
      return;
    }
    const { data } = await api.accept(mine.id);
    this.print(data, () => `You are now a member of organization ${org}.`);
  }
}
