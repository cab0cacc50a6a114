import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { SshKeysClient } from '../../client/relations.js';

export default class SshKeyDelete extends BerthCommand<typeof SshKeyDelete> {
  static override summary = 'Delete an SSH key; workspaces that used it no longer have one.';
  static override examples = [
    '<%= config.bin %> ssh-key delete deploy --org acme',
    '<%= config.bin %> ssh-key delete sshkey-GxrePWre1Ezug7aM',
  ];
  static override args = { key: Args.string({ description: 'sshkey- id, or a key name in --org', required: true }) };

  async run(): Promise<void> {
    const keys = new SshKeysClient(await this.client());
    const id = await keys.resolve(this.flags.org, this.args.key);
    await keys.delete(id);
    this.print({ deleted: id }, () => `Deleted SSH key ${id}.`);
  }
}
