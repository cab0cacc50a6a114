import { BerthError, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import { MAX_RUN_TRIGGER_SOURCES, type RunTrigger, type RunTriggerType } from '../../domain/workspaces/run-triggers.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { getWorkspace, readableWorkspace, type WorkspaceRow } from './workspaces-read.js';

/**
 * Run triggers (HCP Terraform's Run Triggers API; docs/api.md "Run triggers"): a workspace's
 * sources, whose applied runs queue runs in it (services/runs/triggered-runs.ts does that part).
 * Who may: create and delete, admins of the workspace (`workspace:manage-run-triggers`) who may
 * also read the source's runs; list, whoever may read the workspace's runs; show, whoever may read
 * the runs of either end. Anyone else gets the 404 of a resource that does not exist.
 */

/** What `include` asks for beside the triggers: `workspace` (the targets) and `sourceable` (the sources). */
export type RunTriggerInclude = 'workspace' | 'sourceable';

export interface RunTriggerAnswer<T> {
  result: T;
  /** The included workspaces the caller may read (HCP: includes respect read permissions). */
  included: Workspace[];
}

const selectTriggers = (db: Tx) =>
  db
    .selectFrom('run_triggers')
    .innerJoin('workspaces as target', 'target.id', 'run_triggers.workspace_id')
    .innerJoin('workspaces as source', 'source.id', 'run_triggers.sourceable_id')
    .select([
      'run_triggers.id',
      'run_triggers.seq',
      'run_triggers.workspace_id',
      'run_triggers.sourceable_id',
      'run_triggers.created_at',
      'target.name as workspace_name',
      'source.name as sourceable_name',
    ]);

type TriggerRow = Awaited<ReturnType<ReturnType<typeof selectTriggers>['executeTakeFirstOrThrow']>>;

const toRunTrigger = (r: TriggerRow): RunTrigger => ({
  id: r.id,
  workspaceId: r.workspace_id,
  workspaceName: r.workspace_name,
  sourceableId: r.sourceable_id,
  sourceableName: r.sourceable_name,
  createdAt: r.created_at,
});

const triggerNotFound = (id: string) => notFound(`run trigger ${id} not found`);

/** The workspace, if the caller may read its runs (null otherwise, as for one that does not exist). */
async function runsReadable(ctx: ServiceContext, workspaceId: string, db: Tx = ctx.db) {
  const found = await readableWorkspace(ctx, { id: workspaceId }, db).catch(() => null);
  return found && can(ctx.actor, 'workspace:read-runs', found.facts) ? found : null;
}

/** The workspaces of `ids` that the caller may read, each once, in the order of `ids`. */
async function readableWorkspaces(ctx: ServiceContext, ids: string[]): Promise<Workspace[]> {
  const out: Workspace[] = [];
  for (const id of [...new Set(ids)]) {
    const ws = await getWorkspace(ctx, { id }).catch(() => null);
    if (ws) out.push(ws);
  }
  return out;
}

function includedOf(ctx: ServiceContext, triggers: RunTrigger[], include: ReadonlySet<RunTriggerInclude>) {
  const ids = triggers.flatMap((t) => [
    ...(include.has('workspace') ? [t.workspaceId] : []),
    ...(include.has('sourceable') ? [t.sourceableId] : []),
  ]);
  return ids.length === 0 ? Promise.resolve([]) : readableWorkspaces(ctx, ids);
}

/**
 * POST /workspaces/:id/run-triggers: `sourceableId` becomes a source of the workspace. 404 when
 * the workspace is unknown or the caller no admin of it, or when the source is unknown, in another
 * organization or its runs not readable by the caller; 422 for the workspace itself, a source it
 * already has, or a 21st source.
 */
export async function createRunTrigger(
  ctx: ServiceContext,
  workspaceId: string,
  sourceableId: string,
): Promise<RunTrigger> {
  return writeTransaction(inWorkspaceOrganization(ctx, { id: workspaceId }), async (tx) => {
    const now = ctx.clock.now().toISOString();
    const { row, facts } = await readableWorkspace(ctx, { id: workspaceId }, tx);
    if (!can(ctx.actor, 'workspace:manage-run-triggers', facts))
      throw notAuthorized(`manage the run triggers of workspace ${row.name} (${row.id})`);
    const pointer = '/data/relationships/sourceable/data/id';
    if (sourceableId === row.id) throw invalid(pointer, 'A workspace cannot be a run trigger source of itself');
    const source = await runsReadable(ctx, sourceableId, tx);
    if (!source || source.row.organization_id !== row.organization_id)
      throw notFound(`sourceable workspace ${sourceableId} not found`, { pointer });
    await refuseDuplicateOrTooMany(tx, row, source.row);
    const id = newId('rt');
    await tx
      .insertInto('run_triggers')
      .values({ id, workspace_id: row.id, sourceable_id: source.row.id, created_at: now })
      .execute();
    return toRunTrigger(await selectTriggers(tx).where('run_triggers.id', '=', id).executeTakeFirstOrThrow());
  });
}

async function refuseDuplicateOrTooMany(tx: Tx, target: WorkspaceRow, source: WorkspaceRow): Promise<void> {
  const sources = await tx
    .selectFrom('run_triggers')
    .select('sourceable_id')
    .where('workspace_id', '=', target.id)
    .execute();
  const pointer = '/data/relationships/sourceable/data/id';
  if (sources.some((s) => s.sourceable_id === source.id))
    throw invalid(pointer, `Workspace ${source.name} (${source.id}) is already a run trigger source of this workspace`);
  if (sources.length >= MAX_RUN_TRIGGER_SOURCES)
    throw new BerthError([
      {
        status: 422,
        title: 'invalid attribute',
        detail: `A workspace can have at most ${MAX_RUN_TRIGGER_SOURCES} run trigger sources; workspace ${target.name} has ${sources.length}`,
        pointer,
      },
    ]);
}

/**
 * GET /workspaces/:id/run-triggers: `inbound` (the workspace's sources) or `outbound` (the
 * workspaces it triggers), in the order they were made. Both ends' names are shown, as HCP does.
 */
export async function listRunTriggers(
  ctx: ServiceContext,
  workspaceId: string,
  type: RunTriggerType,
  page: PageRequest,
  include: ReadonlySet<RunTriggerInclude> = new Set(),
): Promise<RunTriggerAnswer<Paged<RunTrigger>>> {
  const found = await runsReadable(ctx, workspaceId);
  if (!found) throw notFound(`workspace ${workspaceId} not found`);
  const column = type === 'inbound' ? 'run_triggers.workspace_id' : 'run_triggers.sourceable_id';
  const { n } = await ctx.db
    .selectFrom('run_triggers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column, '=', found.row.id)
    .executeTakeFirstOrThrow();
  const rows = await selectTriggers(ctx.db)
    .where(column, '=', found.row.id)
    .orderBy('run_triggers.seq')
    .$call(inPage(page))
    .execute();
  const items = rows.map(toRunTrigger);
  return { result: { items, total: Number(n), page }, included: await includedOf(ctx, items, include) };
}

/** GET /run-triggers/:id: for whoever may read the runs of its workspace or of its source. */
export async function getRunTrigger(
  ctx: ServiceContext,
  id: string,
  include: ReadonlySet<RunTriggerInclude> = new Set(),
): Promise<RunTriggerAnswer<RunTrigger>> {
  const row = await selectTriggers(ctx.db).where('run_triggers.id', '=', id).executeTakeFirst();
  if (!row) throw triggerNotFound(id);
  if (!(await runsReadable(ctx, row.workspace_id)) && !(await runsReadable(ctx, row.sourceable_id)))
    throw triggerNotFound(id);
  const trigger = toRunTrigger(row);
  return { result: trigger, included: await includedOf(ctx, [trigger], include) };
}

/** DELETE /run-triggers/:id: admins of its workspace (the target). */
export async function deleteRunTrigger(ctx: ServiceContext, id: string): Promise<void> {
  const first = await ctx.db.selectFrom('run_triggers').select('workspace_id').where('id', '=', id).executeTakeFirst();
  if (!first) throw triggerNotFound(id);
  await writeTransaction(inWorkspaceOrganization(ctx, { id: first.workspace_id }), async (tx) => {
    const row = await tx.selectFrom('run_triggers').select('workspace_id').where('id', '=', id).executeTakeFirst();
    if (!row) throw triggerNotFound(id);
    const target = await readableWorkspace(ctx, { id: row.workspace_id }, tx).catch(() => null);
    if (!target) throw triggerNotFound(id);
    if (!can(ctx.actor, 'workspace:manage-run-triggers', target.facts)) throw notAuthorized(`delete run trigger ${id}`);
    await tx.deleteFrom('run_triggers').where('id', '=', id).execute();
  });
}
