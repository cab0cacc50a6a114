import type { Selectable } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import type { UserView } from '../../domain/identity/user.js';
import type { Actor } from '../../domain/permissions/actor.js';
import type { RunStatus } from '../../domain/runs/run.js';
import { moveAction, statusOfStamp, type RunEvent } from '../../domain/runs/run-events.js';
import type { RunEventsTable } from '../../store/schema.js';
import { inPage } from '../../store/literal-limit.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { seesUserDetails, usersByIds } from '../identity/users.js';
import { json, readableRunRow } from './run-rows.js';
import { noteRunEvent } from './run-lifecycle.js';
import { notifyRunMove } from '../notifications/notification-outbox.js';

/**
 * A run's history (HCP's run events): recorded in the transaction of each move, by the code that
 * makes it (run-queue.ts, run-claim.ts, run-actions.ts, runs.ts for recorded runs), so that each
 * event keeps its id and its actor; read here. The comments are comments.ts.
 */

export interface EventInput {
  runId: string;
  action: string;
  at: string;
  /** The user who did it; null (the default) for berth itself. */
  actorUserId?: string | null;
  description?: string | null;
}

/** The user an actor is, to name in the events it makes (null: a token of no user, or berth). */
export const userOf = (actor: Actor): string | null => (actor.kind === 'user' ? actor.userId : null);

export async function recordRunEvent(tx: Tx, e: EventInput): Promise<string> {
  const id = newId('re');
  await tx
    .insertInto('run_events')
    .values({
      id,
      run_id: e.runId,
      action: e.action,
      description: e.description ?? null,
      actor_user_id: e.actorUserId ?? null,
      created_at: e.at,
    })
    .execute();
  // A move is told to this process's listeners (serve's log) once the transaction commits.
  await noteRunEvent(tx, e.runId, e.action, e.at);
  return id;
}

/**
 * The event of a run's move to `to`, by `by` (null: berth), and the notifications the move
 * triggers, written to their outbox in the same transaction (services/notifications/notification-outbox.ts).
 */
export async function recordMove(tx: Tx, runId: string, to: RunStatus, at: string, by: string | null = null) {
  const id = await recordRunEvent(tx, { runId, action: moveAction(to), at, actorUserId: by });
  await notifyRunMove(tx, runId, to, at, by);
  return id;
}

/**
 * The events of a move to `to` that rewrote the run's status timestamps from `before` to `after`:
 * first one for each status it stamped on the way that the run had not reached (a plan that ends
 * `planned_and_finished` stamps `planned` too; an auto-applied one `planned` and `confirmed`),
 * each at its stamp's time, by berth; then the move itself, by `by`. Answers the move's event.
 */
export async function recordStampedMove(
  tx: Tx,
  runId: string,
  stamps: { before: string | null; after: string },
  to: RunStatus,
  at: string,
  by: string | null = null,
): Promise<string> {
  const before = json<Record<string, string>>(stamps.before, {});
  for (const [key, time] of Object.entries(json<Record<string, string>>(stamps.after, {}))) {
    const status = statusOfStamp(key);
    if (key in before || status === null || status === to) continue;
    // A status passed on the way (an auto-applied plan's `planned`) is history, not a move to notify.
    await recordRunEvent(tx, { runId, action: moveAction(status), at: time });
  }
  return recordMove(tx, runId, to, at, by);
}

/**
 * The user a run's creator token names (a user's token), for a run queued without a request's
 * actor at hand (a configuration upload's: its signed URL carries none).
 */
export async function tokenUser(tx: Tx, kind: string | null, tokenId: string | null): Promise<string | null> {
  if (kind !== 'user' || !tokenId) return null;
  const token = await tx.selectFrom('tokens').select('user_id').where('id', '=', tokenId).executeTakeFirst();
  return token?.user_id ?? null;
}

type EventRow = Selectable<RunEventsTable> & { comment_id: string | null };

function toRunEvent(r: EventRow): RunEvent {
  return {
    id: r.id,
    runId: r.run_id,
    action: r.action,
    description: r.description,
    actorUserId: r.actor_user_id,
    commentId: r.comment_id,
    createdAt: r.created_at,
  };
}

function events(db: Tx) {
  return db
    .selectFrom('run_events')
    .leftJoin('comments', 'comments.run_event_id', 'run_events.id')
    .selectAll('run_events')
    .select('comments.id as comment_id');
}

/**
 * The events of a run the caller may read, oldest first. HCP does not page this list (the
 * Terraform CLI reads one answer for its warnings): a page holds 100 unless `page[size]` asks less.
 */
export async function listRunEvents(ctx: ServiceContext, runId: string, page: PageRequest): Promise<Paged<RunEvent>> {
  const { row } = await readableRunRow(ctx, ctx.db, runId);
  const { n } = await ctx.db
    .selectFrom('run_events')
    .where('run_id', '=', row.id)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await events(ctx.db)
    .where('run_events.run_id', '=', row.id)
    .orderBy('run_events.seq')
    .$call(inPage(page))
    .execute();
  return { items: rows.map(toRunEvent), total: Number(n), page };
}

/** One event, 404 unless the caller may read its run. */
export async function getRunEvent(ctx: ServiceContext, id: string): Promise<RunEvent> {
  const row = await events(ctx.db).where('run_events.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`run event ${id} not found`);
  await readableRunRow(ctx, ctx.db, row.run_id).catch(() => {
    throw notFound(`run event ${id} not found`);
  });
  return toRunEvent(row);
}

/**
 * The users who made `events`, for `include=actor`: people of a run the caller may read, shown as
 * `GET /users/:id` would show them to the caller (details, or their public face only).
 */
export async function eventActors(ctx: ServiceContext, items: { actorUserId: string | null }[]): Promise<UserView[]> {
  const ids = items.map((e) => e.actorUserId).filter((id): id is string => id !== null);
  const users = await usersByIds(ctx.db, ids);
  return users.map((user) => ({ user, details: seesUserDetails(ctx, user.id) }));
}
