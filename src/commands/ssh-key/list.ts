import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { sshKeyTable } from '../../cli/views/relations.js';
import { SshKeysClient } from '../../client/relations.js';

export default class SshKeyList extends BerthCommand<typeof SshKeyList> {
  static override summary = 'List the SSH keys of an organization (names only, never the keys).';
  static override examples = ['<%= config.bin %> ssh-key list --org acme'];

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const keys = await new SshKeysClient(await this.client()).list(this.requireOrg(), { limit: this.flags.limit });
    this.print(keys, () => (keys.length === 0 ? 'No SSH keys.' : sshKeyTable(keys)));
  }
}
