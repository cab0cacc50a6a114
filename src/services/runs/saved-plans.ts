import type { Kysely } from 'kysely';
import { conflict, notFound, payloadTooLarge } from '../../domain/common/errors.js';
import { MAX_SAVED_PLAN_BYTES, savedPlanTooLarge } from '../../domain/common/limits.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { inOrganizationOf } from '../write-scope.js';

/**
 * The saved plan of a run (`terraform plan -out`, migration 035), kept in the database from the end
 * of its plan phase to the end of the run, so that its apply phase applies exactly that plan on
 * whichever serve instance or agent claims it, after restarts too. Never served by `/api/v2`: it
 * holds the run's variables (sensitive ones included) and state, like the run's other inputs.
 */

type Db = Kysely<DB>;

/**
 * Stores the plan the run's plan phase saved, while the run is still `planning` (409 otherwise:
 * it ended, or was canceled, meanwhile); over MAX_SAVED_PLAN_BYTES, a 413 saying so. A second store
 * (the executor trying again) replaces the first.
 */
export async function storeSavedPlan(db: Db, runId: string, body: Buffer, now: string): Promise<void> {
  if (body.length > MAX_SAVED_PLAN_BYTES) throw payloadTooLarge(savedPlanTooLarge(body.length));
  // Confined to the run's organization: on PostgreSQL, the other organizations' writes do not wait
  // while the plan (up to MAX_SAVED_PLAN_BYTES) is sent.
  await writeTransaction(inOrganizationOf({ db }, 'runs', runId), async (tx) => {
    const run = await tx.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirst();
    if (!run) throw notFound(`run ${runId} not found`);
    if (run.status !== 'planning') throw conflict(`run ${runId} is ${run.status}: it stores no plan now`);
    await tx.deleteFrom('saved_plans').where('run_id', '=', runId).execute();
    await tx.insertInto('saved_plans').values({ run_id: runId, body, size: body.length, created_at: now }).execute();
  });
}

/** The run's saved plan (null: none stored, such as a run planned before migration 035). */
export async function savedPlan(db: Db, runId: string): Promise<Buffer | null> {
  const row = await db.selectFrom('saved_plans').select('body').where('run_id', '=', runId).executeTakeFirst();
  return row ? Buffer.from(row.body) : null;
}

/** Forgets the run's saved plan: the run ended (run-queue.ts, setStatus). */
export async function deleteSavedPlan(tx: Tx, runId: string): Promise<void> {
  await tx.deleteFrom('saved_plans').where('run_id', '=', runId).execute();
}
