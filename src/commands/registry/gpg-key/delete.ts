import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive, usageError } from '../../../cli/common/prompts.js';
import { GpgKeysClient } from '../../../client/gpg-keys.js';
import type { Resource } from '../../../client/jsonapi.js';
import { RegistryProvidersClient, type ProviderVersionAttributes } from '../../../client/registry-providers.js';
import { notFound } from '../../../domain/common/errors.js';
import { plural } from '../../../domain/common/plural.js';

export default class RegistryGpgKeyDelete extends BerthCommand<typeof RegistryGpgKeyDelete> {
  static override aliases = ['gpg-key:delete'];
  static override summary = "Delete a GPG key from the organization's registry.";
  static override description =
    'The provider versions that name the key keep its key ID but no longer install (terraform init finds no key to check their signature against): the confirmation says how many. Asks on a terminal; elsewhere give --yes.';
  static override examples = ['<%= config.bin %> registry gpg-key delete 34365D9472D7468F --org acme --yes'];
  static override args = { 'key-id': Args.string({ description: 'the key ID (16 hex digits)', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const keyId = this.args['key-id'].toUpperCase();
    if (!/^[0-9A-F]{16}$/.test(keyId)) throw usageError(`${this.args['key-id']}: a key ID is 16 hex digits`);
    const client = await this.client();
    const keys = new GpgKeysClient(client);
    if (!(await keys.list(org)).some((k) => k.attributes['key-id'] === keyId))
      throw notFound(`GPG key ${keyId} is not in ${org}`);
    const { included } = await new RegistryProvidersClient(client).list(org, { registryName: 'private' });
    const naming = included.filter(
      (r) =>
        r.type === 'registry-provider-versions' &&
        (r as Resource<ProviderVersionAttributes>).attributes['key-id'] === keyId,
    ).length;
    const note =
      naming > 0
        ? ` (${plural(naming, 'provider version')} ${naming === 1 ? 'names' : 'name'} it and will no longer install)`
        : '';
    await confirmDestructive(`delete GPG key ${keyId} of ${org}${note}`, this.flags);
    await keys.delete(org, keyId);
    this.print({ 'key-id': keyId, namespace: org, deleted: true }, () => `Deleted GPG key ${keyId} of ${org}.`);
  }
}
