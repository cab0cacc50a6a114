import { sql, type Kysely } from 'kysely';
import { isPostgres } from './kind.js';
import type { Store } from './open.js';
import { recordedKeyId } from './secrets/sealed-values.js';
import { readTransaction, writeTransaction } from './transaction.js';

export class CopyRefusedError extends Error {}

export interface CopyResult {
  tables: { name: string; rows: number }[];
  rows: number;
  /**
   * The id of the key the sensitive values are encrypted with (null: none set up). They are
   * copied as they are, encrypted; the key is in no database, so the target's berth needs it too.
   */
  secretKeyId: string | null;
}

const DERIVED_TABLES = new Set(['berth_migrations', 'security_generation', 'workspace_counts']);

/** A table to copy, with the columns of its primary key (in key order): how its rows are paged. */
interface TableToCopy {
  name: string;
  key: string[];
  /** Whether it has a `seq` identity column (PostgreSQL's sequence must follow the copied values). */
  seq: boolean;
}

/** Tables that hold data, in the order the migrations create them (so, referenced before referencing). */
async function tablesInOrder(): Promise<TableToCopy[]> {
  // A fresh in-memory SQLite database knows that order: SQLite lists tables as they were created.
  // Virtual tables and their shadow tables (the name index, migration 019) are not data: the
  // target's own triggers or indexes fill them as the workspaces arrive.
  const { openSqliteStore } = await import('./sqlite.js');
  const scratch = await openSqliteStore(':memory:');
  try {
    const { rows } = await sql<{
      name: string;
    }>`select m.name from sqlite_master m join pragma_table_list l on l.schema = 'main' and l.name = m.name
      where m.type = 'table' and l.type = 'table' and m.name not like 'sqlite_%' order by m.rowid`.execute(scratch.db);
    // Derived tables are the target's own: its migration made the security generation's one row
    // (022), and its triggers count the workspaces as they arrive (023).
    const tables: TableToCopy[] = [];
    for (const { name } of rows.filter((r) => !DERIVED_TABLES.has(r.name))) {
      const columns = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name})`.execute(
        scratch.db,
      );
      const key = columns.rows
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      tables.push({ name, key, seq: columns.rows.some((c) => c.name === 'seq') });
    }
    return tables;
  } finally {
    await scratch.close();
  }
}

/** Every table by name, each row as plain values: the copy goes over tables it names at run time. */
type Tables = Record<string, Record<string, unknown>>;

/** Rows per insert statement: both engines cap the parameters of one statement. */
const PARAMETERS_PER_STATEMENT = 30_000;

/**
 * Rows read from the source at a time, in the order of their key: the copy holds one batch in
 * memory, never a whole table. Tables whose rows are whole files (a state, a configuration, a
 * saved plan: megabytes each) are read a row at a time.
 */
const BATCH_ROWS = 500;
const FILE_TABLES = new Set([
  'state_files',
  'configuration_files',
  'saved_plans',
  'plan_json_outputs',
  // A megabyte of a provider archive per row; a version's SHA256SUMS and signature.
  'registry_archive_chunks',
  'registry_provider_versions',
]);

/** The rows of `table` after `after` (its key's values), the next `limit` of them in key order. */
function nextRows(src: Kysely<Tables>, table: TableToCopy, after: unknown[] | null, limit: number) {
  let q = src.selectFrom(table.name).selectAll();
  if (after)
    q = q.where(
      sql<boolean>`(${sql.join(table.key.map((c) => sql.ref(c)))}) > (${sql.join(after.map((v) => sql`${v}`))})`,
    );
  for (const c of table.key) q = q.orderBy(c);
  return q.limit(limit).execute();
}

/**
 * Copies every row of berth's tables from one database to another (SQLite to PostgreSQL when a
 * team moves to several instances, or back), keeping ids, keys and timestamps. Both are at the
 * same schema version (opening them migrated them). The target must hold no organizations, users
 * or tokens yet. One read snapshot of the source, read in batches of `batchRows` (tests make it
 * small); one write transaction on the target, so a failure leaves it as it was.
 */
export async function copyDatabase(
  from: Store,
  to: Store,
  onTable?: (name: string, rows: number) => void,
  batchRows = BATCH_ROWS,
): Promise<CopyResult> {
  const tables = await tablesInOrder();
  return readTransaction(from.db, async (src) =>
    writeTransaction(to.db, async (dst) => {
      const target = dst as unknown as Kysely<Tables>;
      for (const table of ['organizations', 'users', 'tokens']) {
        const { n } = await target
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(n) > 0)
          throw new CopyRefusedError(
            `the target database is not empty (its ${table} table has rows); copy into a new, empty database`,
          );
      }
      // Instance settings the target made when it was created give way to the source's.
      await target.deleteFrom('settings').execute();
      const result: CopyResult = { tables: [], rows: 0, secretKeyId: await recordedKeyId(src) };
      for (const table of tables) {
        let copied = 0;
        // A table without a key (none has one today) is read whole.
        const limit = table.key.length === 0 ? Number.MAX_SAFE_INTEGER : FILE_TABLES.has(table.name) ? 1 : batchRows;
        let after: unknown[] | null = null;
        for (;;) {
          const rows = await nextRows(src as unknown as Kysely<Tables>, table, after, limit);
          if (rows.length === 0) break;
          const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / Object.keys(rows[0]).length));
          for (let i = 0; i < rows.length; i += perStatement)
            await target
              .insertInto(table.name)
              .values(rows.slice(i, i + perStatement))
              .execute();
          copied += rows.length;
          if (rows.length < limit) break;
          const last = rows[rows.length - 1];
          after = table.key.map((c) => last[c]);
        }
        if (copied > 0 && isPostgres(target) && table.seq) {
          // Identity columns do not follow explicit values: move them past the copied keys.
          await sql`select setval(pg_get_serial_sequence(${table.name}, 'seq'), (select max(seq) from ${sql.table(table.name)}))`.execute(
            target,
          );
        }
        result.tables.push({ name: table.name, rows: copied });
        result.rows += copied;
        onTable?.(table.name, copied);
      }
      return result;
    }),
  );
}
