import { createHash } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import { assessmentsProblem } from '../../domain/runs/assessments.js';
import { durationMs, isValidDuration } from '../../domain/common/duration.js';
import { effectiveExecution } from '../../domain/workspaces/execution.js';
import type { ExecutionMode } from '../../domain/organizations/organization.js';
import { offsetOf, type PageRequest, type Paged } from '../../domain/common/paging.js';
import { can, scoped, type OrgFacts } from '../../domain/permissions/policy.js';
import { computeMetrics, type RunMetrics } from '../../domain/runs/run.js';
import type { VcsRepo, Workspace } from '../../domain/workspaces/workspace.js';
import type { OrganizationsTable, WorkspacesTable } from '../../store/schema.js';
import { memoQuery, queryByIds } from '../../store/memo-query.js';
import { readRows } from '../../store/direct-reads.js';
import type { Tx } from '../../store/transaction.js';
import { isPostgres } from '../../store/kind.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { metricsOf } from '../runs/run-metrics.js';
import { workspacesWithTags } from './workspaces-by-tags.js';
import { pageByCurrentRun } from './workspaces-by-run-order.js';
import { countMatches, countWorkspaces, onlyCondition, totalOfShortPage } from './workspaces-count.js';
import {
  planFilters,
  readableFilter,
  withKeyValueTagSearch,
  workspaceFilters,
  type WorkspaceFilterQuery,
} from './workspaces-filters.js';
import { inPage, LIMIT_ONE } from '../../store/literal-limit.js';

/** A workspace row with what its effective values are derived from. */
export type WorkspaceRow = Selectable<WorkspacesTable> & {
  org_name: string;
  org_execution_mode: string;
  org_agent_pool_id: string | null;
  org_allow_force_delete: number;
  org_assessments_enforced: number;
  project_execution_mode: string;
  project_execution_overridden: number;
  project_agent_pool_id: string | null;
  project_auto_destroy: string | null;
  /**
   * The workspace's own data retention policy, where the row was read with it (`withOwnParts`):
   * null without one, undefined when not read.
   */
  drp_id?: string | null;
  drp_kind?: string | null;
  /** Its flat tag names as a JSON array (text on SQLite), where read with the row (`withOwnParts`). */
  tag_names_json?: unknown;
};

/** Workspace columns no document shows: a page's rows leave them out. */
type UnshownColumn = 'name_lower' | 'vcs_oauth_token_id' | 'current_run_status' | 'current_run_created_at';

/** A workspace row with what its document needs (a row of a page carries no more). */
export type WorkspaceView = Omit<WorkspaceRow, UnshownColumn>;

/** Addresses a workspace by id, or by organization and name: both forms behave identically. */
export type WorkspaceRef = { id: string } | { organization: string; name: string };

export function describeRef(ref: WorkspaceRef): string {
  return 'id' in ref ? ref.id : `${ref.organization}/${ref.name}`;
}

export function selectWorkspaces(db: Tx) {
  return db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .innerJoin('projects', 'projects.id', 'workspaces.project_id')
    .selectAll('workspaces')
    .select([
      'organizations.name as org_name',
      'organizations.default_execution_mode as org_execution_mode',
      'organizations.default_agent_pool_id as org_agent_pool_id',
      'organizations.allow_force_delete_workspaces as org_allow_force_delete',
      'organizations.assessments_enforced as org_assessments_enforced',
      'projects.default_execution_mode as project_execution_mode',
      'projects.execution_overridden as project_execution_overridden',
      'projects.default_agent_pool_id as project_agent_pool_id',
      'projects.auto_destroy_activity_duration as project_auto_destroy',
    ]);
}

/**
 * What the reads of one workspace need besides its row, as columns of the row rather than
 * statements of their own (each statement costs more than its lookup): its own retention policy
 * (a correlated index lookup each for id and kind; a workspace has at most one policy,
 * data-retention.ts replaces it in place) and its flat tag names in the order they were added, as
 * a JSON array (`json_group_array` on SQLite, `json_agg` on PostgreSQL, which answers null for
 * none). A page of a hundred reads these in one statement each instead (`completeWorkspaces`):
 * there, correlated lookups on every row cost more than those statements.
 */
function withOwnParts(db: Tx, q: ReturnType<typeof selectWorkspaces>) {
  const jsonArray = isPostgres(db) ? 'json_agg' : 'json_group_array';
  return q.select((eb) => [
    eb
      .selectFrom('data_retention_policies as own_drp')
      .select('own_drp.id')
      .whereRef('own_drp.workspace_id', '=', 'workspaces.id')
      .limit(LIMIT_ONE)
      .as('drp_id'),
    eb
      .selectFrom('data_retention_policies as own_drp')
      .select('own_drp.kind')
      .whereRef('own_drp.workspace_id', '=', 'workspaces.id')
      .limit(LIMIT_ONE)
      .as('drp_kind'),
    eb
      .selectFrom('workspace_tags as own_wt')
      .innerJoin('tags as own_tag', 'own_tag.id', 'own_wt.tag_id')
      .select((sub) => sub.fn.agg<unknown>(jsonArray, ['own_tag.name']).orderBy('own_wt.seq').as('names'))
      .whereRef('own_wt.workspace_id', '=', 'workspaces.id')
      .as('tag_names_json'),
  ]);
}

/** The tag names read with the row (`withOwnParts`), or undefined when the row was read without them. */
function tagNamesOfRow(row: WorkspaceView): string[] | undefined {
  const v = row.tag_names_json;
  if (v === undefined) return undefined;
  if (v === null) return [];
  return (typeof v === 'string' ? JSON.parse(v) : v) as string[];
}

/** A stored JSON list of strings (trigger prefixes or patterns). */
export function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function parseVcsRepo(json: string | null): VcsRepo | null {
  if (!json) return null;
  return JSON.parse(json) as VcsRepo;
}

/** The auto-destroy duration in force: the workspace's own when it overrides, else its project's. */
function activityDuration(row: WorkspaceView): string | null {
  return row.auto_destroy_overridden === 1 ? row.auto_destroy_activity_duration : row.project_auto_destroy;
}

/**
 * The next scheduled destroy: the time the workspace set, else, under an activity duration, the
 * workspace's last activity (`latest-change-at`: its creation, then each new state version) plus
 * the duration, so it moves forward with every state change. Derived from stored columns only.
 */
function autoDestroyAt(row: WorkspaceView): string | null {
  if (row.auto_destroy_at) return row.auto_destroy_at;
  const duration = activityDuration(row);
  if (!duration || !isValidDuration(duration)) return null;
  const since = Date.parse(row.latest_change_at);
  return Number.isNaN(since) ? null : new Date(since + durationMs(duration)).toISOString();
}

function ownPolicyOfRow(row: WorkspaceView): { type: string; id: string } | null {
  return row.drp_id && row.drp_kind ? { type: row.drp_kind, id: row.drp_id } : null;
}

/** Turns a row into the domain object: effective values resolved, permissions for the caller. */
export function toWorkspace(
  ctx: ServiceContext,
  row: WorkspaceView,
  orgLevelFacts: OrgFacts,
  tagNames: string[],
  metrics: RunMetrics = computeMetrics([]),
  policy: { type: string; id: string } | null = ownPolicyOfRow(row),
): Workspace {
  const facts = scoped(orgLevelFacts, { projectId: row.project_id, workspaceId: row.id });
  const lockedBy =
    row.locked === 1 && row.locked_by_id && ['users', 'teams', 'runs'].includes(row.locked_by_kind ?? '')
      ? { type: row.locked_by_kind as 'users' | 'teams' | 'runs', id: row.locked_by_id }
      : null;
  const execution = executionOf(row);
  const settings = { allowForceDeleteWorkspaces: row.org_allow_force_delete === 1 };
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationName: row.org_name,
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    allowDestroyPlan: row.allow_destroy_plan === 1,
    assessmentsEnabled:
      (row.assessments_enabled === 1 || row.org_assessments_enforced === 1) &&
      assessmentsProblem(execution.mode, row.terraform_version) === null,
    autoApply: row.auto_apply === 1,
    autoApplyRunTrigger: row.auto_apply_run_trigger === 1,
    autoDestroyAt: autoDestroyAt(row),
    autoDestroyActivityDuration: activityDuration(row),
    inheritsProjectAutoDestroy: row.auto_destroy_overridden !== 1,
    executionMode: execution.mode,
    executionModeOverridden: execution.source === 'workspace',
    agentPoolId: execution.agentPoolId,
    fileTriggersEnabled: row.file_triggers_enabled === 1,
    globalRemoteState: row.global_remote_state === 1,
    queueAllRuns: row.queue_all_runs === 1,
    source: row.source,
    sourceName: row.source_name,
    sourceUrl: row.source_url,
    speculativeEnabled: row.speculative_enabled === 1,
    structuredRunOutputEnabled: row.structured_run_output_enabled !== 0,
    terraformVersion: row.terraform_version,
    triggerPatterns: parseList(row.trigger_patterns),
    triggerPrefixes: parseList(row.trigger_prefixes),
    workingDirectory: row.working_directory,
    vcsRepo: parseVcsRepo(row.vcs_repo),
    tagNames,
    locked: row.locked === 1,
    lockedReason: row.locked === 1 ? (row.locked_reason ?? '') : null,
    lockedAt: row.locked === 1 ? row.locked_at : null,
    lockedBy,
    resourceCount: row.resource_count,
    latestChangeAt: row.latest_change_at,
    currentRunId: row.current_run_id,
    latestRunId: row.latest_run_id,
    currentStateVersionId: row.current_state_version_id,
    currentConfigurationVersionId: row.current_configuration_version_id,
    currentAssessmentResultId: row.current_assessment_result_id,
    sshKeyId: row.ssh_key_id ?? null,
    dataRetentionPolicy: policy,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    metrics,
    permissions: {
      canRead: can(ctx.actor, 'workspace:read', facts),
      canUpdate: can(ctx.actor, 'workspace:update', facts),
      canDestroy: can(ctx.actor, 'workspace:delete', facts),
      canForceDelete: can(ctx.actor, 'workspace:force-delete', facts, settings),
      canLock: can(ctx.actor, 'workspace:lock', facts),
      canForceUnlock: can(ctx.actor, 'workspace:update', facts),
      canQueueRun: can(ctx.actor, 'workspace:queue-run', facts),
      canQueueApply: can(ctx.actor, 'workspace:apply-run', facts),
      canReadVariable: can(ctx.actor, 'workspace:read-variables', facts),
      canUpdateVariable: can(ctx.actor, 'workspace:update-variables', facts),
      canReadStateVersions: can(ctx.actor, 'workspace:read-state-versions', facts),
      canReadStateOutputs: can(ctx.actor, 'workspace:read-state-outputs', facts),
      canCreateStateVersions: can(ctx.actor, 'workspace:create-state-versions', facts),
      canManageRunTasks: can(ctx.actor, 'workspace:manage-run-tasks', facts),
    },
  };
}

/** The workspace's effective execution setting along workspace -> project -> organization. */
export function executionOf(row: WorkspaceView) {
  const own = row.execution_mode as ExecutionMode | null;
  return effectiveExecution({
    workspace: own ? { mode: own, agentPoolId: row.agent_pool_id } : null,
    project:
      row.project_execution_overridden === 1
        ? { mode: row.project_execution_mode as ExecutionMode, agentPoolId: row.project_agent_pool_id }
        : null,
    organization: { mode: row.org_execution_mode as ExecutionMode, agentPoolId: row.org_agent_pool_id },
  });
}

const selectTagNames = queryByIds((db, workspaceIds) =>
  db
    .selectFrom('workspace_tags')
    .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
    .select(['workspace_tags.workspace_id', 'tags.name'])
    .where('workspace_tags.workspace_id', 'in', workspaceIds)
    .orderBy('workspace_tags.seq'),
);

/** Flat tag names of each workspace, in the order they were added. */
export async function tagNamesOf(db: Tx, workspaceIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(workspaceIds.map((id) => [id, []]));
  if (workspaceIds.length === 0) return out;
  const rows = await selectTagNames(db, workspaceIds);
  for (const r of rows) out.get(r.workspace_id)?.push(r.name);
  return out;
}

const selectOwnPolicies = queryByIds((db, workspaceIds) =>
  db
    .selectFrom('data_retention_policies')
    .select(['id', 'kind', 'workspace_id'])
    .where('workspace_id', 'in', workspaceIds),
);

/** The workspaces' own data retention policies (type and id), by workspace id. */
export async function ownRetentionPoliciesOf(
  db: Tx,
  workspaceIds: string[],
): Promise<Map<string, { type: string; id: string }>> {
  const out = new Map<string, { type: string; id: string }>();
  if (workspaceIds.length === 0) return out;
  const rows = await selectOwnPolicies(db, workspaceIds);
  for (const r of rows) if (r.workspace_id) out.set(r.workspace_id, { type: r.kind, id: r.id });
  return out;
}

/** Rows of one organization to domain objects, with tag names, metrics and policies loaded. */
export async function completeWorkspaces(
  ctx: ServiceContext,
  db: Tx,
  rows: WorkspaceView[],
  facts: OrgFacts,
): Promise<Workspace[]> {
  const ids = rows.map((r) => r.id);
  const tags = await tagNamesOf(db, ids);
  const metrics = await metricsOf(db, rows);
  const policies = await ownRetentionPoliciesOf(db, ids);
  return rows.map((r) =>
    toWorkspace(ctx, r, facts, tags.get(r.id) ?? [], metrics.get(r.id), policies.get(r.id) ?? null),
  );
}

const workspaceById = memoQuery((db, p: { id: string }) =>
  withOwnParts(db, selectWorkspaces(db)).where('workspaces.id', '=', p.id),
);
const workspaceByName = memoQuery((db, p: { organization: string; nameLower: string }) =>
  withOwnParts(db, selectWorkspaces(db))
    .where('organizations.name', '=', p.organization)
    .where('workspaces.name_lower', '=', p.nameLower),
);

/** Finds a workspace row by reference, without any permission check. */
export async function findWorkspaceRow(db: Tx, ref: WorkspaceRef): Promise<WorkspaceRow | null> {
  const row =
    'id' in ref
      ? await workspaceById.first(db, { id: ref.id })
      : await workspaceByName.first(db, { organization: ref.organization, nameLower: ref.name.toLowerCase() });
  return row ?? null;
}

/**
 * The workspace the actor may read, else 404 (an unknown organization, an unknown workspace
 * and one the caller may not see all look the same). The facts come back aimed at the workspace
 * (`target`), so the policy counts project- and workspace-level team access.
 */
export async function readableWorkspace(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  db: Tx = ctx.db,
): Promise<{ row: WorkspaceRow; facts: OrgFacts }> {
  // By name, the organization's facts are those just checked: the row is found through its name.
  const orgLevel = 'id' in ref ? undefined : (await readableOrganization(ctx, ref.organization, db)).facts;
  const row = await findWorkspaceRow(db, ref);
  const missing = () => notFound(`workspace ${describeRef(ref)} not found`);
  if (!row) throw missing();
  let facts = scoped(orgLevel ?? (await orgFacts(db, ctx.actor, row.organization_id)), {
    projectId: row.project_id,
    workspaceId: row.id,
  });
  if (ctx.actor.kind === 'run') facts = { ...facts, sharesStateWithRun: await sharesStateWithRun(db, ctx.actor, row) };
  if (!can(ctx.actor, 'organization:read', facts) || !can(ctx.actor, 'workspace:read', facts)) throw missing();
  return { row, facts };
}

/**
 * Whether another workspace of the run's organization lets the run's workspace read its state:
 * `global-remote-state`, or the run's workspace among its approved remote state consumers (spec:
 * remote state consumers). A workspace is never its own consumer; its own state is the run's anyway.
 */
async function sharesStateWithRun(
  db: Tx,
  run: { workspaceId: string; organizationId: string },
  row: WorkspaceRow,
): Promise<boolean> {
  if (row.id === run.workspaceId || row.organization_id !== run.organizationId) return false;
  if (row.global_remote_state === 1) return true;
  const consumer = await db
    .selectFrom('remote_state_consumers')
    .select('consumer_id')
    .where('workspace_id', '=', row.id)
    .where('consumer_id', '=', run.workspaceId)
    .executeTakeFirst();
  return consumer !== undefined;
}

export async function getWorkspace(ctx: ServiceContext, ref: WorkspaceRef, db: Tx = ctx.db): Promise<Workspace> {
  const { row, facts } = await readableWorkspace(ctx, ref, db);
  return workspaceOf(ctx, db, row, facts);
}

/** The workspace of a row already read (and checked readable, with `facts`), with its tags, metrics and policy. */
export async function workspaceOf(ctx: ServiceContext, db: Tx, row: WorkspaceRow, facts: OrgFacts): Promise<Workspace> {
  const tagNames = tagNamesOfRow(row);
  if (row.drp_id === undefined || tagNames === undefined) return (await completeWorkspaces(ctx, db, [row], facts))[0];
  const metrics = await metricsOf(db, [row]);
  return toWorkspace(ctx, row, facts, tagNames, metrics.get(row.id));
}

export type { TaggedFilter } from './workspaces-filters.js';
export { wildcardPattern } from './workspaces-filters.js';

export type WorkspaceSort = 'name' | 'current-run.created-at' | 'latest-change-at' | 'locked-at';

export interface WorkspaceListQuery extends WorkspaceFilterQuery {
  sort?: { by: WorkspaceSort; descending: boolean };
}

type WorkspaceQuery = ReturnType<typeof selectWorkspaces>;

/**
 * Narrows a workspace query to what the caller may read (every workspace with an
 * organization-level grant; else those of the projects and workspaces its teams have access to).
 * Null when the caller may read none.
 */
export function onlyReadable(ctx: ServiceContext, facts: OrgFacts, q: WorkspaceQuery): WorkspaceQuery | null {
  const filter = readableFilter(ctx, facts);
  if (filter === 'none') return null;
  return filter ? q.where(filter as never) : q;
}

/**
 * The workspaces of an organization the caller may see, filtered, sorted and paged. The total
 * is counted on the workspaces table alone (the joins only add columns), so that it can be
 * answered from indexes.
 */
export async function listWorkspaces(
  ctx: ServiceContext,
  organization: string,
  asked: WorkspaceListQuery,
  page: PageRequest,
): Promise<Paged<Workspace>> {
  const { row: org, facts } = await readableOrganization(ctx, organization);
  const readable = readableFilter(ctx, facts);
  if (readable === 'none') return { items: [], total: 0, page };
  const query = await withKeyValueTagSearch(ctx, org.id, asked);
  if (readable === null && (!query.sort || query.sort.by === 'name') && onlyCondition(query, 'searchTags')) {
    const byName = query.sort && { descending: query.sort.descending };
    const { seqs, total } = await workspacesWithTags(ctx, org.id, query.searchTags!, page, byName);
    return { items: await workspacesBySeq(ctx, org, seqs, facts), total, page };
  }
  const plan = await planFilters(ctx, query);
  const filters = workspaceFilters(org.id, query, plan);
  if (readable) filters.push(readable);
  // The page is chosen on the workspaces table alone (seq only: often answered from an index),
  // then its rows are read with their joins.
  let paged = ctx.db.selectFrom('workspaces').select('workspaces.seq');
  for (const f of filters) paged = paged.where(f);
  const dir = query.sort?.descending ? 'desc' : 'asc';
  switch (query.sort?.by) {
    case 'name':
      paged = paged.orderBy('workspaces.name_lower', dir).orderBy('workspaces.name', dir);
      break;
    case 'latest-change-at':
      paged = paged.orderBy('workspaces.latest_change_at', dir);
      break;
    case 'locked-at':
      // Unlocked workspaces come last in either direction (with filter[locked]=true there are
      // none, and the index on the lock time gives the page in order).
      if (query.locked !== true) paged = paged.orderBy(sql`workspaces.locked_at is null`);
      paged = paged.orderBy('workspaces.locked_at', dir);
      break;
  }
  paged = paged.orderBy('workspaces.seq', dir).$call(inPage(page));
  let seqs: number[];
  let total: number;
  if (query.sort?.by === 'current-run.created-at') {
    // Workspaces without a current run come last in either direction: two ranges, see there.
    seqs = await pageByCurrentRun(ctx, filters, query.sort.descending, page);
    total = totalOfShortPage(page, seqs.length) ?? (await countMatches(ctx, org.id, query, readable, filters, plan));
  } else if (query.searchTags?.length && !query.searchTagsOrKeys?.length) {
    // Required tags: the database builds their intersection and sorts it whichever way it is
    // asked, so the page carries the count of the whole set (one pass instead of two).
    const rows = await readRows(ctx.db, paged.select(sql<number>`count(*) over ()`.as('total')));
    seqs = rows.map((r) => r.seq);
    total = rows.length > 0 ? Number(rows[0].total) : offsetOf(page) === 0 ? 0 : await countWorkspaces(ctx, filters);
  } else {
    seqs = (await readRows(ctx.db, paged)).map((r) => r.seq);
    total = totalOfShortPage(page, seqs.length) ?? (await countMatches(ctx, org.id, query, readable, filters, plan));
  }
  return { items: await workspacesBySeq(ctx, org, seqs, facts), total, page };
}

/**
 * The rows of a page's workspaces: the columns documents show, and their projects' columns. The
 * organization's columns are the same on every row of a page and come from its row instead: each
 * cell of a result costs about as much as reading it from the database, a page of 100 had 5,200
 * (better-sqlite3 makes a value of each), and this leaves 900 of them out.
 */
const selectBySeqs = queryByIds((db, seqs: number[]) =>
  db
    .selectFrom('workspaces')
    .innerJoin('projects', 'projects.id', 'workspaces.project_id')
    .select([
      'workspaces.seq',
      'workspaces.id',
      'workspaces.organization_id',
      'workspaces.project_id',
      'workspaces.name',
      'workspaces.description',
      'workspaces.allow_destroy_plan',
      'workspaces.assessments_enabled',
      'workspaces.auto_apply',
      'workspaces.auto_apply_run_trigger',
      'workspaces.auto_destroy_at',
      'workspaces.auto_destroy_activity_duration',
      'workspaces.auto_destroy_overridden',
      'workspaces.execution_mode',
      'workspaces.agent_pool_id',
      'workspaces.file_triggers_enabled',
      'workspaces.global_remote_state',
      'workspaces.queue_all_runs',
      'workspaces.source',
      'workspaces.source_name',
      'workspaces.source_url',
      'workspaces.speculative_enabled',
      'workspaces.structured_run_output_enabled',
      'workspaces.terraform_version',
      'workspaces.trigger_patterns',
      'workspaces.trigger_prefixes',
      'workspaces.working_directory',
      'workspaces.vcs_repo',
      'workspaces.locked',
      'workspaces.locked_reason',
      'workspaces.locked_by_kind',
      'workspaces.locked_by_id',
      'workspaces.locked_at',
      'workspaces.resource_count',
      'workspaces.latest_change_at',
      'workspaces.current_run_id',
      'workspaces.latest_run_id',
      'workspaces.current_state_version_id',
      'workspaces.current_configuration_version_id',
      'workspaces.current_assessment_result_id',
      'workspaces.ssh_key_id',
      'workspaces.created_at',
      'workspaces.updated_at',
      'projects.default_execution_mode as project_execution_mode',
      'projects.execution_overridden as project_execution_overridden',
      'projects.default_agent_pool_id as project_agent_pool_id',
      'projects.auto_destroy_activity_duration as project_auto_destroy',
    ])
    .where('workspaces.seq', 'in', seqs),
);

/** The workspaces of a page of `org`, in the order of `seqs`. */
async function workspacesBySeq(
  ctx: ServiceContext,
  org: Selectable<OrganizationsTable>,
  seqs: number[],
  facts: OrgFacts,
): Promise<Workspace[]> {
  if (seqs.length === 0) return [];
  const order = new Map(seqs.map((seq, i) => [seq, i]));
  const orgColumns = {
    org_name: org.name,
    org_execution_mode: org.default_execution_mode,
    org_agent_pool_id: org.default_agent_pool_id,
    org_allow_force_delete: org.allow_force_delete_workspaces,
    org_assessments_enforced: org.assessments_enforced,
  };
  const rows = (await selectBySeqs(ctx.db, seqs)).map((r) => Object.assign(r, orgColumns));
  rows.sort((a, b) => order.get(a.seq)! - order.get(b.seq)!);
  return completeWorkspaces(ctx, ctx.db, rows, facts);
}

export interface EffectiveTagBinding {
  id: string;
  key: string;
  value: string;
  /** The project the binding comes from, or null for the workspace's own. */
  inheritedFrom: string | null;
}

function effectiveId(workspaceId: string, key: string): string {
  return createHash('sha256').update(`${workspaceId}\u0000${key}`).digest('hex').slice(0, 16);
}

/**
 * The workspace's own bindings plus those inherited from its project; a key bound on both is
 * reported once, with the workspace's value.
 */
export async function effectiveTagBindingsOf(
  db: Tx,
  workspaces: { id: string; projectId: string }[],
): Promise<Map<string, EffectiveTagBinding[]>> {
  const out = new Map<string, EffectiveTagBinding[]>();
  if (workspaces.length === 0) return out;
  const own = await db
    .selectFrom('workspace_tag_bindings')
    .select(['workspace_id', 'key', 'value'])
    .where(
      'workspace_id',
      'in',
      workspaces.map((w) => w.id),
    )
    .orderBy('seq')
    .execute();
  const projectIds = [...new Set(workspaces.map((w) => w.projectId))];
  const inherited = await db
    .selectFrom('project_tag_bindings')
    .select(['project_id', 'key', 'value'])
    .where('project_id', 'in', projectIds)
    .orderBy('seq')
    .execute();
  for (const w of workspaces) {
    const mine = own.filter((b) => b.workspace_id === w.id);
    const keys = new Set(mine.map((b) => b.key));
    out.set(w.id, [
      ...mine.map((b) => ({ id: effectiveId(w.id, b.key), key: b.key, value: b.value, inheritedFrom: null })),
      ...inherited
        .filter((b) => b.project_id === w.projectId && !keys.has(b.key))
        .map((b) => ({ id: effectiveId(w.id, b.key), key: b.key, value: b.value, inheritedFrom: w.projectId })),
    ]);
  }
  return out;
}
