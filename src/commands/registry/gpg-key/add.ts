import { readFileSync } from 'node:fs';
import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { GpgKeysClient } from '../../../client/gpg-keys.js';
import { BerthError } from '../../../domain/common/errors.js';
import { readArmoredKeyDetails } from '../../../domain/registry/gpg-armor.js';

export default class RegistryGpgKeyAdd extends BerthCommand<typeof RegistryGpgKeyAdd> {
  static override aliases = ['gpg-key:add'];
  static override summary =
    "Add a GPG public key to the organization's registry (the key that signs provider releases).";
  static override description =
    'FILE is an ASCII-armored OpenPGP public key (gpg --armor --export KEY), or - for stdin. Its namespace is the organization; its key ID is read from it. Terraform checks the SHA256SUMS signature of each provider version against it. Needs owners or a team with manage-providers.';
  static override examples = [
    'gpg --armor --export releases@acme.test > signing-key.asc && <%= config.bin %> registry gpg-key add signing-key.asc --org acme',
    'gpg --armor --export 34365D9472D7468F | <%= config.bin %> gpg-key add - --org acme --json',
  ];
  static override args = {
    file: Args.string({ description: 'the armored public key, or - for stdin', required: true }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const file = this.args.file;
    let armor: string;
    try {
      armor = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw usageError(`cannot read the key from ${file}: ${(err as Error).message}`);
    }
    const source = file === '-' ? 'stdin' : file;
    const details = readArmoredKeyDetails(armor);
    if (typeof details === 'string')
      throw new BerthError([
        {
          status: 422,
          title: 'invalid key',
          detail: `${source} is not an armored OpenPGP public key: ${details}; nothing was added`,
        },
      ]);
    const key = await new GpgKeysClient(await this.client()).add(org, armor);
    const who = details.userIds[0] ? ` (${details.userIds[0]})` : '';
    this.print(key, () => `Added GPG key ${key.attributes['key-id']}${who} to ${org}.`);
  }
}
