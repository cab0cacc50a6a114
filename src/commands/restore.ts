import { Args, Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { renderFields } from '../cli/output/output.js';

export default class Restore extends BerthCommand<typeof Restore> {
  static override summary = 'Restore a backup (from `berth backup`) into a new database file.';
  /** Sets berth up: may create the SQLite database file. */
  static override createsDatabase = true;
  static override description =
    'Checks the backup first (SQLite integrity check, and that it is a berth database), then writes it to --to PATH, else to the database file (--db or $BERTH_DB). ' +
    'Refuses to overwrite an existing database, which may be the one a running `berth serve` uses, unless --force. Stop the server before a forced restore over its database. ' +
    'Sensitive variable values stay encrypted with the key the backup names (shown): the key file kept with the backup goes beside the restored file (its name with .key added), or is named with --secret-key-file.';
  static override examples = [
    '<%= config.bin %> restore /var/backups/berth-2025-06-01.db --to /var/lib/berth/restored.db',
    '<%= config.bin %> restore nightly.db --db ./berth.db --json',
    '<%= config.bin %> restore nightly.db --db ./berth.db --force',
  ];
  static override args = { file: Args.string({ description: 'the backup file to restore', required: true }) };
  static override flags = {
    to: Flags.string({ description: 'the database file to create (default: the --db / $BERTH_DB database)' }),
    force: Flags.boolean({ description: 'overwrite the target database if it exists', default: false }),
  };

  async run(): Promise<void> {
    const { restoreDatabase } = await import('../store/backup.js');
    const { restoreKeyNote } = await import('../cli/instance/secret-key-notes.js');
    const target = this.flags.to ?? this.sqliteFile('restore');
    this.note(`Restoring ${this.args.file} into ${target}`);
    const result = await restoreDatabase(this.args.file, target, { force: this.flags.force });
    this.print(result, () =>
      renderFields([
        ['Restored into', result.file],
        ['Bytes', result.bytes],
        ['From backup', result.backup],
        ['Schema version', result.schemaVersion],
        ['Replaced an existing database', result.replaced ? 'yes' : 'no'],
        ['Secret key id', result.secretKeyId ?? '-'],
      ]),
    );
    const note = restoreKeyNote(result.secretKeyId, result.file);
    if (note) this.note(note);
  }
}
