import { BerthError, invalid, notAuthorized } from '../../domain/common/errors.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import {
  completeWorkspaces,
  onlyReadable,
  readableWorkspace,
  selectWorkspaces,
  type WorkspaceRef,
} from './workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

export const GLOBAL_REMOTE_STATE_DETAIL =
  'Remote state consumers can only be managed while global-remote-state is false for this workspace';

/**
 * The workspaces that may read the subject's state: its approved consumers, or, with
 * `global-remote-state`, every other workspace of the organization. Never the subject itself,
 * never workspaces the caller cannot read. Full workspace objects, in the order they were added
 * (approved list) or created (global).
 */
export async function listRemoteStateConsumers(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
): Promise<Paged<Workspace>> {
  const { row, facts } = await readableWorkspace(ctx, ref);
  if (!can(ctx.actor, 'workspace:read', facts)) return { items: [], total: 0, page };
  const readable = onlyReadable(
    ctx,
    facts,
    selectWorkspaces(ctx.db)
      .where('workspaces.organization_id', '=', row.organization_id)
      .where('workspaces.id', '!=', row.id),
  );
  if (!readable) return { items: [], total: 0, page };
  let q = readable;
  if (row.global_remote_state !== 1) {
    q = q
      .innerJoin('remote_state_consumers as rsc', 'rsc.consumer_id', 'workspaces.id')
      .where('rsc.workspace_id', '=', row.id)
      .orderBy('rsc.seq');
  } else {
    q = q.orderBy('workspaces.seq');
  }
  const { n } = await ctx.db
    .selectFrom(q.clearOrderBy().as('visible'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q.$call(inPage(page)).execute();
  return { items: await completeWorkspaces(ctx, ctx.db, rows, facts), total: Number(n), page };
}

export type ConsumerChange = 'add' | 'remove' | 'replace';

/**
 * POST (add), DELETE (remove), PATCH (replace exactly). Only while the subject's
 * `global-remote-state` is false (422). PATCH needs `workspace:replace-consumers` (managing
 * workspaces across the organization); add and remove `workspace:add-remove-consumers`, which
 * also admits admins of the subject (404 otherwise, like an unknown workspace).
 * Every id must be another workspace of the same organization the caller can read (422 listing
 * every bad item, an unreadable one exactly like an unknown one); nothing changes unless all are
 * valid.
 */
export async function changeRemoteStateConsumers(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  change: ConsumerChange,
  ids: string[],
): Promise<void> {
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    const allowed = can(
      ctx.actor,
      change === 'replace' ? 'workspace:replace-consumers' : 'workspace:add-remove-consumers',
      facts,
    );
    if (!allowed) throw notAuthorized(`${change} the remote state consumers of workspace ${row.name} (${row.id})`);
    if (row.global_remote_state === 1) throw invalid('/data', GLOBAL_REMOTE_STATE_DETAIL);

    const found =
      ids.length === 0
        ? []
        : await tx
            .selectFrom('workspaces')
            .select(['id', 'organization_id', 'project_id'])
            .where('id', 'in', ids)
            .execute();
    // "Consumers must be readable by the token": one the caller cannot read is answered exactly as
    // an id that does not exist, so that the answer tells nothing of it, and nothing changes.
    const readable = new Set(
      found
        .filter(
          (w) =>
            w.organization_id === row.organization_id &&
            can(ctx.actor, 'workspace:read', scoped(facts, { projectId: w.project_id, workspaceId: w.id })),
        )
        .map((w) => w.id),
    );
    const problems: { pointer: string; detail: string }[] = [];
    ids.forEach((id, i) => {
      if (id === row.id)
        problems.push({ pointer: `/data/${i}/id`, detail: 'A workspace cannot be a remote state consumer of itself' });
      else if (!readable.has(id))
        problems.push({ pointer: `/data/${i}/id`, detail: `Workspace ${id} not found in this organization` });
    });
    // Removing tolerates absent consumers but not unknown workspaces: the same checks apply.
    if (problems.length > 0)
      throw new BerthError(problems.map((p) => ({ status: 422, title: 'invalid attribute', ...p })));

    const existing = new Set(
      (
        await tx.selectFrom('remote_state_consumers').select('consumer_id').where('workspace_id', '=', row.id).execute()
      ).map((r) => r.consumer_id),
    );
    const wanted = new Set(ids);
    if (change === 'remove' || change === 'replace') {
      const drop =
        change === 'remove' ? ids.filter((id) => existing.has(id)) : [...existing].filter((id) => !wanted.has(id));
      if (drop.length > 0) {
        await tx
          .deleteFrom('remote_state_consumers')
          .where('workspace_id', '=', row.id)
          .where('consumer_id', 'in', drop)
          .execute();
      }
    }
    if (change === 'add' || change === 'replace') {
      for (const id of ids) {
        if (existing.has(id)) continue;
        await tx.insertInto('remote_state_consumers').values({ workspace_id: row.id, consumer_id: id }).execute();
      }
    }
  });
}
