import { sql, type Kysely } from 'kysely';
import { isPostgres } from './kind.js';
import type { Store } from './open.js';
import { readTransaction, writeTransaction } from './transaction.js';

export class CopyRefusedError extends Error {}

export interface CopyResult {
  tables: { name: string; rows: number }[];
  rows: number;
}

const DERIVED_TABLES = new Set(['berth_migrations', 'security_generation', 'workspace_counts']);

/** Tables that hold data, in the order the migrations create them (so, referenced before referencing). */
async function tablesInOrder(): Promise<string[]> {
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
    return rows.map((r) => r.name).filter((name) => !DERIVED_TABLES.has(name));
  } finally {
    await scratch.close();
  }
}

/** Every table by name, each row as plain values: the copy goes over tables it names at run time. */
type Tables = Record<string, Record<string, unknown>>;

/** Rows per insert statement: both engines cap the parameters of one statement. */
const PARAMETERS_PER_STATEMENT = 30_000;

/**
 * Copies every row of berth's tables from one database to another (SQLite to PostgreSQL when a
 * team moves to several instances, or back), keeping ids, keys and timestamps. Both are at the
 * same schema version (opening them migrated them). The target must hold no organizations, users
 * or tokens yet. One read snapshot of the source; one write transaction on the target, so a
 * failure leaves it as it was.
 */
export async function copyDatabase(
  from: Store,
  to: Store,
  onTable?: (name: string, rows: number) => void,
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
      const result: CopyResult = { tables: [], rows: 0 };
      for (const table of tables) {
        const rows = await (src as unknown as Kysely<Tables>).selectFrom(table).selectAll().execute();
        if (rows.length > 0) {
          const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / Object.keys(rows[0]).length));
          for (let i = 0; i < rows.length; i += perStatement)
            await target
              .insertInto(table)
              .values(rows.slice(i, i + perStatement))
              .execute();
          if (isPostgres(target) && 'seq' in rows[0]) {
            // Identity columns do not follow explicit values: move them past the copied keys.
            await sql`select setval(pg_get_serial_sequence(${table}, 'seq'), (select max(seq) from ${sql.table(table)}))`.execute(
              target,
            );
          }
        }
        result.tables.push({ name: table, rows: rows.length });
        result.rows += rows.length;
        onTable?.(table, rows.length);
      }
      return result;
    }),
  );
}
