import { conflict, invalid, notAuthorized, notFound, Problems } from '../../domain/common/errors.js';
import { newStateVersionRow } from './new-state-version-row.js';
import { can } from '../../domain/permissions/policy.js';
import { toOneId } from '../../domain/common/relationships.js';
import { md5Hex } from '../../domain/state/state.js';
import { rewriteStateHeader } from '../../domain/state/state-header.js';
import type { StateVersion } from '../../domain/state/state-version.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { holdsLock } from '../workspaces/workspace-locks.js';
import { readableWorkspace, type WorkspaceRef, type WorkspaceRow } from '../workspaces/workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { storeJsonState, storeState } from './state-content.js';
import { parseUploadedState } from './state-parser.js';
import { stateUrlSigner } from './state-urls.js';
import { stateVersionsOf, type StateVersionRow } from './state-versions.js';

const RELATIONSHIP = 'rollback-state-version';
const POINTER = `/data/relationships/${RELATIONSHIP}/data/id`;

/**
 * Reads the body of `PATCH /workspaces/:id/state-versions` (HCP Terraform's rollback): the id in
 * `relationships.rollback-state-version.data` (type `state-versions`). 422 when it is missing or
 * malformed; attributes are ignored, as HCP Terraform documents none.
 */
export function parseRollbackRelationships(relationships: Record<string, unknown>): string {
  const problems = new Problems();
  const id = toOneId(relationships, RELATIONSHIP, 'state-versions', problems);
  problems.throwIfAny();
  if (!id)
    throw invalid(
      `/data/relationships/${RELATIONSHIP}`,
      `${RELATIONSHIP} is required: the state version (sv-…) to roll back to`,
    );
  return id;
}

/** Why a version has no state to copy (422), or null when it has one. */
function missingState(row: StateVersionRow): string | null {
  switch (row.status) {
    case 'finalized':
      return null;
    case 'pending':
      return `State version ${row.id} has no state to roll back to: its upload is still pending`;
    case 'backing_data_soft_deleted':
      return `State version ${row.id} cannot be rolled back to: its state was soft-deleted (restore it first: POST /state-versions/${row.id}/actions/restore_backing_data)`;
    case 'backing_data_permanently_deleted':
      return `State version ${row.id} cannot be rolled back to: its state was permanently deleted`;
  }
}

/** The version to copy, when it is one of the workspace's (404 otherwise, as for an unknown id) and holds its state (422). */
async function sourceOf(db: Tx, ws: WorkspaceRow, id: string): Promise<StateVersionRow> {
  const row = await db.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();
  // Another workspace's version, of this organization or another, is as unknown as a made-up id.
  if (!row || row.workspace_id !== ws.id) throw notFound(`state version ${id} not found in this workspace`);
  const missing = missingState(row);
  if (missing) throw invalid(POINTER, missing);
  return row;
}

/** The new version's lineage and serial: the current state's lineage, above every serial stored in it. */
interface Succession {
  lineage: string | null;
  serial: number;
}

async function successionOf(db: Tx, ws: WorkspaceRow, source: StateVersionRow): Promise<Succession> {
  const current = ws.current_state_version_id
    ? await db
        .selectFrom('state_versions')
        .select(['serial', 'lineage'])
        .where('id', '=', ws.current_state_version_id)
        .executeTakeFirst()
    : undefined;
  const lineage = current?.lineage ?? source.lineage ?? null;
  const newest = await db
    .selectFrom('state_versions')
    .select((eb) => eb.fn.max('serial').as('serial'))
    .where('workspace_id', '=', ws.id)
    .where('lineage', lineage === null ? 'is' : '=', lineage)
    .executeTakeFirst();
  const top = Math.max(Number(newest?.serial ?? -1), current?.serial ?? -1);
  return { lineage, serial: top + 1 };
}

/** The workspace, when the caller may write its state (404 otherwise) and holds its lock (409). */
async function writableWorkspace(ctx: ServiceContext, ref: WorkspaceRef, db: Tx): Promise<WorkspaceRow> {
  const { row, facts } = await readableWorkspace(ctx, ref, db);
  if (!can(ctx.actor, 'workspace:create-state-versions', facts))
    throw notAuthorized('roll back the state of this workspace');
  return row;
}

const requireLock = (ctx: ServiceContext, ws: WorkspaceRow) => {
  if (!holdsLock(ctx, ws)) throw conflict('The workspace must be locked by you before you roll back its state');
};

const fileOf = (db: Tx, id: string, kind: 'state' | 'json-state') =>
  db
    .selectFrom('state_files')
    .select('body')
    .where('state_version_id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirst();

/**
 * Rolls the workspace's state back to an earlier version of its own, as HCP Terraform's
 * `PATCH /workspaces/:id/state-versions` does: a new version with the earlier one's content, its
 * `serial` one above every serial of the current state's lineage and that lineage kept (both
 * rewritten in the state file itself, every other byte as stored: state-header.ts), its outputs
 * and resources extracted as any state's, its JSON state copied when it had one, and
 * `rollback_of_id` naming the source. Like every version made in a lock window it is intermediate
 * until the caller unlocks (then current). Refused: a caller who may not write the workspace's
 * state (404), a version that is not the workspace's (404), one without its state (pending,
 * soft-deleted, permanently deleted: 422 saying which), a workspace not locked by the caller
 * (409, as a state version's create).
 *
 * The copy is read, rewritten and parsed before the write transaction (a big state on a worker,
 * state-parser.ts); the transaction checks everything again and refuses (409) if the current state
 * moved meanwhile (another rollback or push under the same lock), so nothing half-done is stored.
 */
export async function rollbackStateVersion(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  sourceId: string,
): Promise<StateVersion> {
  const ws = await writableWorkspace(ctx, ref, ctx.db);
  const source = await sourceOf(ctx.db, ws, sourceId);
  requireLock(ctx, ws);
  const file = await fileOf(ctx.db, source.id, 'state');
  if (!file) throw invalid(POINTER, `State version ${source.id} cannot be rolled back to: its stored state is gone`);
  const json = source.has_json_state === 1 ? await fileOf(ctx.db, source.id, 'json-state') : undefined;
  const planned = await successionOf(ctx.db, ws, source);
  const rewritten = rewriteStateHeader(Buffer.from(file.body), planned.serial, planned.lineage);
  if (!rewritten)
    throw invalid(POINTER, `State version ${source.id} cannot be rolled back to: its state is not a JSON object`);
  const md5 = md5Hex(rewritten);
  const { state: parsed, bytes } = await parseUploadedState(rewritten, md5, POINTER);
  if (parsed.serial !== planned.serial || (planned.lineage !== null && parsed.lineage !== planned.lineage))
    throw invalid(
      POINTER,
      `State version ${source.id} cannot be rolled back to: its serial and lineage could not be rewritten (the state names them more than once)`,
    );
  const sign = await stateUrlSigner(ctx);

  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    // Once the write lock is held: versions' times follow their order (seq).
    const now = ctx.clock.now().toISOString();
    const row = await writableWorkspace(ctx, ref, tx);
    const again = await sourceOf(tx, row, sourceId);
    requireLock(ctx, row);
    const succession = await successionOf(tx, row, again);
    if (succession.serial !== planned.serial || succession.lineage !== planned.lineage)
      throw conflict("The workspace's state changed while the rollback was prepared; try again");
    const version = newStateVersionRow({
      workspaceId: row.id,
      serial: planned.serial,
      lineage: planned.lineage ?? parsed.lineage,
      md5,
      intermediate: 1,
      createdBy: { kind: ctx.actor.kind, id: ctx.actor.tokenId },
      now,
      rollbackOfId: source.id,
    });
    const { seq: _seq, ...values } = version;
    await tx.insertInto('state_versions').values(values).execute();
    let stored = await storeState(tx, version, { bytes, size: bytes.length }, parsed, now);
    if (json) stored = await storeJsonState(tx, stored, Buffer.from(json.body));
    return (await stateVersionsOf(tx, [stored], row.current_state_version_id, sign))[0];
  });
}
