import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import { writeTransaction } from '../store/transaction.js';

/**
 * The scheduler's leader election: a row of `scheduler_leases` (migration 034) per task family,
 * held by one serve instance until it expires. Taking it is a conditional write (free, expired,
 * or already ours), so of several instances on one PostgreSQL database (or processes on one
 * SQLite file) one holds it at a time; the holder renews it on every tick, and an instance that
 * died without letting go is replaced once its lease expired. Times come from the caller's clock:
 * instances whose clocks disagree by more than the lease's length could overlap, which the
 * unique key of `scheduled_runs` still makes harmless (nothing is queued twice).
 */

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`. Answers whether `holder`
 * holds it now.
 */
export async function acquireLease(
  db: Kysely<DB>,
  name: string,
  holder: string,
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  const at = now.toISOString();
  const expires = new Date(now.getTime() + ttlMs).toISOString();
  return writeTransaction(db, async (tx) => {
    const inserted = await tx
      .insertInto('scheduler_leases')
      .values({ name, holder, expires_at: expires })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const updated = await tx
      .updateTable('scheduler_leases')
      .set({ holder, expires_at: expires })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', at)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  });
}

/** Lets the lease go (a clean stop), so that another instance takes over at its next tick. */
export async function releaseLease(db: Kysely<DB>, name: string, holder: string, now: Date): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await tx
      .updateTable('scheduler_leases')
      .set({ expires_at: now.toISOString() })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute();
  });
}
