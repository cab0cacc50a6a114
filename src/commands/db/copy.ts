import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderTable } from '../../cli/output/output.js';
import { DatabaseLocationError, describeLocation, parseDatabaseLocation } from '../../store/location.js';
import { plural } from '../../domain/common/plural.js';

export default class DbCopy extends BerthCommand<typeof DbCopy> {
  static override summary = "Copy all of berth's data into another, empty database (e.g. from SQLite to PostgreSQL).";
  static override description =
    'Reads the database of --database / --db (one consistent snapshot) and writes every row into the --to database in one transaction, keeping ids, tokens and timestamps: ' +
    'how a team moves from the embedded SQLite file to a PostgreSQL database shared by several `berth serve` instances, or back. ' +
    'Creates the schema of --to if needed; refuses a --to database that already holds organizations, users or tokens. Stop the servers that write to the source first. Never through --server. ' +
    'Sensitive variable values are copied encrypted, as they are: the berth of --to needs the same key file (the source file with .key added, or its --secret-key-file), which the copy does not carry.';
  static override examples = [
    '<%= config.bin %> db copy --db /var/lib/berth/berth.db --to postgres://berth@db.internal:5432/berth',
    '<%= config.bin %> db copy --database postgres://berth@db.internal/berth --to ./berth-copy.db --json',
  ];
  static override flags = {
    to: Flags.string({
      description: 'the database to copy into: postgres://... URL, sqlite:PATH or a file path',
      required: true,
    }),
  };

  async run(): Promise<void> {
    const from = this.databaseLocation();
    let to;
    try {
      to = parseDatabaseLocation(this.flags.to);
    } catch (err) {
      if (err instanceof DatabaseLocationError) return this.error(`--to: ${err.message}`, { exit: 2 });
      throw err;
    }
    if (describeLocation(from) === describeLocation(to) && from.kind === to.kind)
      return this.error('--to is the database being copied', { exit: 2 });
    const { openStore } = await import('../../store/open.js');
    const { copyDatabase, CopyRefusedError } = await import('../../store/copy.js');
    const { secretKeySource } = await import('../../store/secrets/key-source.js');
    const { copyKeyNote } = await import('../../cli/instance/secret-key-notes.js');
    const source = await openStore(from);
    try {
      const target = await openStore(to);
      try {
        const result = await copyDatabase(source, target).catch((err: unknown) => {
          if (err instanceof CopyRefusedError) return this.error(err.message, { exit: 4 });
          throw err;
        });
        const summary = {
          from: describeLocation(from),
          to: describeLocation(to),
          rows: result.rows,
          tables: result.tables,
          secretKeyId: result.secretKeyId,
        };
        this.print(summary, () =>
          [
            `Copied ${plural(result.rows, 'row')} from ${summary.from} to ${summary.to}.`,
            renderTable(
              result.tables.filter((t) => t.rows > 0),
              [
                { header: 'TABLE', value: (t) => t.name },
                { header: 'ROWS', value: (t) => t.rows },
              ],
            ),
          ].join('\n'),
        );
        const key = secretKeySource(from, undefined);
        const note = copyKeyNote(result.secretKeyId, key.kind === 'file' ? key.path : null, summary.to);
        if (note) this.note(note);
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }
}
