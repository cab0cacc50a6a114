import { BerthCommand } from '../cli/base-command.js';
import { renderFields } from '../cli/output/output.js';
import { tokensApi } from '../client/teams.js';

export default class Whoami extends BerthCommand<typeof Whoami> {
  static override summary = 'Show who the current token acts as.';
  static override examples = [
    '<%= config.bin %> whoami',
    '<%= config.bin %> whoami --server https://berth.example --json',
  ];

  async run(): Promise<void> {
    const { data } = await tokensApi(await this.client()).whoami();
    const a = data.attributes;
    this.print(data, () =>
      renderFields([
        ['Acting as', a.kind === 'site-admin' ? 'site administrator' : a.kind],
        ['User', a.username],
        ['Team', a['team-name'] ? `${a['team-name']} (${a['team-id']})` : null],
        ['Organization', a.organization],
        ['Site administrator', a['site-admin'] ? 'yes' : 'no'],
        ['Token', data.id === 'local' ? 'none (local mode)' : data.id],
      ]),
    );
  }
}
