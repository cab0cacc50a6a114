import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { isPostgres, MIGRATION_LOCK_KEY } from './kind.js';
import type { DB } from './schema.js';
import { NewerSchemaError } from './database-errors.js';
import { writeTransaction } from './transaction.js';

const createLedger = <T>(db: Kysely<T>) =>
  sql`create table if not exists berth_migrations (version integer primary key, name text not null, applied_at text not null)`.execute(
    db,
  );

async function appliedVersions(db: Kysely<DB>): Promise<Set<number>> {
  return new Set((await db.selectFrom('berth_migrations').select('version').execute()).map((r) => r.version));
}

/**
 * Refuses a database a newer berth migrated: one with a recorded migration this build does not
 * know (never mind its number: a migration merged later may carry a lower one).
 */
async function refuseNewerSchema(db: Kysely<DB>, migrations: Migration[], where: string): Promise<Set<number>> {
  const known = new Set(migrations.map((m) => m.version));
  const applied = await db.selectFrom('berth_migrations').select(['version', 'name']).execute();
  const unknown = applied.filter((r) => !known.has(r.version)).sort((a, b) => b.version - a.version);
  if (unknown.length > 0) throw new NewerSchemaError(where, unknown[0], Math.max(...known));
  return new Set(applied.map((r) => r.version));
}

async function record(tx: Kysely<DB>, m: Migration): Promise<void> {
  await tx
    .insertInto('berth_migrations')
    .values({ version: m.version, name: m.name, applied_at: new Date().toISOString() })
    .execute();
}

/**
 * Applies every migration not yet recorded in `berth_migrations`, each in its own transaction,
 * and returns how many it applied. Safe when several processes or instances start at once:
 * - SQLite: the write lock makes them take turns, and each re-reads what is applied once it
 *   holds the lock;
 * - PostgreSQL: one instance at a time holds an advisory lock for the whole run, on one
 *   connection; the others wait for it, then find everything applied.
 */
export async function migrate(
  db: Kysely<DB>,
  migrations: Migration[] = MIGRATIONS,
  where = 'the database',
): Promise<number> {
  if (isPostgres(db)) return migratePostgres(db, migrations, where);
  await createLedger(db);
  // The common case, every migration applied: one read, no write lock. (Compare the sets, not the
  // highest number: a migration merged later may carry a lower number than one already applied.)
  const applied0 = await refuseNewerSchema(db, migrations, where);
  if (migrations.every((m) => applied0.has(m.version))) return 0;
  let applied = 0;
  for (const m of migrations) {
    const done = await writeTransaction(db, async (tx) => {
      const row = await tx
        .selectFrom('berth_migrations')
        .select('version')
        .where('version', '=', m.version)
        .executeTakeFirst();
      if (row) return false;
      await m.up(tx);
      await record(tx, m);
      return true;
    });
    if (done) applied++;
  }
  return applied;
}

async function migratePostgres(db: Kysely<DB>, migrations: Migration[], where: string): Promise<number> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(conn);
    try {
      await createLedger(conn);
      const applied = await refuseNewerSchema(conn, migrations, where);
      let count = 0;
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        await sql`begin`.execute(conn);
        try {
          await m.up(conn);
          await record(conn, m);
          await sql`commit`.execute(conn);
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw err;
        }
        count++;
      }
      return count;
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(conn).catch(() => undefined);
    }
  });
}

/** The migrations this berth knows that the database has not applied (empty: current). */
export async function pendingMigrations(db: Kysely<DB>, migrations: Migration[] = MIGRATIONS): Promise<Migration[]> {
  const applied = await appliedVersions(db);
  return migrations.filter((m) => !applied.has(m.version));
}

export async function currentVersion(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('berth_migrations')
    .select((eb) => eb.fn.max('version').as('v'))
    .executeTakeFirst();
  return Number(row?.v ?? 0);
}
