import { notAuthorized } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { can } from '../../domain/permissions/policy.js';
import type { TagBinding } from '../../domain/workspaces/tag-binding.js';
import { checkBindingCount, mergeBindings, type TagBindingInput } from '../../domain/workspaces/tags.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import {
  effectiveTagBindingsOf,
  readableWorkspace,
  type EffectiveTagBinding,
  type WorkspaceRef,
} from './workspaces-read.js';
import { checkTagOverrides } from '../organizations/reserved-tag-keys.js';
import { bindingOwner } from './workspace-seq.js';
import { inWorkspaceOrganization } from '../write-scope.js';

/** The bindings set directly on a workspace, in the order their keys were first added. */
export async function workspaceTagBindings(db: Tx, workspaceId: string): Promise<TagBinding[]> {
  const rows = await db
    .selectFrom('workspace_tag_bindings')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ id: r.id, key: r.key, value: r.value, createdAt: r.created_at }));
}

/**
 * Makes the workspace's bindings exactly `target`: removes keys not in it, updates changed values
 * in place (keeping id and creation time), inserts new keys in the given order.
 */
async function applyBindings(tx: Tx, workspaceId: string, target: TagBindingInput[], now: string): Promise<void> {
  const existing = await workspaceTagBindings(tx, workspaceId);
  const wanted = new Map(target.map((b) => [b.key, b.value]));
  for (const b of existing) {
    const value = wanted.get(b.key);
    if (value === undefined) await tx.deleteFrom('workspace_tag_bindings').where('id', '=', b.id).execute();
    else if (value !== b.value)
      await tx.updateTable('workspace_tag_bindings').set({ value }).where('id', '=', b.id).execute();
  }
  const have = new Set(existing.map((b) => b.key));
  for (const b of target) {
    if (have.has(b.key)) continue;
    await tx
      .insertInto('workspace_tag_bindings')
      .values({ id: newId('tb'), ...bindingOwner(tx, workspaceId), key: b.key, value: b.value, created_at: now })
      .execute();
  }
  await tx.updateTable('workspaces').set({ updated_at: now }).where('id', '=', workspaceId).execute();
}

/** The workspace's own bindings, with its id (for the list's `links.target`). */
export async function listWorkspaceTagBindings(
  ctx: ServiceContext,
  ref: WorkspaceRef,
): Promise<{ workspaceId: string; bindings: TagBinding[] }> {
  const { row } = await readableWorkspace(ctx, ref);
  return { workspaceId: row.id, bindings: await workspaceTagBindings(ctx.db, row.id) };
}

/** Own plus inherited bindings (the workspace's value wins for a key bound on both). */
export async function listWorkspaceEffectiveTagBindings(
  ctx: ServiceContext,
  ref: WorkspaceRef,
): Promise<EffectiveTagBinding[]> {
  const { row } = await readableWorkspace(ctx, ref);
  return (await effectiveTagBindingsOf(ctx.db, [{ id: row.id, projectId: row.project_id }])).get(row.id) ?? [];
}

async function changeBindings(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  incoming: TagBindingInput[],
  target: (existing: TagBindingInput[]) => TagBindingInput[],
  pointer: string,
): Promise<TagBinding[]> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:update', facts))
      throw notAuthorized(`manage the tags of workspace ${row.name} (${row.id})`);
    await checkTagOverrides(tx, row.organization_id, row.project_id, incoming, pointer);
    const next = target(await workspaceTagBindings(tx, row.id));
    checkBindingCount(next.length, pointer);
    await applyBindings(tx, row.id, next, ctx.clock.now().toISOString());
    return workspaceTagBindings(tx, row.id);
  });
}

/** Adds keys or updates values, never removes; the limit applies to the merged set. */
export function addWorkspaceTagBindings(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  incoming: TagBindingInput[],
  pointer = '/data',
): Promise<TagBinding[]> {
  return changeBindings(ctx, ref, incoming, (existing) => mergeBindings(existing, incoming), pointer);
}

/** Replaces the whole set (`[]` clears it). */
export function replaceWorkspaceTagBindings(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  target: TagBindingInput[],
  pointer = '/data',
): Promise<TagBinding[]> {
  return changeBindings(ctx, ref, target, () => target, pointer);
}
