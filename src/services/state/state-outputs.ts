import type { Selectable } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import type { StateVersionOutput } from '../../domain/state/state-version.js';
import type { StateVersionOutputsTable } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableVersion, requireState } from './state-versions.js';
import { readableWorkspace, type WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inPage } from '../../store/literal-limit.js';

type Row = Selectable<StateVersionOutputsTable>;

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function toOutput(row: Row, hideSensitive: boolean): StateVersionOutput {
  const sensitive = row.sensitive === 1;
  return {
    id: row.id,
    stateVersionId: row.state_version_id,
    name: row.name,
    sensitive,
    type: row.type,
    detailedType: parse(row.detailed_type),
    value: sensitive && hideSensitive ? null : parse(row.value),
  };
}

async function pageOfOutputs(
  db: Tx,
  stateVersionId: string,
  page: PageRequest | null,
  hideSensitive: boolean,
): Promise<Paged<StateVersionOutput>> {
  const base = db.selectFrom('state_version_outputs').where('state_version_id', '=', stateVersionId);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = base.selectAll().orderBy('seq');
  if (page) rows = rows.$call(inPage(page));
  const items = (await rows.execute()).map((r) => toOutput(r, hideSensitive));
  const total = Number(n);
  return { items, total, page: page ?? { number: 1, size: Math.max(1, total) } };
}

/** The outputs of a state version, values included (sensitive ones too): state outputs read permission. */
export async function listStateVersionOutputs(
  ctx: ServiceContext,
  stateVersionId: string,
  page: PageRequest,
): Promise<Paged<StateVersionOutput>> {
  await readableVersion(ctx, stateVersionId, 'workspace:read-state-outputs');
  return pageOfOutputs(ctx.db, stateVersionId, page, false);
}

/** Every output of a version (for `include=outputs` on a state version the caller has read). */
export async function outputsOfVersion(db: Tx, stateVersionId: string): Promise<StateVersionOutput[]> {
  return (await pageOfOutputs(db, stateVersionId, null, false)).items;
}

/** One output, value included (sensitive too), by id: state outputs read permission, 404 otherwise. */
export async function getStateVersionOutput(ctx: ServiceContext, id: string): Promise<StateVersionOutput> {
  const row = await ctx.db.selectFrom('state_version_outputs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`state version output ${id} not found`);
  await readableVersion(ctx, row.state_version_id, 'workspace:read-state-outputs').catch(() => {
    throw notFound(`state version output ${id} not found`);
  });
  return toOutput(row, false);
}

/**
 * The outputs of the workspace's current state, sensitive values `null` (a client reads those
 * one by one). All of them when `page` is null; none when the workspace has no state yet.
 */
export async function currentStateVersionOutputs(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest | null,
): Promise<Paged<StateVersionOutput>> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireState(ctx, facts, 'workspace:read-state-outputs');
  if (!ws.current_state_version_id) return { items: [], total: 0, page: page ?? { number: 1, size: 1 } };
  return pageOfOutputs(ctx.db, ws.current_state_version_id, page, true);
}

/** The current outputs of several workspaces' current states, sensitive values hidden (`include=outputs`). */
export async function currentOutputsOf(db: Tx, stateVersionIds: string[]): Promise<Map<string, StateVersionOutput[]>> {
  const out = new Map<string, StateVersionOutput[]>();
  if (stateVersionIds.length === 0) return out;
  const rows = await db
    .selectFrom('state_version_outputs')
    .selectAll()
    .where('state_version_id', 'in', stateVersionIds)
    .orderBy('seq')
    .execute();
  for (const r of rows) {
    const list = out.get(r.state_version_id) ?? [];
    list.push(toOutput(r, true));
    out.set(r.state_version_id, list);
  }
  return out;
}
