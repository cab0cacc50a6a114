import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { DB } from './schema.js';
import { writeTransaction } from './transaction.js';

/**
 * Applies every migration not yet recorded in `berth_migrations`, each in its own write
 * transaction. Safe when several processes open the same file at once: the write lock makes
 * them take turns, and each re-reads what is applied once it holds the lock.
 */
export async function migrate(db: Kysely<DB>, migrations: Migration[] = MIGRATIONS): Promise<number> {
  await sql`create table if not exists berth_migrations (version integer primary key, name text not null, applied_at text not null)`.execute(db);
  // The common case, every migration applied: one read, no write lock. (Compare the sets, not the
  // highest number: a migration merged later may carry a lower number than one already applied.)
  const applied0 = new Set((await db.selectFrom('berth_migrations').select('version').execute()).map((r) => r.version));
  if (migrations.every((m) => applied0.has(m.version))) return 0;
  let applied = 0;
  for (const m of migrations) {
    const done = await writeTransaction(db, async (tx) => {
      const row = await tx.selectFrom('berth_migrations').select('version').where('version', '=', m.version).executeTakeFirst();
      if (row) return false;
      await m.up(tx as Kysely<any>);
      await tx
        .insertInto('berth_migrations')
        .values({ version: m.version, name: m.name, applied_at: new Date().toISOString() })
        .execute();
      return true;
    });
    if (done) applied++;
  }
  return applied;
}

export async function currentVersion(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('berth_migrations').select((eb) => eb.fn.max('version').as('v')).executeTakeFirst();
  return Number(row?.v ?? 0);
}
