import { sql, type Kysely } from 'kysely';
import { pendingMigrations } from '../../store/migrate.js';
import type { DB } from '../../store/schema.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether this instance can serve: the database answers, and it holds every migration this
 * version of berth knows (an instance of an older version started on a newer schema, or a
 * database restored from an old backup, is not ready until migrated).
 */
export async function readiness(db: Kysely<DB>): Promise<Readiness> {
  let pending;
  try {
    pending = await pendingMigrations(db);
  } catch (err) {
    return { ready: false, reason: `the database is unreachable: ${(err as Error)?.message ?? String(err)}` };
  }
  if (pending.length > 0)
    return { ready: false, reason: `migrations pending: ${pending.map((m) => m.version).join(', ')}` };
  return { ready: true };
}

/**
 * Throws the database's own error when it does not answer (an unreachable PostgreSQL: the API
 * answers 503 with Retry-After), so that a request that reads nothing else (`/api/v2/ping`)
 * tells a client the truth with the read cache off as with it on (its stamp query fails first).
 */
export async function requireDatabase(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
