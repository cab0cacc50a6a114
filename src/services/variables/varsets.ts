import { invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, readableProjectScope, scoped } from '../../domain/permissions/policy.js';
import type { Project } from '../../domain/projects/project.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import {
  canManageVarset,
  projectVarsetAccess,
  projectVarsetReadScope,
  variableReadScope,
} from '../../domain/variables/varset-policy.js';
import {
  PROJECT_VARSET_NOT_GLOBAL,
  VARSET_NAME_TAKEN,
  type Varset,
  type VarsetInput,
} from '../../domain/variables/varset.js';
import { containsInsensitive } from '../../store/like.js';
import { inPage } from '../../store/literal-limit.js';
import { readTransaction, writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';
import { ORG_EXECUTION_COLUMNS, toProject } from '../projects/projects-read.js';
import {
  completeWorkspaces,
  onlyReadable,
  readableWorkspace,
  selectWorkspaces,
} from '../workspaces/workspaces-read.js';
import { refuseGlobalKeyClash } from './varset-global-keys.js';
import { insertVariables } from './varset-variables.js';
import { manageableVarset, readableVarset, selectVarsets, toVarsets, visibleTo } from './varsets-read.js';

const MANAGE = 'manage variable sets';

async function nameTaken(tx: Tx, organizationId: string, name: string, except?: string): Promise<boolean> {
  let q = tx
    .selectFrom('varsets')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name_lower', '=', name.toLowerCase());
  if (except) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The ids, each a workspace (or project) of the organization, else 422 naming the first stranger. */
async function checkMembers(
  tx: Tx,
  table: 'workspaces' | 'projects',
  organizationId: string,
  ids: string[],
  pointer: string,
): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .selectFrom(table)
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  const known = new Set(found.map((r) => r.id));
  const stranger = ids.find((id) => !known.has(id));
  if (stranger) throw invalid(pointer, `${table === 'workspaces' ? 'workspace' : 'project'} ${stranger} not found`);
}

async function replaceLinks(tx: Tx, varsetId: string, input: VarsetInput): Promise<void> {
  if (input.workspaceIds) {
    await tx.deleteFrom('varset_workspaces').where('varset_id', '=', varsetId).execute();
    if (input.workspaceIds.length > 0)
      await tx
        .insertInto('varset_workspaces')
        .values(input.workspaceIds.map((workspace_id, i) => ({ varset_id: varsetId, workspace_id, seq: i + 1 })))
        .execute();
  }
  if (input.projectIds) {
    await tx.deleteFrom('varset_projects').where('varset_id', '=', varsetId).execute();
    if (input.projectIds.length > 0)
      await tx
        .insertInto('varset_projects')
        .values(input.projectIds.map((project_id, i) => ({ varset_id: varsetId, project_id, seq: i + 1 })))
        .execute();
  }
}

/**
 * A set owned by a project applies only within it: to the project itself and to its workspaces.
 * Naming another project, or a workspace of another project, is a 422 at `pointer`.
 */
async function checkWithinOwner(
  tx: Tx,
  parentProjectId: string | null,
  link: VarsetLink,
  ids: string[],
  pointer: string,
): Promise<void> {
  if (parentProjectId === null || ids.length === 0) return;
  if (link === 'projects') {
    const other = ids.find((id) => id !== parentProjectId);
    if (other)
      throw invalid(
        pointer,
        `a variable set owned by project ${parentProjectId} applies only to that project, not to project ${other}`,
      );
    return;
  }
  const inside = await tx
    .selectFrom('workspaces')
    .select('id')
    .where('id', 'in', ids)
    .where('project_id', '=', parentProjectId)
    .execute();
  const known = new Set(inside.map((r) => r.id));
  const outside = ids.find((id) => !known.has(id));
  if (outside)
    throw invalid(
      pointer,
      `a variable set owned by project ${parentProjectId} applies only to its workspaces: workspace ${outside} is in another project`,
    );
}

/**
 * The project that will own a set being created (null: the organization), from `relationships.parent`.
 * An organization named there must be the set's own (422).
 */
function parentProjectOf(input: VarsetInput, orgName: string): string | null {
  const parent = input.parent;
  if (!parent) return null;
  if (parent.type === 'organizations') {
    if (parent.id !== orgName)
      throw invalid(
        '/data/relationships/parent/data/id',
        `a variable set of organization ${orgName} cannot belong to organization ${parent.id}`,
      );
    return null;
  }
  return parent.id;
}

/** A global set applies everywhere: it has no workspaces nor projects of its own. */
function checkGlobalLinks(global: boolean, input: VarsetInput): void {
  if (!global) return;
  if (input.workspaceIds?.length)
    throw invalid('/data/relationships/workspaces', 'a global variable set applies to every workspace already');
  if (input.projectIds?.length)
    throw invalid('/data/relationships/projects', 'a global variable set applies to every project already');
}

/** The keys of the variables a create or update body adds. */
function added(input: VarsetInput): { key: string; category: string }[] {
  return (input.variables ?? []).map((v) => ({ key: v.key!, category: v.category! }));
}

/** Where a create or update body adds the variable of `key` and `category`, if it does. */
function addedAt(input: VarsetInput) {
  return (key: string, category: string): string | undefined => {
    const i = (input.variables ?? []).findIndex((v) => v.key === key && v.category === category);
    return i === -1 ? undefined : `/data/relationships/vars/data/${i}/attributes/key`;
  };
}

async function oneVarset(tx: Tx, id: string): Promise<Varset> {
  const row = await selectVarsets(tx).where('varsets.id', '=', id).executeTakeFirstOrThrow();
  return (await toVarsets(tx, [row]))[0];
}

export async function createVarset(ctx: ServiceContext, orgName: string, input: VarsetInput): Promise<Varset> {
  return writeTransaction(inOrganizationNamed(ctx, orgName), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, orgName, tx);
    const parentProjectId = parentProjectOf(input, org.name);
    // A project's variable-set managers may create sets it owns (an unknown project: none, so 404 too).
    if (!canManageVarset(ctx.actor, facts, parentProjectId)) throw notAuthorized(MANAGE);
    if (parentProjectId !== null) {
      const project = await tx
        .selectFrom('projects')
        .select('id')
        .where('id', '=', parentProjectId)
        .where('organization_id', '=', org.id)
        .executeTakeFirst();
      if (!project) throw invalid('/data/relationships/parent/data/id', `project ${parentProjectId} not found`);
    }
    const name = input.name!;
    if (await nameTaken(tx, org.id, name)) throw invalid('/data/attributes/name', VARSET_NAME_TAKEN);
    const global = input.global ?? false;
    if (global && parentProjectId !== null) throw invalid('/data/attributes/global', PROJECT_VARSET_NOT_GLOBAL);
    checkGlobalLinks(global, input);
    await checkMembers(tx, 'workspaces', org.id, input.workspaceIds ?? [], '/data/relationships/workspaces');
    await checkMembers(tx, 'projects', org.id, input.projectIds ?? [], '/data/relationships/projects');
    await checkWithinOwner(
      tx,
      parentProjectId,
      'workspaces',
      input.workspaceIds ?? [],
      '/data/relationships/workspaces',
    );
    await checkWithinOwner(tx, parentProjectId, 'projects', input.projectIds ?? [], '/data/relationships/projects');
    const id = newId('varset');
    const now = ctx.clock.now().toISOString();
    await tx
      .insertInto('varsets')
      .values({
        id,
        organization_id: org.id,
        name,
        name_lower: name.toLowerCase(),
        description: input.description ?? '',
        global: global ? 1 : 0,
        priority: input.priority ? 1 : 0,
        parent_project_id: parentProjectId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await replaceLinks(tx, id, input);
    await insertVariables(ctx, tx, id, input.variables ?? [], now);
    await refuseGlobalKeyClash(tx, id, added(input), addedAt(input));
    return oneVarset(tx, id);
  });
}

export async function getVarset(ctx: ServiceContext, id: string): Promise<Varset> {
  return readTransaction(
    ctx.db,
    async (tx) => (await toVarsets(tx, [(await readableVarset(tx, ctx.actor, id)).row]))[0],
  );
}

export async function updateVarset(ctx: ServiceContext, id: string, input: VarsetInput): Promise<Varset> {
  return writeTransaction(inOrganizationOf(ctx, 'varsets', id), async (tx) => {
    const row = await manageableVarset(ctx, tx, id);
    if (input.name !== undefined && (await nameTaken(tx, row.organization_id, input.name, id)))
      throw invalid('/data/attributes/name', VARSET_NAME_TAKEN);
    // The owner is chosen once (the tfe provider replaces a set whose parent_project_id changes).
    if (input.parent !== undefined) {
      const asked = input.parent.type === 'projects' ? input.parent.id : null;
      const namesOwnOrg = input.parent.type === 'organizations' && input.parent.id === row.organization_name;
      if (asked !== row.parent_project_id || (input.parent.type === 'organizations' && !namesOwnOrg))
        throw invalid('/data/relationships/parent', 'the parent of a variable set cannot be changed');
    }
    const global = input.global ?? row.global === 1;
    if (global && row.parent_project_id !== null) throw invalid('/data/attributes/global', PROJECT_VARSET_NOT_GLOBAL);
    checkGlobalLinks(global, input);
    await checkMembers(
      tx,
      'workspaces',
      row.organization_id,
      input.workspaceIds ?? [],
      '/data/relationships/workspaces',
    );
    await checkMembers(tx, 'projects', row.organization_id, input.projectIds ?? [], '/data/relationships/projects');
    await checkWithinOwner(
      tx,
      row.parent_project_id,
      'workspaces',
      input.workspaceIds ?? [],
      '/data/relationships/workspaces',
    );
    await checkWithinOwner(
      tx,
      row.parent_project_id,
      'projects',
      input.projectIds ?? [],
      '/data/relationships/projects',
    );
    const now = ctx.clock.now().toISOString();
    await tx
      .updateTable('varsets')
      .set({
        ...(input.name !== undefined ? { name: input.name, name_lower: input.name.toLowerCase() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.priority !== undefined ? { priority: input.priority ? 1 : 0 } : {}),
        global: global ? 1 : 0,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    // Becoming global: it applies everywhere, so its own workspaces and projects go.
    await replaceLinks(tx, id, global ? { workspaceIds: [], projectIds: [] } : input);
    await insertVariables(ctx, tx, id, input.variables ?? [], now);
    // A set that becomes global: all its variables; else those the body adds (reported there).
    await refuseGlobalKeyClash(tx, id, global && row.global !== 1 ? 'all' : added(input), addedAt(input));
    return oneVarset(tx, id);
  });
}

export async function deleteVarset(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'varsets', id), async (tx) => {
    await manageableVarset(ctx, tx, id);
    await tx.deleteFrom('varsets').where('id', '=', id).execute();
  });
}

export type VarsetLink = 'workspaces' | 'projects';

/** The highest position among a set's workspaces or projects (0 for none): those added go after it. */
const lastSeq = (rows: { seq: number }[]) => rows.reduce((m, r) => Math.max(m, Number(r.seq)), 0);

/** Applies the set to (or removes it from) workspaces or projects; ids must be of its organization. */
export async function changeVarsetLinks(
  ctx: ServiceContext,
  id: string,
  link: VarsetLink,
  ids: string[],
  change: 'add' | 'remove',
): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'varsets', id), async (tx) => {
    const row = await manageableVarset(ctx, tx, id);
    if (row.global === 1)
      throw invalid(
        '/data',
        `a global variable set applies to every ${link === 'workspaces' ? 'workspace' : 'project'}`,
      );
    await checkMembers(tx, link, row.organization_id, ids, '/data');
    if (change === 'add') await checkWithinOwner(tx, row.parent_project_id, link, ids, '/data');
    if (ids.length === 0) return;
    if (link === 'workspaces') {
      if (change === 'remove') {
        await tx.deleteFrom('varset_workspaces').where('varset_id', '=', id).where('workspace_id', 'in', ids).execute();
      } else {
        const have = await tx
          .selectFrom('varset_workspaces')
          .select(['workspace_id', 'seq'])
          .where('varset_id', '=', id)
          .execute();
        const fresh = ids.filter((w) => !have.some((h) => h.workspace_id === w));
        const last = lastSeq(have);
        if (fresh.length > 0)
          await tx
            .insertInto('varset_workspaces')
            .values(fresh.map((workspace_id, i) => ({ varset_id: id, workspace_id, seq: last + i + 1 })))
            .execute();
      }
    } else if (change === 'remove') {
      await tx.deleteFrom('varset_projects').where('varset_id', '=', id).where('project_id', 'in', ids).execute();
    } else {
      const have = await tx
        .selectFrom('varset_projects')
        .select(['project_id', 'seq'])
        .where('varset_id', '=', id)
        .execute();
      const fresh = ids.filter((p) => !have.some((h) => h.project_id === p));
      const last = lastSeq(have);
      if (fresh.length > 0)
        await tx
          .insertInto('varset_projects')
          .values(fresh.map((project_id, i) => ({ varset_id: id, project_id, seq: last + i + 1 })))
          .execute();
    }
    await tx.updateTable('varsets').set({ updated_at: ctx.clock.now().toISOString() }).where('id', '=', id).execute();
  });
}

export interface VarsetListQuery {
  /** Case-insensitive substring of the name. */
  q?: string;
}

async function pageOfSets(
  tx: Tx,
  base: ReturnType<typeof selectVarsets>,
  page: PageRequest,
  q: VarsetListQuery,
): Promise<Paged<Varset>> {
  const filtered = q.q ? base.where(containsInsensitive('varsets.name', q.q)) : base;
  const total = Number(
    (
      await filtered
        .clearSelect()
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await filtered.orderBy('varsets.name_lower').orderBy('varsets.seq').$call(inPage(page)).execute();
  return { items: await toVarsets(tx, rows), total, page };
}

/** The organization's sets the caller may read. */
export async function listOrganizationVarsets(
  ctx: ServiceContext,
  orgName: string,
  page: PageRequest,
  q: VarsetListQuery = {},
): Promise<Paged<Varset>> {
  return readTransaction(ctx.db, async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, orgName, tx);
    const scope = variableReadScope(ctx.actor, facts);
    let base = selectVarsets(tx).where('varsets.organization_id', '=', org.id);
    if (scope !== 'all') base = base.where(visibleTo(scope, projectVarsetReadScope(ctx.actor, facts)));
    return pageOfSets(tx, base, page, q);
  });
}

/**
 * The sets of an organization that reach a project's workspaces (global, or applied to the
 * project) and, given one, a workspace (also those applied to it); given `ownedBy`, also the
 * sets that project owns.
 */
function setsReaching(tx: Tx, organizationId: string, projectId: string, workspaceId?: string, ownedBy?: string) {
  return selectVarsets(tx)
    .where('varsets.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('varsets.global', '=', 1),
        eb(
          'varsets.id',
          'in',
          eb.selectFrom('varset_projects').select('varset_id').where('project_id', '=', projectId),
        ),
        ...(ownedBy === undefined ? [] : [eb('varsets.parent_project_id', '=', ownedBy)]),
        ...(workspaceId === undefined
          ? []
          : [
              eb(
                'varsets.id',
                'in',
                eb.selectFrom('varset_workspaces').select('varset_id').where('workspace_id', '=', workspaceId),
              ),
            ]),
      ]),
    );
}

/**
 * The sets of a project: those that apply to its workspaces through it (applied to the project,
 * and the global ones) for a caller who reads its workspaces' variables, and those the project
 * owns (applied or not) for a caller who reads them (varset-policy.ts: managers, and
 * `variable-sets` read or write on the project).
 */
export async function listProjectVarsets(
  ctx: ServiceContext,
  projectId: string,
  page: PageRequest,
  q: VarsetListQuery = {},
): Promise<Paged<Varset>> {
  return readTransaction(ctx.db, async (tx) => {
    const missing = () => notFound(`project ${projectId} not found`);
    const project = await tx
      .selectFrom('projects')
      .select(['id', 'organization_id'])
      .where('id', '=', projectId)
      .executeTakeFirst();
    if (!project) throw missing();
    const facts = scoped(await orgFacts(tx, ctx.actor, project.organization_id), { projectId });
    if (!can(ctx.actor, 'organization:read', facts) || !can(ctx.actor, 'project:read', facts)) throw missing();
    const scope = variableReadScope(ctx.actor, facts);
    const readsVariables = scope === 'all' || scope.projectIds.includes(projectId);
    const readsOwned = scope === 'all' || projectVarsetAccess(ctx.actor, facts, projectId) !== 'none';
    if (!readsVariables && !readsOwned) throw notAuthorized('read variables');
    const owned = selectVarsets(tx).where('varsets.parent_project_id', '=', projectId);
    const base = !readsVariables
      ? owned
      : setsReaching(tx, project.organization_id, projectId, undefined, readsOwned ? projectId : undefined);
    return pageOfSets(tx, base, page, q);
  });
}

/** The sets that apply to a workspace: global, through its project, or its own. */
export async function listWorkspaceVarsets(
  ctx: ServiceContext,
  workspaceId: string,
  page: PageRequest,
  q: VarsetListQuery = {},
): Promise<Paged<Varset>> {
  return readTransaction(ctx.db, async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, { id: workspaceId }, tx);
    if (!can(ctx.actor, 'workspace:read-variables', facts)) throw notAuthorized('read variables');
    return pageOfSets(tx, setsReaching(tx, row.organization_id, row.project_id, row.id), page, q);
  });
}

/**
 * The workspaces and projects the sets apply to, for `include=workspaces` and `include=projects`:
 * each once, only those the caller may read, in the sets' order. A few statements for the whole
 * list, whatever its length.
 */
export async function varsetIncludes(
  ctx: ServiceContext,
  sets: Varset[],
  want: { workspaces: boolean; projects: boolean },
): Promise<{ workspaces: Workspace[]; projects: Project[] }> {
  const out: { workspaces: Workspace[]; projects: Project[] } = { workspaces: [], projects: [] };
  const unique = (ids: string[]) => [...new Set(ids)];
  const byOrg = new Map<string, Varset[]>();
  for (const s of sets) byOrg.set(s.organizationName, [...(byOrg.get(s.organizationName) ?? []), s]);
  await readTransaction(ctx.db, async (tx) => {
    for (const [orgName, orgSets] of byOrg) {
      const wsIds = want.workspaces ? unique(orgSets.flatMap((s) => s.workspaceIds)) : [];
      const prjIds = want.projects ? unique(orgSets.flatMap((s) => s.projectIds)) : [];
      if (wsIds.length === 0 && prjIds.length === 0) continue;
      const { row: org, facts } = await readableOrganization(ctx, orgName, tx);
      if (wsIds.length > 0) {
        const q = onlyReadable(
          ctx,
          facts,
          selectWorkspaces(tx).where('workspaces.organization_id', '=', org.id).where('workspaces.id', 'in', wsIds),
        );
        const rows = q ? await q.execute() : [];
        const order = new Map(wsIds.map((id, i) => [id, i]));
        rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
        out.workspaces.push(...(await completeWorkspaces(ctx, tx, rows, facts)));
      }
      if (prjIds.length > 0) {
        const scope = readableProjectScope(ctx.actor, facts);
        const readable = scope === 'all' ? prjIds : prjIds.filter((id) => scope.projectIds.includes(id));
        if (readable.length === 0) continue;
        const rows = await tx
          .selectFrom('projects')
          .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
          .selectAll('projects')
          .select(ORG_EXECUTION_COLUMNS)
          .where('projects.organization_id', '=', org.id)
          .where('projects.id', 'in', readable)
          .execute();
        const workspaceCounts = await tx
          .selectFrom('workspace_counts')
          .select((eb) => ['project_id', eb.fn.sum<number | string | null>('n').as('n')])
          .where('project_id', 'in', readable)
          .groupBy('project_id')
          .execute();
        const teamCounts = await tx
          .selectFrom('team_projects')
          .select((eb) => ['project_id', eb.fn.countAll<number | string>().as('n')])
          .where('project_id', 'in', readable)
          .groupBy('project_id')
          .execute();
        const count = (list: { project_id: string | null; n: number | string | null }[], id: string) =>
          Number(list.find((c) => c.project_id === id)?.n ?? 0);
        const order = new Map(readable.map((id, i) => [id, i]));
        rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
        out.projects.push(
          ...rows.map((row) =>
            toProject(ctx, row, org.name, facts, {
              workspaceCount: count(workspaceCounts, row.id),
              teamCount: count(teamCounts, row.id),
            }),
          ),
        );
      }
    }
  });
  return out;
}
