import { Args, Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { renderFields } from '../cli/output/output.js';

export default class Backup extends BerthCommand<typeof Backup> {
  static override summary = 'Take a consistent online backup of the local database into FILE.';
  static override description =
    "Uses SQLite's online backup API: safe while `berth serve` runs on the same database; the backup is the database as of one instant, in a single self-contained file. " +
    'Works on the SQLite database file (--db or $BERTH_DB), never through --server: run it on the host of the server (for PostgreSQL, use pg_dump). The backup holds sensitive variable values encrypted, and never their key (the key file beside the database): keep a copy of the key file with the backups. Refuses to overwrite FILE unless --force; forced, the new copy replaces FILE in one atomic rename, so a backup killed or failing halfway leaves the old FILE intact. Leftovers of killed backups (FILE.partial-PID) are removed.';
  static override examples = [
    '<%= config.bin %> backup /var/backups/berth-$(date +%F).db --db /var/lib/berth/berth.db',
    '<%= config.bin %> backup nightly.db --force --json',
  ];
  static override args = { file: Args.string({ description: 'the backup file to write', required: true }) };
  static override flags = {
    force: Flags.boolean({ description: 'overwrite FILE if it exists', default: false }),
  };

  async run(): Promise<void> {
    const { backupDatabase } = await import('../store/backup.js');
    const { backupKeyNote } = await import('../cli/instance/secret-key-notes.js');
    const { secretKeySource } = await import('../store/secrets/key-source.js');
    const source = this.sqliteFile('backup');
    this.note(`Backing up ${source} into ${this.args.file}`);
    const result = await backupDatabase(source, this.args.file, { force: this.flags.force });
    this.print(result, () =>
      renderFields([
        ['Backup', result.file],
        ['Bytes', result.bytes],
        ['From', result.source],
        ['Pages', result.pages],
        ['Schema version', result.schemaVersion],
        ['Secret key id', result.secretKeyId ?? '-'],
      ]),
    );
    const key = secretKeySource(source, undefined);
    const note = backupKeyNote(result.secretKeyId, key.kind === 'file' ? key.path : null);
    if (note) this.note(note);
  }
}
