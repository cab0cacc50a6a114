import type { Updateable } from 'kysely';
import { BerthError, conflict, forbidden, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { resolveDefaultExecution } from '../../domain/workspaces/execution.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, readableProjectScope, scoped, type Action, type OrgFacts } from '../../domain/permissions/policy.js';
import { NAME_TAKEN_DETAIL, type Project, type ProjectInput } from '../../domain/projects/project.js';
import { directEffective, type EffectiveTagBinding, type TagBinding } from '../../domain/workspaces/tag-binding.js';
import { checkBindingCount, mergeBindings, type TagBindingInput } from '../../domain/workspaces/tags.js';
import { containsInsensitive } from '../../store/like.js';
import type { ProjectsTable } from '../../store/schema.js';
import { readTransaction, writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import {
  findProjectRow,
  ORG_EXECUTION_COLUMNS,
  ownExecution,
  projectCounts,
  toProject,
  type ProjectRow,
} from './projects-read.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

/** The project permissions a list can be filtered by (`filter[permissions][...]`). */
export type ProjectPermissionFilter = 'create-workspace' | 'update';

/** One `filter[tagged][i]`: a key and/or a value; an absent or empty part matches anything. */
export interface TagFilter {
  key?: string;
  value?: string;
}

export interface ProjectListQuery {
  /** Case-insensitive substring of the name; ignored when `names` is given. */
  q?: string;
  /** Case-insensitive exact names, any of which matches. */
  names?: string[];
  permissions?: ProjectPermissionFilter[];
  tagged?: TagFilter[];
  sort?: 'name' | '-name';
  /** Also load every listed project's effective tag bindings. */
  includeEffectiveTagBindings?: boolean;
}

export interface ProjectList extends Paged<Project> {
  /** `total`: projects of the organization the caller may read; `matching`: those the filters keep. */
  statusCounts: { total: number; matching: number };
  /** Effective tag bindings by project id (only when asked for). */
  effectiveTagBindings?: Map<string, EffectiveTagBinding[]>;
}

const PERMISSION_ACTIONS: Record<ProjectPermissionFilter, Action> = {
  // Matches `permissions.can-create-workspace` and `permissions.can-update` of the document.
  'create-workspace': 'workspace:create',
  update: 'project:update',
};

interface ReadableProject {
  row: ProjectRow;
  organizationName: string;
  facts: OrgFacts;
}

/** The project the actor may read, else 404 (unknown and unreadable look the same). */
async function readableProject(ctx: ServiceContext, id: string, db: Tx): Promise<ReadableProject> {
  const row = await findProjectRow(db, id);
  const missing = () => notFound(`project ${id} not found`);
  if (!row) throw missing();
  const org = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', '=', row.organization_id)
    .executeTakeFirst();
  if (!org) throw missing();
  const facts = scoped(await orgFacts(db, ctx.actor, org.id), { projectId: row.id });
  if (!can(ctx.actor, 'organization:read', facts) || !can(ctx.actor, 'project:read', facts)) throw missing();
  return { row, organizationName: org.name, facts };
}

/** 404 "not found, or you are not authorized to ..." unless the caller may do `action`. */
function requirePermission(ctx: ServiceContext, p: ReadableProject, action: Action, what: string): void {
  if (!can(ctx.actor, action, p.facts)) throw notAuthorized(`${what} project ${p.row.name} (${p.row.id})`);
}

function nameTaken(): BerthError {
  return new BerthError([
    { status: 422, title: 'invalid attribute', detail: NAME_TAKEN_DETAIL, pointer: '/data/attributes/name' },
  ]);
}

/** Names are unique in an organization, compared case-insensitively. */
async function ensureNameFree(tx: Tx, organizationId: string, name: string, exceptId?: string): Promise<void> {
  let query = tx
    .selectFrom('projects')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name_lower', '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameTaken();
}

/**
 * The bindings set directly on a project, in the order their keys were first added. No
 * permission check: for services that already checked (workspaces inherit these).
 */
export async function projectTagBindings(db: Tx, projectId: string): Promise<TagBinding[]> {
  const rows = await db
    .selectFrom('project_tag_bindings')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ id: r.id, key: r.key, value: r.value, createdAt: r.created_at }));
}

/**
 * Makes the project's bindings exactly `target`: removes keys not in it, updates changed
 * values in place (keeping id and creation time), inserts new keys in the given order.
 */
async function applyBindings(tx: Tx, projectId: string, target: TagBindingInput[], now: string): Promise<void> {
  const existing = await projectTagBindings(tx, projectId);
  const wanted = new Map(target.map((b) => [b.key, b.value]));
  for (const b of existing) {
    const value = wanted.get(b.key);
    if (value === undefined) await tx.deleteFrom('project_tag_bindings').where('id', '=', b.id).execute();
    else if (value !== b.value)
      await tx.updateTable('project_tag_bindings').set({ value }).where('id', '=', b.id).execute();
  }
  const have = new Set(existing.map((b) => b.key));
  for (const b of target) {
    if (have.has(b.key)) continue;
    await tx
      .insertInto('project_tag_bindings')
      .values({ id: newId('tb'), project_id: projectId, key: b.key, value: b.value, created_at: now })
      .execute();
  }
}

/**
 * The execution columns of a project after a create (`current` null) or update: inheriting
 * (`setting-overwrites` false) clears the own mode; a mode or pool given makes it the project's
 * own, with the organization rules (a pool only with `agent`, which needs one of the
 * organization's pools). A project that inherits keeps `default_execution_mode` unused.
 */
async function projectExecution(
  tx: Tx,
  organizationId: string,
  current: ProjectRow | null,
  input: ProjectInput,
): Promise<
  Pick<ProjectsTable, 'default_execution_mode'> & { execution_overridden: number; default_agent_pool_id: string | null }
> {
  const inherit = {
    default_execution_mode: current?.default_execution_mode ?? 'remote',
    execution_overridden: 0,
    default_agent_pool_id: null,
  };
  if (input.inheritExecution) return inherit;
  if (input.defaultExecutionMode === undefined && input.defaultAgentPoolId === undefined) {
    const own = current ? ownExecution(current) : null;
    return own
      ? { default_execution_mode: own.mode, execution_overridden: 1, default_agent_pool_id: own.agentPoolId }
      : inherit;
  }
  const setting = resolveDefaultExecution(
    (current && ownExecution(current)) ?? { mode: 'remote', agentPoolId: null },
    { mode: input.defaultExecutionMode, agentPoolId: input.defaultAgentPoolId },
    { mode: '/data/attributes/default-execution-mode', pool: '/data/attributes/default-agent-pool-id' },
  );
  if (setting.agentPoolId) {
    const pool = await tx
      .selectFrom('agent_pools')
      .select('id')
      .where('id', '=', setting.agentPoolId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!pool)
      throw invalid(
        '/data/attributes/default-agent-pool-id',
        `Agent pool ${setting.agentPoolId} not found in this organization`,
      );
  }
  return { default_execution_mode: setting.mode, execution_overridden: 1, default_agent_pool_id: setting.agentPoolId };
}

async function projectOf(
  ctx: ServiceContext,
  db: Tx,
  id: string,
  organizationName: string,
  facts: OrgFacts,
): Promise<Project> {
  const row = await findProjectRow(db, id);
  if (!row) throw notFound(`project ${id} not found`);
  return toProject(ctx, row, organizationName, facts, await projectCounts(db, id));
}

export async function createProject(
  ctx: ServiceContext,
  organizationName: string,
  input: ProjectInput,
): Promise<Project> {
  return writeTransaction(inOrganizationNamed(ctx, organizationName), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organizationName, tx);
    if (!can(ctx.actor, 'project:create', facts)) throw notAuthorized(`create projects in organization ${org.name}`);
    const name = input.name!;
    await ensureNameFree(tx, org.id, name);
    const execution = await projectExecution(tx, org.id, null, input);
    const id = newId('prj');
    const now = ctx.clock.now().toISOString();
    await tx
      .insertInto('projects')
      .values({
        id,
        organization_id: org.id,
        name,
        name_lower: name.toLowerCase(),
        description: input.description ?? null,
        auto_destroy_activity_duration: input.autoDestroyActivityDuration ?? null,
        ...execution,
        is_default: 0,
        created_at: now,
      })
      .execute();
    if (input.tagBindings) await applyBindings(tx, id, input.tagBindings, now);
    return projectOf(ctx, tx, id, org.name, facts);
  });
}

export async function getProject(ctx: ServiceContext, id: string): Promise<Project> {
  const p = await readableProject(ctx, id, ctx.db);
  return toProject(ctx, p.row, p.organizationName, p.facts, await projectCounts(ctx.db, id));
}

/**
 * Changes the given fields only. The auto-destroy duration is stored on the project row alone:
 * workspaces that do not override it derive it from their project when they are read.
 */
export async function updateProject(ctx: ServiceContext, id: string, input: ProjectInput): Promise<Project> {
  return writeTransaction(inOrganizationOf(ctx, 'projects', id), async (tx) => {
    const p = await readableProject(ctx, id, tx);
    requirePermission(ctx, p, 'project:update', 'update');
    const changes: Updateable<ProjectsTable> = {};
    if (input.name !== undefined && input.name !== p.row.name) {
      await ensureNameFree(tx, p.row.organization_id, input.name, id);
      changes.name = input.name;
      changes.name_lower = input.name.toLowerCase();
    }
    if (input.description !== undefined) changes.description = input.description;
    if (input.autoDestroyActivityDuration !== undefined)
      changes.auto_destroy_activity_duration = input.autoDestroyActivityDuration;
    if (
      input.defaultExecutionMode !== undefined ||
      input.defaultAgentPoolId !== undefined ||
      input.inheritExecution !== undefined
    )
      Object.assign(changes, await projectExecution(tx, p.row.organization_id, p.row, input));
    if (Object.keys(changes).length > 0) await tx.updateTable('projects').set(changes).where('id', '=', id).execute();
    if (input.tagBindings) await applyBindings(tx, id, input.tagBindings, ctx.clock.now().toISOString());
    return projectOf(ctx, tx, id, p.organizationName, p.facts);
  });
}

export const DEFAULT_PROJECT_DELETE_DETAIL = 'The default project of an organization cannot be deleted';

/** 204 path; 409 for the default project and for a project that still holds workspaces. */
export async function deleteProject(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'projects', id), async (tx) => {
    const p = await readableProject(ctx, id, tx);
    // The spec's one 403 for projects: "not authorized to force delete" a project it can read.
    if (!can(ctx.actor, 'project:delete', p.facts))
      throw forbidden(`not authorized to delete project ${p.row.name} (${p.row.id})`);
    if (p.row.is_default === 1) throw conflict(DEFAULT_PROJECT_DELETE_DETAIL);
    const { workspaceCount } = await projectCounts(tx, id);
    if (workspaceCount > 0) {
      throw conflict(
        `Project ${p.row.name} (${id}) still contains ${workspaceCount} workspace${workspaceCount === 1 ? '' : 's'}; move or delete them before deleting the project`,
      );
    }
    await tx.deleteFrom('project_tag_bindings').where('project_id', '=', id).execute();
    await tx.deleteFrom('projects').where('id', '=', id).execute();
  });
}

/** One consistent snapshot: counts, page and bindings are read in one read transaction. */
export async function listProjects(
  ctx: ServiceContext,
  organizationName: string,
  page: PageRequest,
  q: ProjectListQuery = {},
): Promise<ProjectList> {
  return readTransaction(ctx.db, async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organizationName, tx);
    const empty: ProjectList = { items: [], total: 0, page, statusCounts: { total: 0, matching: 0 } };
    if (q.includeEffectiveTagBindings) empty.effectiveTagBindings = new Map();
    const scope = readableProjectScope(ctx.actor, facts);
    if (scope !== 'all' && scope.projectIds.length === 0) return empty;

    let all = tx.selectFrom('projects').where('projects.organization_id', '=', org.id);
    if (scope !== 'all') all = all.where('projects.id', 'in', scope.projectIds);
    const { n: total } = await all.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

    let query = all;
    // A permission filter keeps the projects where the caller has it: every project when an
    // organization-level grant gives it, else those whose team access gives it.
    for (const perm of q.permissions ?? []) {
      const action = PERMISSION_ACTIONS[perm];
      if (can(ctx.actor, action, facts)) continue;
      const granted = [...new Set((facts.projectGrants ?? []).map((g) => g.projectId))].filter((projectId) =>
        can(ctx.actor, action, scoped(facts, { projectId })),
      );
      if (granted.length === 0) return { ...empty, statusCounts: { total: Number(total), matching: 0 } };
      query = query.where('projects.id', 'in', granted);
    }

    if (q.names && q.names.length > 0) {
      query = query.where(
        'projects.name_lower',
        'in',
        q.names.map((n) => n.toLowerCase()),
      );
    } else if (q.q) {
      query = query.where(containsInsensitive('projects.name', q.q));
    }
    for (const t of q.tagged ?? []) {
      if (!t.key && !t.value) continue;
      query = query.where((eb) => {
        let sub = eb
          .selectFrom('project_tag_bindings')
          .select('project_tag_bindings.id')
          .whereRef('project_tag_bindings.project_id', '=', 'projects.id');
        if (t.key) sub = sub.where('project_tag_bindings.key', '=', t.key);
        if (t.value) sub = sub.where('project_tag_bindings.value', '=', t.value);
        return eb.exists(sub);
      });
    }
    const { n: matching } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

    let ordered = query
      .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
      .selectAll('projects')
      .select(ORG_EXECUTION_COLUMNS);
    if (q.sort === 'name') ordered = ordered.orderBy('projects.name_lower', 'asc').orderBy('projects.seq', 'asc');
    else if (q.sort === '-name')
      ordered = ordered.orderBy('projects.name_lower', 'desc').orderBy('projects.seq', 'desc');
    // Default order: creation order, the organization's default project last (go-tfe expects a
    // project it just created to come before the one every organization starts with).
    else ordered = ordered.orderBy('projects.is_default', 'asc').orderBy('projects.seq', 'asc');
    const rows = await ordered.$call(inPage(page)).execute();

    const items: Project[] = [];
    for (const row of rows) items.push(toProject(ctx, row, org.name, facts, await projectCounts(tx, row.id)));
    const result: ProjectList = {
      items,
      total: Number(matching),
      page,
      statusCounts: { total: Number(total), matching: Number(matching) },
    };
    if (q.includeEffectiveTagBindings) {
      result.effectiveTagBindings = new Map();
      for (const row of rows)
        result.effectiveTagBindings.set(row.id, (await projectTagBindings(tx, row.id)).map(directEffective));
    }
    return result;
  });
}

// --- Tag bindings --------------------------------------------------------------------------

/** The bindings set directly on the project, in the order they were added. */
export async function listProjectTagBindings(ctx: ServiceContext, id: string): Promise<TagBinding[]> {
  await readableProject(ctx, id, ctx.db);
  return projectTagBindings(ctx.db, id);
}

/** For a project the effective bindings are its own bindings (projects inherit nothing). */
export async function listProjectEffectiveTagBindings(ctx: ServiceContext, id: string): Promise<EffectiveTagBinding[]> {
  return (await listProjectTagBindings(ctx, id)).map(directEffective);
}

/**
 * Adds bindings or updates values by key, never removes. The limit of direct bindings applies to
 * the merged set (`pointer` names the request's data). Returns every binding of the project.
 */
export async function addProjectTagBindings(
  ctx: ServiceContext,
  id: string,
  incoming: TagBindingInput[],
  pointer = '/data',
): Promise<TagBinding[]> {
  return writeTransaction(inOrganizationOf(ctx, 'projects', id), async (tx) => {
    const p = await readableProject(ctx, id, tx);
    requirePermission(ctx, p, 'project:update', 'manage the tags of');
    const existing = await projectTagBindings(tx, id);
    const merged = mergeBindings(existing, incoming);
    checkBindingCount(merged.length, pointer);
    await applyBindings(tx, id, merged, ctx.clock.now().toISOString());
    return projectTagBindings(tx, id);
  });
}

/** Replaces the whole set of the project's bindings (`[]` removes them all). */
export async function replaceProjectTagBindings(
  ctx: ServiceContext,
  id: string,
  target: TagBindingInput[],
  pointer = '/data',
): Promise<TagBinding[]> {
  checkBindingCount(target.length, pointer);
  return writeTransaction(inOrganizationOf(ctx, 'projects', id), async (tx) => {
    const p = await readableProject(ctx, id, tx);
    requirePermission(ctx, p, 'project:update', 'manage the tags of');
    await applyBindings(tx, id, target, ctx.clock.now().toISOString());
    return projectTagBindings(tx, id);
  });
}

/** The effective bindings of one project (for `include=effective_tag_bindings` on a read). */
export async function projectEffectiveTagBindings(ctx: ServiceContext, id: string): Promise<EffectiveTagBinding[]> {
  return (await projectTagBindings(ctx.db, id)).map(directEffective);
}
