import type { Selectable } from 'kysely';
import * as v from 'valibot';
import { bool, checkAttributes, int, nullable, str, text } from '../../domain/common/attributes.js';
import { TEXT_LIMITS } from '../../domain/common/limits.js';
import { conflict, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newStateVersionRow } from './new-state-version-row.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, type Action, type OrgFacts } from '../../domain/permissions/policy.js';
import { decodeBase64 } from '../../domain/state/state.js';
import { summarize } from '../../domain/state/state-resources.js';
import type { StateVersion, StateVersionInput, StateVersionUrls } from '../../domain/state/state-version.js';
import type { StateVersionsTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { storeJsonState, storeState, takesJsonState } from './state-content.js';
import { checkUploadedJsonState, parseUploadedState } from './state-parser.js';
import { stateUrlSigner, type StateUrlSigner } from './state-urls.js';
import { holdsLock } from '../workspaces/workspace-locks.js';
import { readableWorkspace, type WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { inPage, LIMIT_ONE } from '../../store/literal-limit.js';
import { discardStaleSavedPlans } from '../runs/stale-saved-plans.js';

export type StateVersionRow = Selectable<StateVersionsTable>;

const schema = v.looseObject({
  serial: v.pipe(int(), v.minValue(0, 'must be 0 or greater')),
  md5: v.pipe(str(), v.regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hexadecimal digits')),
  lineage: nullable(text(TEXT_LIMITS.lineage)),
  state: nullable(str()),
  'json-state': nullable(str()),
  'json-state-outputs': nullable(str()),
  force: nullable(bool()),
});

/** Validates the attributes of `POST /workspaces/:id/state-versions`. */
export function parseStateVersionAttributes(attributes: unknown): StateVersionInput {
  const a = checkAttributes(schema, attributes);
  // The Terraform CLI 1.1-1.5 (and `state push` without provider schemas) sends both JSON forms
  // as empty strings when it has none: empty is absent, as HCP Terraform takes it.
  const jsonState = a['json-state'] === '' ? null : a['json-state'];
  // The outputs come from the state itself; this form of them only has to be well-formed.
  if (
    typeof a['json-state-outputs'] === 'string' &&
    a['json-state-outputs'] !== '' &&
    !decodeBase64(a['json-state-outputs'])
  )
    throw invalid('/data/attributes/json-state-outputs', 'Json-state-outputs must be base64-encoded');
  return {
    serial: a.serial,
    md5: a.md5.toLowerCase(),
    lineage: a.lineage ?? null,
    state: a.state ?? null,
    jsonState: jsonState ?? null,
    force: a.force ?? false,
  };
}

/** The hosted-state URLs a version offers now (query strings signed by `sign`): each only while it works. */
function urlsOf(row: StateVersionRow, sign: StateUrlSigner): StateVersionUrls {
  const finalized = row.status === 'finalized';
  return {
    stateUpload: row.status === 'pending' ? sign(row.id, 'state', 'upload') : null,
    stateDownload: finalized ? sign(row.id, 'state', 'download') : null,
    jsonUpload: takesJsonState(row) ? sign(row.id, 'json-state', 'upload') : null,
    jsonDownload: finalized && row.has_json_state === 1 ? sign(row.id, 'json-state', 'download') : null,
  };
}

/** Outputs ids and resource summaries of versions, for their documents (two queries for a page). */
export async function stateVersionsOf(db: Tx, rows: StateVersionRow[], currentId: string | null, sign: StateUrlSigner) {
  const ids = rows.map((r) => r.id);
  const outputs =
    ids.length === 0
      ? []
      : await db
          .selectFrom('state_version_outputs')
          .select(['id', 'state_version_id'])
          .where('state_version_id', 'in', ids)
          .orderBy('seq')
          .execute();
  const groups =
    ids.length === 0
      ? []
      : await db
          .selectFrom('state_version_resources')
          .select(['state_version_id', 'module', 'mode', 'type', 'name', 'provider'])
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state_version_id', 'in', ids)
          .groupBy(['state_version_id', 'module', 'mode', 'type', 'name', 'provider'])
          .orderBy((eb) => eb.fn.min('seq'))
          .execute();
  return rows.map((row): StateVersion => ({
    id: row.id,
    workspaceId: row.workspace_id,
    serial: row.serial,
    lineage: row.lineage,
    md5: row.md5,
    status: row.status,
    intermediate: row.intermediate === 1,
    current: row.id === currentId,
    resourceCount: row.resource_count,
    size: row.size,
    terraformVersion: row.terraform_version,
    formatVersion: row.format_version,
    hasJsonState: row.has_json_state === 1,
    runId: row.created_by_kind === 'runs' ? row.created_by_id : null,
    rollbackOfId: row.rollback_of_id ?? null,
    createdAt: row.created_at,
    finalizedAt: row.finalized_at,
    urls: urlsOf(row, sign),
    outputIds: outputs.filter((o) => o.state_version_id === row.id).map((o) => o.id),
    summary:
      row.status === 'pending'
        ? null
        : summarize(groups.filter((g) => g.state_version_id === row.id).map((g) => ({ ...g, count: Number(g.n) }))),
  }));
}

async function stateVersionOf(
  db: Tx,
  row: StateVersionRow,
  currentId: string | null,
  sign: StateUrlSigner,
): Promise<StateVersion> {
  return (await stateVersionsOf(db, [row], currentId, sign))[0];
}

/**
 * Creates a state version. The caller must hold the workspace lock (409 otherwise, as in HCP
 * Terraform). Its serial and lineage are the ones given, as in HCP Terraform, which does not
 * compare them with the state's own. Unless `force`, the serial may not be lower than one already
 * stored for the same lineage (422), and the lineage may not differ from the current state's (409). With
 * `state`, it is stored and finalized at once; without, it is `pending` until its upload URL
 * receives the body. Either way it is intermediate until the lock is released.
 */
export async function createStateVersion(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  input: StateVersionInput,
): Promise<StateVersion> {
  // Decoded, checked and parsed before the transaction: it only records the result.
  const decoded = input.state === null ? null : decodeBase64(input.state);
  if (input.state !== null && !decoded) throw invalid('/data/attributes/state', 'State must be base64-encoded');
  const jsonDecoded = input.jsonState === null ? null : decodeBase64(input.jsonState);
  if (input.jsonState !== null && !jsonDecoded)
    throw invalid('/data/attributes/json-state', 'Json-state must be base64-encoded');
  const checked = decoded ? await parseUploadedState(decoded, input.md5, '/data/attributes/state') : null;
  const body = checked?.bytes ?? null;
  const parsed = checked?.state ?? null;
  const json = jsonDecoded ? await checkUploadedJsonState(jsonDecoded, '/data/attributes/json-state') : null;
  const sign = await stateUrlSigner(ctx);
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    // Once the write lock is held: versions' times follow their order (seq), also when this write
    // waited for another process's.
    const now = ctx.clock.now().toISOString();
    const { row: ws, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:create-state-versions', facts))
      throw notAuthorized('create state versions in this workspace');
    if (!holdsLock(ctx, ws)) throw conflict('The workspace must be locked by you before you create a state version');

    const lineage = input.lineage ?? parsed?.lineage ?? null;
    if (!input.force) await checkSuccession(tx, ws.id, ws.current_state_version_id, input.serial, lineage);

    const row = newStateVersionRow({
      workspaceId: ws.id,
      serial: input.serial,
      lineage,
      md5: input.md5,
      intermediate: 1,
      createdBy: { kind: ctx.actor.kind, id: ctx.actor.tokenId },
      now,
    });
    const { seq: _seq, ...values } = row;
    await tx.insertInto('state_versions').values(values).execute();
    let stored = row;
    if (body && parsed) stored = await storeState(tx, stored, { bytes: body, size: body.length }, parsed, now);
    if (json) stored = await storeJsonState(tx, stored, json);
    return stateVersionOf(tx, stored, ws.current_state_version_id, sign);
  });
}

/**
 * The serial may not go back within a lineage (422 at `serial`), nor the lineage change from the
 * current state's: a 409 Conflict, as HCP Terraform answers it (the state given conflicts with the
 * workspace's, whatever the request's form), with the pointer at `lineage`.
 */
async function checkSuccession(
  tx: Tx,
  workspaceId: string,
  currentId: string | null,
  serial: number,
  lineage: string | null,
): Promise<void> {
  const newest = await tx
    .selectFrom('state_versions')
    .select((eb) => eb.fn.max('serial').as('serial'))
    .where('workspace_id', '=', workspaceId)
    .where('lineage', lineage === null ? 'is' : '=', lineage)
    .executeTakeFirst();
  if (newest?.serial !== null && newest?.serial !== undefined && Number(newest.serial) > serial) {
    throw invalid(
      '/data/attributes/serial',
      `Serial must not go backwards: this lineage is at serial ${newest.serial} (set force to replace it)`,
    );
  }
  if (lineage === null || currentId === null) return;
  const current = await tx
    .selectFrom('state_versions')
    .select('lineage')
    .where('id', '=', currentId)
    .executeTakeFirst();
  if (current?.lineage && current.lineage !== lineage) {
    throw conflict(`Lineage does not match the current state's lineage ${current.lineage} (set force to replace it)`, {
      pointer: '/data/attributes/lineage',
    });
  }
}

const latestFinalizedIntermediate = (db: Tx, workspaceId: string) =>
  db
    .selectFrom('state_versions')
    .select(['id', 'seq', 'resource_count', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('intermediate', '=', 1)
    .where('status', '=', 'finalized')
    .orderBy('seq', 'desc')
    .limit(LIMIT_ONE)
    .executeTakeFirst();

/** What promoting a state version needs of it. */
export interface PromotableVersion {
  id: string;
  seq: number;
  resource_count: number;
  created_at: string;
}

/**
 * Makes the latest finalized intermediate version current (on unlock and force-unlock), updating
 * the workspace's resource count and latest-change time. Versions up to it stop being
 * intermediate; with `abandonPending`, pending ones after it do too (force-unlock). True when
 * the workspace row changed (a version was promoted). The workspace's saved plans made against the
 * state before go (stale, discarded at `now`; default: when the promoted version was created).
 */
export async function promoteIntermediateState(
  tx: Tx,
  workspaceId: string,
  abandonPending = false,
  known?: PromotableVersion | null,
  now?: string,
): Promise<boolean> {
  // `known`: the caller already read the latest finalized intermediate version (null: there is none).
  const latest = known !== undefined ? (known ?? undefined) : await latestFinalizedIntermediate(tx, workspaceId);
  if (latest) {
    await tx
      .updateTable('workspaces')
      .set({
        current_state_version_id: latest.id,
        resource_count: latest.resource_count,
        latest_change_at: latest.created_at,
      })
      .where('id', '=', workspaceId)
      .execute();
    // Saved plans made against the state before this one can no longer be applied.
    await discardStaleSavedPlans(tx, workspaceId, latest.id, now ?? latest.created_at);
  }
  let done = tx
    .updateTable('state_versions')
    .set({ intermediate: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('intermediate', '=', 1);
  if (!abandonPending) {
    if (!latest) return false;
    done = done.where('seq', '<=', latest.seq);
  }
  await done.execute();
  return latest !== undefined;
}

/** Reading needs the state versions permission `action` (404 for who may only read the workspace). */
export function requireState(ctx: ServiceContext, facts: OrgFacts, action: Action = 'workspace:read-state-versions') {
  if (!can(ctx.actor, action, facts))
    throw notAuthorized(
      action === 'workspace:read-state-outputs'
        ? 'read the state outputs of this workspace'
        : 'read the state versions of this workspace',
    );
}

/** A version and its workspace, when the caller may read the workspace and `action` in it (404 otherwise). */
export async function readableVersion(
  ctx: ServiceContext,
  id: string,
  action: Action = 'workspace:read-state-versions',
  db: Tx = ctx.db,
) {
  const row = await db.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`state version ${id} not found`);
  const { row: ws, facts } = await readableWorkspace(ctx, { id: row.workspace_id }, db).catch(() => {
    throw notFound(`state version ${id} not found`);
  });
  requireState(ctx, facts, action);
  return { row, ws, facts };
}

export async function getStateVersion(ctx: ServiceContext, id: string): Promise<StateVersion> {
  const { row, ws } = await readableVersion(ctx, id);
  return stateVersionOf(ctx.db, row, ws.current_state_version_id, await stateUrlSigner(ctx));
}

export async function currentStateVersion(ctx: ServiceContext, ref: WorkspaceRef): Promise<StateVersion> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireState(ctx, facts);
  if (!ws.current_state_version_id) throw notFound('the workspace has no current state version');
  const row = await ctx.db
    .selectFrom('state_versions')
    .selectAll()
    .where('id', '=', ws.current_state_version_id)
    .executeTakeFirstOrThrow();
  return stateVersionOf(ctx.db, row, ws.current_state_version_id, await stateUrlSigner(ctx));
}

/** State versions of a workspace (by id, or by organization and name), newest first. */
export async function listStateVersions(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
): Promise<Paged<StateVersion>> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireState(ctx, facts);
  const base = ctx.db.selectFrom('state_versions').where('workspace_id', '=', ws.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq', 'desc').$call(inPage(page)).execute();
  const sign = await stateUrlSigner(ctx);
  return { items: await stateVersionsOf(ctx.db, rows, ws.current_state_version_id, sign), total: Number(n), page };
}
