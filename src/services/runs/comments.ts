import type { Selectable } from 'kysely';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import { COMMENTED, type RunComment } from '../../domain/runs/run-events.js';
import type { CommentsTable } from '../../store/schema.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { readableRunRow } from './run-rows.js';
import { recordRunEvent, userOf } from './run-events.js';

/**
 * Comments on runs (HCP's Comments API): a comment alone (`POST /runs/:id/comments`, its event
 * `commented`) or the one given with an action (apply, discard, cancel, force-cancel: run-actions.ts
 * and, for recorded runs, runs.ts attach it to that action's event, in the action's transaction).
 */

function toComment(r: Selectable<CommentsTable>): RunComment {
  return {
    id: r.id,
    runId: r.run_id,
    runEventId: r.run_event_id,
    body: r.body,
    authorUserId: r.author_user_id,
    createdAt: r.created_at,
  };
}

/** Attaches `body` to the run's event `eventId` (one its transaction just recorded), by the event's actor. */
export async function commentOnEvent(
  tx: Tx,
  event: { id: string; runId: string; at: string; authorUserId: string | null },
  body: string,
): Promise<RunComment> {
  const row = {
    id: newId('wsc'),
    run_id: event.runId,
    run_event_id: event.id,
    body,
    author_user_id: event.authorUserId,
    created_at: event.at,
  };
  await tx.insertInto('comments').values(row).execute();
  return toComment({ seq: 0, ...row });
}

/**
 * A comment on a run. HCP: the permission to queue plans "also allows users to comment on runs";
 * who may only read the run gets the 404 of a run they could not see, as does a run's own token.
 */
export async function createComment(ctx: ServiceContext, runId: string, body: string): Promise<RunComment> {
  return writeTransaction(inOrganizationOf(ctx, 'runs', runId), async (tx) => {
    const at = ctx.clock.now().toISOString();
    const { row, facts } = await readableRunRow(ctx, tx, runId);
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('comment on runs in this workspace');
    const by = userOf(ctx.actor);
    const id = await recordRunEvent(tx, { runId: row.id, action: COMMENTED, at, actorUserId: by });
    return commentOnEvent(tx, { id, runId: row.id, at, authorUserId: by }, body);
  });
}

/** The comments of a run the caller may read, oldest first. */
export async function listComments(ctx: ServiceContext, runId: string, page: PageRequest): Promise<Paged<RunComment>> {
  const { row } = await readableRunRow(ctx, ctx.db, runId);
  const base = ctx.db.selectFrom('comments').where('run_id', '=', row.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return { items: rows.map(toComment), total: Number(n), page };
}

/** One comment, 404 unless the caller may read its run. */
export async function getComment(ctx: ServiceContext, id: string): Promise<RunComment> {
  const row = await ctx.db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`comment ${id} not found`);
  await readableRunRow(ctx, ctx.db, row.run_id).catch(() => {
    throw notFound(`comment ${id} not found`);
  });
  return toComment(row);
}

/** Comments by id (of events the caller could read), for `include=comment`. */
export async function commentsByIds(ctx: ServiceContext, ids: string[]): Promise<RunComment[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('comments')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('seq')
    .execute();
  return rows.map(toComment);
}

/** The ids of a run's comments, oldest first, for its `comments` relationship. */
export async function commentIdsOf(ctx: ServiceContext, runId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('comments').select('id').where('run_id', '=', runId).orderBy('seq').execute();
  return rows.map((r) => r.id);
}
