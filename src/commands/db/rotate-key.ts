import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { renderFields, renderTable } from '../../cli/output/output.js';
import type { Store } from '../../store/open.js';
import type { SecretKeySource } from '../../store/secrets/keyring.js';
import { describeLocation } from '../../store/location.js';
import { plural } from '../../domain/common/plural.js';

export default class DbRotateKey extends BerthCommand<typeof DbRotateKey> {
  static override summary = 'Encrypt every sensitive variable value with a new secret key, and retire the old key.';
  static override description =
    'Works on the database of --database / --db and its secret key (--secret-key-file / BERTH_SECRET_KEY_FILE, else BERTH_SECRET_KEY, else the SQLite file with .key added): ' +
    'checks that the key opens every sensitive value (else stops, exit 9, changing nothing), writes a new key beside the old one in the key file, re-encrypts every value with it and names it in the database in one transaction, then drops the old key from the file. ' +
    'A crash at any point leaves every value readable: before the commit the database keeps the old key, after it the file holds both until the next rotation. ' +
    'With BERTH_SECRET_KEY (which berth cannot rewrite), or to keep the old file as it is, --new-key-file PATH writes the new key into a new file instead. ' +
    'A SQLite `berth serve` on the same file picks the new key up by itself; on PostgreSQL, give every other instance the new key file and restart it. ' +
    'A lost key cannot be recovered: --replace-lost-key deletes the sensitive variables whose values only it opened (listed, to be set again) and gives the database a new key in a new file. Never through --server. Prints the key ids, never a key.';
  static override examples = [
    '<%= config.bin %> db rotate-key --db /var/lib/berth/berth.db',
    '<%= config.bin %> db rotate-key --database postgres://berth@db.internal/berth --secret-key-file /etc/berth/secret.key --json',
    'BERTH_SECRET_KEY=... <%= config.bin %> db rotate-key --database postgres://berth@db.internal/berth --new-key-file /etc/berth/secret-2.key',
    '<%= config.bin %> db rotate-key --db /var/lib/berth/berth.db --replace-lost-key --yes',
  ];
  static override flags = {
    'secret-key-file': Flags.string({
      description: 'the key file of the database (default: BERTH_SECRET_KEY, else the SQLite file with .key added)',
      env: 'BERTH_SECRET_KEY_FILE',
    }),
    'new-key-file': Flags.string({
      description: 'write the new key into this new file (it must not exist) and leave the old key where it is',
    }),
    'replace-lost-key': Flags.boolean({
      description:
        "the database's key is lost: delete the sensitive variables only it could open (listed, to be set again) and give the database a new key, in a new file; asks first (--yes skips)",
      default: false,
    }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation (--replace-lost-key)', default: false }),
  };

  async run(): Promise<void> {
    if ((this.flags as { server?: string }).server)
      return this.error(
        'db rotate-key works on the database itself: run it on a host that reaches it, without --server',
        {
          exit: 2,
        },
      );
    const location = this.databaseLocation();
    const { openStore } = await import('../../store/open.js');
    const { secretKeySource } = await import('../../store/secrets/key-source.js');
    const source = secretKeySource(location, this.flags['secret-key-file']);
    if (this.flags['replace-lost-key'])
      await confirmDestructive(
        'delete every sensitive variable whose value only the lost key opens, and give the database a new key',
        this.flags,
      );
    const store = await openStore(location);
    try {
      if (this.flags['replace-lost-key']) await this.replaceLost(store, source, describeLocation(location));
      else await this.rotate(store, source, describeLocation(location));
    } finally {
      await store.close();
    }
  }

  private async rotate(store: Store, source: SecretKeySource, database: string): Promise<void> {
    const { rotateSecretKey } = await import('../../store/secrets/rotation.js');
    const result = await rotateSecretKey(store, source, { newKeyFile: this.flags['new-key-file'] });
    this.print({ database, ...result }, () =>
      renderFields([
        ['Database', database],
        ['Key file', result.keyFile],
        ['Key id', result.keyId],
        ['Previous key id', result.previousKeyId],
        ['Values re-encrypted', result.values],
      ]),
    );
    this.note(
      this.flags['new-key-file']
        ? `Encrypted ${plural(result.values, 'sensitive value')} with key ${result.keyId}: the database now needs ${result.keyFile}; give it to every berth of this database (--secret-key-file), then remove the old key.`
        : `Encrypted ${plural(result.values, 'sensitive value')} with key ${result.keyId}, now alone in ${result.keyFile}. Copies of the old key file open only backups taken before this rotation.`,
    );
  }

  private async replaceLost(store: Store, source: SecretKeySource, database: string): Promise<void> {
    const { replaceLostKey } = await import('../../store/secrets/lost-key.js');
    const result = await replaceLostKey(store, source, { newKeyFile: this.flags['new-key-file'] });
    this.print({ database, ...result }, () =>
      result.deleted.length === 0
        ? 'No sensitive variable needed the lost key.'
        : renderTable(result.deleted, [
            { header: 'DELETED', value: (v) => v.key },
            { header: 'CATEGORY', value: (v) => v.category },
            { header: 'OF', value: (v) => v.owner },
          ]),
    );
    this.note(
      `The database's key is now ${result.keyId}, in ${result.keyFile} (the lost one was ${result.lostKeyId}); ${plural(result.deleted.length, 'sensitive variable was', 'sensitive variables were')} deleted: set them again.`,
    );
  }
}
