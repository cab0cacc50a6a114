import { isSiteAdmin } from '../../domain/permissions/actor.js';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { can } from '../../domain/permissions/policy.js';
import {
  deletesOlder,
  IMPLICIT_SITE_POLICY_ID,
  type RetentionPolicy,
  type RetentionPolicyInput,
  type RetentionType,
} from '../../domain/instance/retention.js';
import { readTransaction, writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { readableWorkspace, type WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inOrganizationNamed, inWorkspaceOrganization } from '../write-scope.js';

/** Data retention exists only in the self-hosted edition; the hosted edition answers 404. */
export function requireSelfHosted(ctx: Pick<ServiceContext, 'settings'>): void {
  if (ctx.settings.edition !== 'self-hosted')
    throw notFound('data retention policies are not available in the hosted edition');
}

type PolicyRow = {
  id: string;
  organization_id: string;
  workspace_id: string | null;
  kind: string;
  delete_older_than_n_days: number | null;
  created_at: string;
};

function toPolicy(r: PolicyRow, organizationName: string): RetentionPolicy {
  return {
    id: r.id,
    type: r.kind as RetentionType,
    deleteOlderThanNDays: r.delete_older_than_n_days,
    target: r.workspace_id
      ? { type: 'workspaces', id: r.workspace_id }
      : { type: 'organizations', id: organizationName },
    createdAt: r.created_at,
  };
}

async function orgPolicyRow(db: Tx, organizationId: string): Promise<PolicyRow | undefined> {
  return db
    .selectFrom('data_retention_policies')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('workspace_id', 'is', null)
    .executeTakeFirst();
}

async function workspacePolicyRow(db: Tx, workspaceId: string): Promise<PolicyRow | undefined> {
  return db
    .selectFrom('data_retention_policies')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Creates the owner's policy or replaces it in place (same id; the type may change). */
async function upsert(
  tx: Tx,
  existing: PolicyRow | undefined,
  owner: { organizationId: string; workspaceId: string | null },
  input: RetentionPolicyInput,
  now: string,
): Promise<string> {
  const values = {
    kind: input.type,
    delete_older_than_n_days: deletesOlder(input.type) ? input.deleteOlderThanNDays : null,
  };
  if (existing) {
    await tx.updateTable('data_retention_policies').set(values).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const id = newId('drp');
  await tx
    .insertInto('data_retention_policies')
    .values({ id, organization_id: owner.organizationId, workspace_id: owner.workspaceId, ...values, created_at: now })
    .execute();
  return id;
}

const SITE_POLICY_KEY = 'data-retention-policy';

/**
 * The instance's site-wide default (stored in `settings`): what an organization without a policy
 * of its own inherits. Until a site administrator sets one it is an implicit don't-delete policy.
 */
async function sitePolicy(db: Tx): Promise<RetentionPolicy> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SITE_POLICY_KEY).executeTakeFirst();
  if (row) {
    const stored = JSON.parse(row.value) as Omit<RetentionPolicy, 'target'>;
    return { ...stored, target: null };
  }
  return {
    id: IMPLICIT_SITE_POLICY_ID,
    type: 'data-retention-policy-dont-deletes',
    deleteOlderThanNDays: null,
    target: null,
    createdAt: new Date(0).toISOString(),
  };
}

function requireSiteAdmin(ctx: ServiceContext): void {
  // Others get the answer of a path that does not exist, as for every admin path.
  if (!isSiteAdmin(ctx.actor)) throw notFound('no such resource, or you are not a site administrator');
}

/** The site-wide default (site administrators). */
export async function getSitePolicy(ctx: ServiceContext): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  requireSiteAdmin(ctx);
  return sitePolicy(ctx.db);
}

/** Sets the site-wide default, keeping its id when it changes kind (site administrators). */
export async function setSitePolicy(ctx: ServiceContext, input: RetentionPolicyInput): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  requireSiteAdmin(ctx);
  return writeTransaction(ctx, async (tx) => {
    const current = await sitePolicy(tx);
    const policy: RetentionPolicy = {
      id: current.id === IMPLICIT_SITE_POLICY_ID ? newId('drp') : current.id,
      type: input.type,
      deleteOlderThanNDays: deletesOlder(input.type) ? input.deleteOlderThanNDays : null,
      target: null,
      createdAt: current.id === IMPLICIT_SITE_POLICY_ID ? ctx.clock.now().toISOString() : current.createdAt,
    };
    const value = JSON.stringify({ ...policy, target: undefined });
    await tx
      .insertInto('settings')
      .values({ key: SITE_POLICY_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
    return policy;
  });
}

/** Back to the implicit don't-delete default (site administrators; 204 either way). */
export async function deleteSitePolicy(ctx: ServiceContext): Promise<void> {
  requireSelfHosted(ctx);
  requireSiteAdmin(ctx);
  await writeTransaction(ctx, (tx) => tx.deleteFrom('settings').where('key', '=', SITE_POLICY_KEY).execute());
}

/**
 * The organization's policy in force: its own, else the site-wide default (which always exists, so
 * this is never a 404 for a readable organization). Members may read it.
 */
export async function getOrganizationPolicy(ctx: ServiceContext, organization: string): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  const { row: org } = await readableOrganization(ctx, organization);
  const policy = await orgPolicyRow(ctx.db, org.id);
  return policy ? toPolicy(policy, org.name) : sitePolicy(ctx.db);
}

/** Sets the organization default (owners, the organization token, site administrators). */
export async function setOrganizationPolicy(
  ctx: ServiceContext,
  organization: string,
  input: RetentionPolicyInput,
): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (
      !can(ctx.actor, 'organization:update', facts) &&
      !(ctx.actor.kind === 'organization' && ctx.actor.organizationId === org.id)
    ) {
      throw notAuthorized('set the data retention policy of this organization');
    }
    const id = await upsert(
      tx,
      await orgPolicyRow(tx, org.id),
      { organizationId: org.id, workspaceId: null },
      input,
      ctx.clock.now().toISOString(),
    );
    return toPolicy(
      await tx.selectFrom('data_retention_policies').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      org.name,
    );
  });
}

/** Removes the organization default (204 whether or not there was one). */
export async function deleteOrganizationPolicy(ctx: ServiceContext, organization: string): Promise<void> {
  requireSelfHosted(ctx);
  await writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (
      !can(ctx.actor, 'organization:update', facts) &&
      !(ctx.actor.kind === 'organization' && ctx.actor.organizationId === org.id)
    ) {
      throw notAuthorized('delete the data retention policy of this organization');
    }
    await tx
      .deleteFrom('data_retention_policies')
      .where('organization_id', '=', org.id)
      .where('workspace_id', 'is', null)
      .execute();
  });
}

/**
 * The workspace's policy in force: its own, else its organization's, else the site-wide default
 * (so never a 404 for a readable workspace).
 */
export async function getWorkspacePolicy(ctx: ServiceContext, ref: WorkspaceRef): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  const { row } = await readableWorkspace(ctx, ref);
  const policy = (await workspacePolicyRow(ctx.db, row.id)) ?? (await orgPolicyRow(ctx.db, row.organization_id));
  return policy ? toPolicy(policy, row.org_name) : sitePolicy(ctx.db);
}

/** Sets the workspace's own policy (workspace admins). */
export async function setWorkspacePolicy(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  input: RetentionPolicyInput,
): Promise<RetentionPolicy> {
  requireSelfHosted(ctx);
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:update', facts))
      throw notAuthorized('set the data retention policy of this workspace');
    const now = ctx.clock.now().toISOString();
    const id = await upsert(
      tx,
      await workspacePolicyRow(tx, row.id),
      { organizationId: row.organization_id, workspaceId: row.id },
      input,
      now,
    );
    await tx.updateTable('workspaces').set({ updated_at: now }).where('id', '=', row.id).execute();
    return toPolicy(
      await tx.selectFrom('data_retention_policies').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      row.org_name,
    );
  });
}

/** Removes the workspace's own policy (204 whether or not it had one); the default applies again. */
export async function deleteWorkspacePolicy(ctx: ServiceContext, ref: WorkspaceRef): Promise<void> {
  requireSelfHosted(ctx);
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:update', facts))
      throw notAuthorized('delete the data retention policy of this workspace');
    await tx.deleteFrom('data_retention_policies').where('workspace_id', '=', row.id).execute();
  });
}

export interface PruneResult {
  /** Workspaces whose effective policy deletes old data. */
  workspaces: number;
  stateVersions: number;
  runs: number;
}

/** Workspaces pruned per write transaction: the write lock is held for one batch at a time. */
export const PRUNE_BATCH = 200;

interface PruneTarget {
  id: string;
  /** Data created before this time goes. */
  cutoff: string;
}

/** Which workspaces the policies prune, and from when: read outside any write transaction. */
async function pruneTargets(db: Tx, now: number): Promise<PruneTarget[]> {
  const policies = await db.selectFrom('data_retention_policies').selectAll().execute();
  const site = await sitePolicy(db);
  const siteRow = { kind: site.type, delete_older_than_n_days: site.deleteOlderThanNDays };
  const orgDefault = new Map(policies.filter((p) => p.workspace_id === null).map((p) => [p.organization_id, p]));
  const own = new Map(policies.filter((p) => p.workspace_id !== null).map((p) => [p.workspace_id!, p]));
  const workspaces = await db.selectFrom('workspaces').select(['id', 'organization_id']).orderBy('id').execute();
  const targets: PruneTarget[] = [];
  for (const ws of workspaces) {
    const policy = own.get(ws.id) ?? orgDefault.get(ws.organization_id) ?? siteRow;
    if (!deletesOlder(policy.kind as RetentionType) || !policy.delete_older_than_n_days) continue;
    targets.push({ id: ws.id, cutoff: new Date(now - policy.delete_older_than_n_days * 86_400_000).toISOString() });
  }
  return targets;
}

/**
 * One batch's old state versions and runs, keeping each workspace's current ones as of now:
 * deleted with `apply`, else only counted (the preview).
 */
async function pruneBatch(tx: Tx, batch: PruneTarget[], apply: boolean): Promise<PruneResult> {
  const result: PruneResult = { workspaces: 0, stateVersions: 0, runs: 0 };
  if (batch.length === 0) return result;
  const rows = await tx
    .selectFrom('workspaces')
    .select(['id', 'current_state_version_id', 'current_run_id', 'latest_run_id'])
    .where(
      'id',
      'in',
      batch.map((t) => t.id),
    )
    .execute();
  const current = new Map(rows.map((r) => [r.id, r]));
  for (const { id, cutoff } of batch) {
    const ws = current.get(id);
    if (!ws) continue; // deleted since the targets were read
    result.workspaces++;
    // The workspace's latest run is kept too: its `latest-run` names it.
    for (const [table, keeping, key] of [
      ['state_versions', [ws.current_state_version_id], 'stateVersions'],
      ['runs', [ws.current_run_id, ws.latest_run_id], 'runs'],
    ] as const) {
      const keep = keeping.filter((k): k is string => k !== null);
      if (apply) {
        let q = tx.deleteFrom(table).where('workspace_id', '=', id).where('created_at', '<', cutoff);
        if (keep.length) q = q.where('id', 'not in', keep);
        result[key] += Number((await q.executeTakeFirst()).numDeletedRows);
      } else {
        let q = tx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', id)
          .where('created_at', '<', cutoff);
        if (keep.length) q = q.where('id', 'not in', keep);
        result[key] += Number((await q.executeTakeFirstOrThrow()).n);
      }
    }
  }
  return result;
}

/**
 * Deletes, for every workspace whose effective policy (its own, else its organization's, else the
 * site-wide default) is delete-older-than-N-days, the state versions and run records created more
 * than N days before `ctx.clock.now()`. The current state version, the current run and the
 * latest run are always kept. The policies are read first, outside any write transaction; the deletes then run in
 * batches of PRUNE_BATCH workspaces, one short write transaction each, so that other writers
 * (and `serve`'s other requests) never wait for a whole prune. The request's audit record
 * commits with the first batch (there is always one, possibly empty).
 * Site administrators only (the CLI in local mode, `serve`'s periodic task, or a site token).
 */
export async function pruneRetainedData(ctx: ServiceContext): Promise<PruneResult> {
  requireSelfHosted(ctx);
  if (!isSiteAdmin(ctx.actor)) throw notAuthorized('prune data (site administrators only)');
  const targets = await pruneTargets(ctx.db, ctx.clock.now().getTime());
  const result: PruneResult = { workspaces: 0, stateVersions: 0, runs: 0 };
  let start = 0;
  do {
    const batch = targets.slice(start, start + PRUNE_BATCH);
    const done = await writeTransaction(ctx, (tx) => pruneBatch(tx, batch, true));
    result.workspaces += done.workspaces;
    result.stateVersions += done.stateVersions;
    result.runs += done.runs;
    start += PRUNE_BATCH;
    // Let other requests run between batches.
    if (start < targets.length) await new Promise((resolve) => setImmediate(resolve));
  } while (start < targets.length);
  return result;
}

/** What pruneRetainedData would delete now, deleting nothing (`maintenance prune --dry-run`). */
export async function previewPrune(ctx: ServiceContext): Promise<PruneResult> {
  requireSelfHosted(ctx);
  if (!isSiteAdmin(ctx.actor)) throw notAuthorized('prune data (site administrators only)');
  const now = ctx.clock.now().getTime();
  return readTransaction(ctx.db, async (tx) => pruneBatch(tx, await pruneTargets(tx, now), false));
}
