import { readFileSync } from 'node:fs';
import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { renderFields } from '../../cli/output/output.js';
import { SshKeysClient } from '../../client/relations.js';
import { BerthError } from '../../domain/common/errors.js';
import { privateKeyProblem } from '../../domain/organizations/ssh-key.js';

export default class SshKeyCreate extends BerthCommand<typeof SshKeyCreate> {
  static override summary = 'Store an SSH private key in an organization (for workspaces that fetch private modules).';
  static override description =
    'The key text is read from --key-file (or stdin with "-") and must be a PEM or OpenSSH private key (a public key or other text exits 5, nothing stored). Names are unique in the organization, in any case. The key is write-only: berth never shows it again.';
  static override examples = [
    '<%= config.bin %> ssh-key create deploy --key-file ~/.ssh/id_ed25519 --org acme',
    'cat key | <%= config.bin %> ssh-key create deploy --key-file - --org acme',
  ];
  static override args = { name: Args.string({ description: 'a name for the key', required: true }) };
  static override flags = {
    'key-file': Flags.string({ description: 'file holding the private key, or - for stdin', required: true }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const file = this.flags['key-file'];
    let value: string;
    try {
      value = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw usageError(`cannot read the key from ${file}: ${(err as Error).message}`);
    }
    const source = file === '-' ? 'stdin' : file;
    if (value.trim() === '') throw usageError(`the key in ${source} is empty`);
    const problem = privateKeyProblem(value);
    if (problem)
      throw new BerthError([
        { status: 422, title: 'invalid key', detail: `${source}: ${problem}; nothing was stored` },
      ]);
    const key = await new SshKeysClient(await this.client()).create(org, this.args.name, value);
    this.print(
      key,
      () =>
        `Created SSH key ${key.attributes.name}.\n${renderFields([
          ['ID', key.id],
          ['Name', key.attributes.name],
        ])}`,
    );
  }
}
