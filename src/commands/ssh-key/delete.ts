import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { SshKeysClient } from '../../client/relations.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { plural } from '../../domain/common/plural.js';

export default class SshKeyDelete extends BerthCommand<typeof SshKeyDelete> {
  static override summary = 'Delete an SSH key; workspaces that used it no longer have one.';
  static override description =
    'A key that workspaces use is deleted only after a confirmation that names them (on a terminal) or with --yes; elsewhere it refuses (exit 2) and changes nothing. A key no workspace uses is deleted at once.';
  static override examples = [
    '<%= config.bin %> ssh-key delete deploy --org acme',
    '<%= config.bin %> ssh-key delete sshkey-GxrePWre1Ezug7aM --org acme --yes',
  ];
  static override args = { key: Args.string({ description: 'sshkey- id, or a key name in --org', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false, aliases: ['force'] }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const keys = new SshKeysClient(client);
    const id = await keys.resolve(this.flags.org, this.args.key);
    // The workspaces of the key's organization that use it.
    const owner = (await client.get(`/ssh-keys/${encodeURIComponent(id)}`)).data.relationships?.organization?.data;
    const org = owner && !Array.isArray(owner) ? owner.id : this.requireOrg();
    const users = (await new WorkspacesClient(client).listAll(org)).filter(
      (w) => (w.relationships?.['ssh-key']?.data as { id?: string } | null | undefined)?.id === id,
    );
    if (users.length > 0) {
      const names = users.map((w) => w.attributes.name);
      const shown = `${names.slice(0, 10).join(', ')}${names.length > 10 ? `, … (${names.length - 10} more)` : ''}`;
      this.note(`SSH key ${this.args.key} is used by ${plural(users.length, 'workspace')}: ${shown}`);
      await confirmDestructive(
        `delete SSH key ${this.args.key} and unassign it from ${plural(users.length, 'workspace')}`,
        this.flags,
      );
    }
    await keys.delete(id);
    this.print(
      { id, type: 'ssh-keys', deleted: true, unassigned: users.map((w) => w.id) },
      () =>
        `Deleted SSH key ${this.args.key} (${id}).${users.length > 0 ? ` Unassigned from ${users.map((w) => w.attributes.name).join(', ')}.` : ''}`,
    );
  }
}
