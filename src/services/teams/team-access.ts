import type { Selectable, Updateable } from 'kysely';
import {
  checkCustomOnly,
  CUSTOM_PROJECT_DEFAULTS,
  CUSTOM_WORKSPACE_DEFAULTS,
  impliedProjectPermissions,
  impliedWorkspacePermissions,
  type ProjectAccessLevel,
  type TeamProject,
  type TeamProjectInput,
  type TeamWorkspace,
  type TeamWorkspaceInput,
  type WorkspaceAccessLevel,
} from '../../domain/permissions/access.js';
import { badRequest, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, scoped, type OrgFacts } from '../../domain/permissions/policy.js';
import type { TeamProjectsTable, TeamWorkspacesTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts, projectGrantOf, workspaceGrantOf } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableWorkspace } from '../workspaces/workspaces-read.js';
import { inOrganizationOf } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

/**
 * Team access to single projects (`team-projects`) and workspaces (`team-workspaces`).
 * Who may change them: owners, the organization token, project admins (or custom "manage
 * teams") for their projects, and workspace admins for their workspaces. Who may see them:
 * those, and members of the granted team (their own team's access). Anything the caller may
 * not see is a 404; what it may see but not change is a 404 too ("not found, or you are not authorized to ...").
 */

const ownTeam = (facts: OrgFacts, teamId: string) => facts.teams.some((t) => t.teamId === teamId);

// ---------------------------------------------------------------------------------------------
// Projects

async function readableProjectFor(ctx: ServiceContext, db: Tx, projectId: string) {
  const project = await db
    .selectFrom('projects')
    .select(['id', 'organization_id'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  const missing = () => notFound(`project ${projectId} not found`);
  if (!project) throw missing();
  const facts = scoped(await orgFacts(db, ctx.actor, project.organization_id), { projectId: project.id });
  if (!can(ctx.actor, 'organization:read', facts) || !can(ctx.actor, 'project:read', facts)) throw missing();
  return {
    project,
    facts,
    manage: can(ctx.actor, 'project:manage-teams', facts),
    seeAll: can(ctx.actor, 'project:read-teams', facts),
  };
}

async function teamOf(db: Tx, teamId: string, organizationId: string) {
  const team = await db
    .selectFrom('teams')
    .select(['id'])
    .where('id', '=', teamId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!team) throw notFound(`team ${teamId} not found`);
  return team;
}

function projectColumns(
  input: TeamProjectInput,
  current?: Selectable<TeamProjectsTable>,
): Updateable<TeamProjectsTable> {
  const access = input.access ?? current?.access;
  if (access !== 'custom') {
    // Fixed levels imply their permissions; the custom columns go back to their defaults.
    const d = CUSTOM_PROJECT_DEFAULTS;
    return {
      project_settings: d.settings,
      project_teams: d.teams,
      project_variable_sets: d.variableSets,
      ws_runs: d.workspace.runs,
      ws_variables: d.workspace.variables,
      ws_state_versions: d.workspace.stateVersions,
      ws_sentinel_mocks: d.workspace.sentinelMocks,
      ws_create: 0,
      ws_locking: 0,
      ws_delete: 0,
      ws_move: 0,
      ws_run_tasks: 0,
    };
  }
  const keep = current?.access === 'custom';
  // What each key the request leaves out keeps: a custom grant its stored value; a fixed level
  // turned custom the permission that level implied (what the grant showed until now, as HCP
  // Terraform's read-only implied attributes); a new custom grant HCP's custom defaults.
  const d =
    current && current.access !== 'custom'
      ? impliedProjectPermissions(current.access as Exclude<ProjectAccessLevel, 'custom'>)
      : CUSTOM_PROJECT_DEFAULTS;
  const w = input.workspace;
  const bit = (v: boolean | undefined, stored: number | undefined, dflt: boolean) =>
    v !== undefined ? (v ? 1 : 0) : keep && stored !== undefined ? stored : dflt ? 1 : 0;
  return {
    project_settings: input.settings ?? (keep ? current.project_settings : d.settings),
    project_teams: input.teams ?? (keep ? current.project_teams : d.teams),
    project_variable_sets: input.variableSets ?? (keep ? current.project_variable_sets : d.variableSets),
    ws_runs: w.runs ?? (keep ? current.ws_runs : d.workspace.runs),
    ws_variables: w.variables ?? (keep ? current.ws_variables : d.workspace.variables),
    ws_state_versions: w.stateVersions ?? (keep ? current.ws_state_versions : d.workspace.stateVersions),
    ws_sentinel_mocks: w.sentinelMocks ?? (keep ? current.ws_sentinel_mocks : d.workspace.sentinelMocks),
    ws_create: bit(w.create, current?.ws_create, d.workspace.create),
    ws_locking: bit(w.locking, current?.ws_locking, d.workspace.locking),
    ws_delete: bit(w.delete, current?.ws_delete, d.workspace.delete),
    ws_move: bit(w.move, current?.ws_move, d.workspace.move),
    ws_run_tasks: bit(w.runTasks, current?.ws_run_tasks, d.workspace.runTasks),
  };
}

export async function createTeamProject(
  ctx: ServiceContext,
  teamId: string,
  projectId: string,
  input: TeamProjectInput,
): Promise<TeamProject> {
  return writeTransaction(inOrganizationOf(ctx, 'projects', projectId), async (tx) => {
    const { project, manage } = await readableProjectFor(ctx, tx, projectId);
    await teamOf(tx, teamId, project.organization_id);
    if (!manage) throw notAuthorized(`manage team access to project ${projectId}`);
    const taken = await tx
      .selectFrom('team_projects')
      .select('id')
      .where('team_id', '=', teamId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (taken) throw invalid('/data/relationships/team/data/id', 'Team already has access to this project');
    const id = newId('tprj');
    await tx
      .insertInto('team_projects')
      .values({
        id,
        team_id: teamId,
        project_id: projectId,
        access: input.access!,
        created_at: ctx.clock.now().toISOString(),
        ...projectColumns(input),
      } as never)
      .execute();
    const row = await tx.selectFrom('team_projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return projectGrantOf(row);
  });
}

export async function listTeamProjects(
  ctx: ServiceContext,
  projectId: string | undefined,
  page: PageRequest,
): Promise<Paged<TeamProject>> {
  if (!projectId) throw badRequest('filter[project][id] is required', { parameter: 'filter[project][id]' });
  const { facts, seeAll } = await readableProjectFor(ctx, ctx.db, projectId);
  let q = ctx.db.selectFrom('team_projects').where('project_id', '=', projectId);
  if (!seeAll) {
    const mine = facts.teams.map((t) => t.teamId);
    if (mine.length === 0) return { items: [], total: 0, page };
    q = q.where('team_id', 'in', mine);
  }
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return { items: rows.map(projectGrantOf), total: Number(n), page };
}

async function visibleTeamProject(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('team_projects').selectAll().where('id', '=', id).executeTakeFirst();
  const missing = () => notFound(`team access ${id} not found`);
  if (!row) throw missing();
  const p = await readableProjectFor(ctx, db, row.project_id).catch(() => {
    throw missing();
  });
  if (!p.seeAll && !ownTeam(p.facts, row.team_id)) throw missing();
  return { row, ...p };
}

export async function getTeamProject(ctx: ServiceContext, id: string): Promise<TeamProject> {
  return projectGrantOf((await visibleTeamProject(ctx, ctx.db, id)).row);
}

export async function updateTeamProject(
  ctx: ServiceContext,
  id: string,
  input: TeamProjectInput,
): Promise<TeamProject> {
  return writeTransaction(inOrganizationOf(ctx, 'team_projects', id), async (tx) => {
    const { row, manage } = await visibleTeamProject(ctx, tx, id);
    if (!manage) throw notAuthorized(`manage team access to project ${row.project_id}`);
    checkCustomOnly(input.access ?? row.access, input.customKeys);
    const changes: Updateable<TeamProjectsTable> = { ...projectColumns(input, row) };
    if (input.access) changes.access = input.access;
    await tx
      .updateTable('team_projects')
      .set(changes as never)
      .where('id', '=', id)
      .execute();
    return projectGrantOf(
      await tx.selectFrom('team_projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    );
  });
}

export async function deleteTeamProject(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'team_projects', id), async (tx) => {
    const { row, manage } = await visibleTeamProject(ctx, tx, id);
    if (!manage) throw notAuthorized(`manage team access to project ${row.project_id}`);
    await tx.deleteFrom('team_projects').where('id', '=', id).execute();
  });
}

// ---------------------------------------------------------------------------------------------
// Workspaces

async function readableWorkspaceFor(ctx: ServiceContext, db: Tx, workspaceId: string) {
  const { row, facts } = await readableWorkspace(ctx, { id: workspaceId }, db);
  return { workspace: row, facts, manage: can(ctx.actor, 'workspace:manage-team-access', facts) };
}

function workspaceColumns(
  input: TeamWorkspaceInput,
  current?: Selectable<TeamWorkspacesTable>,
): Partial<TeamWorkspacesTable> {
  const access = input.access ?? current?.access;
  const d = CUSTOM_WORKSPACE_DEFAULTS;
  const defaults = {
    runs: d.runs,
    variables: d.variables,
    state_versions: d.stateVersions,
    sentinel_mocks: d.sentinelMocks,
    workspace_locking: d.locking ? 1 : 0,
    run_tasks: d.runTasks ? 1 : 0,
  };
  if (access !== 'custom') return defaults;
  // Keys the request leaves out keep what the grant showed: a custom grant its stored values, a
  // fixed level turned custom the permissions that level implied; a new custom grant the defaults.
  const base = !current ? defaults : current.access === 'custom' ? current : impliedColumns(current.access);
  const c = input.custom;
  return {
    runs: c.runs ?? base.runs,
    variables: c.variables ?? base.variables,
    state_versions: c.stateVersions ?? base.state_versions,
    sentinel_mocks: c.sentinelMocks ?? base.sentinel_mocks,
    workspace_locking: c.locking !== undefined ? (c.locking ? 1 : 0) : base.workspace_locking,
    run_tasks: c.runTasks !== undefined ? (c.runTasks ? 1 : 0) : base.run_tasks,
  };
}

/** The columns of the permissions a fixed workspace level implies. */
function impliedColumns(level: string) {
  const p = impliedWorkspacePermissions(level as Exclude<WorkspaceAccessLevel, 'custom'>);
  return {
    runs: p.runs,
    variables: p.variables,
    state_versions: p.stateVersions,
    sentinel_mocks: p.sentinelMocks,
    workspace_locking: p.locking ? 1 : 0,
    run_tasks: p.runTasks ? 1 : 0,
  };
}

function toTeamWorkspace(row: Selectable<TeamWorkspacesTable>, ws: { name: string; org_name: string }): TeamWorkspace {
  return { ...workspaceGrantOf(row), workspaceName: ws.name, organizationName: ws.org_name };
}

export async function createTeamWorkspace(
  ctx: ServiceContext,
  teamId: string,
  workspaceId: string,
  input: TeamWorkspaceInput,
): Promise<TeamWorkspace> {
  return writeTransaction(inOrganizationOf(ctx, 'workspaces', workspaceId), async (tx) => {
    const { workspace, manage } = await readableWorkspaceFor(ctx, tx, workspaceId);
    await teamOf(tx, teamId, workspace.organization_id);
    if (!manage) throw notAuthorized(`manage team access to workspace ${workspace.name} (${workspaceId})`);
    const taken = await tx
      .selectFrom('team_workspaces')
      .select('id')
      .where('team_id', '=', teamId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (taken) throw invalid('/data/relationships/team/data/id', 'Team already has access to this workspace');
    const id = newId('tws');
    await tx
      .insertInto('team_workspaces')
      .values({
        id,
        team_id: teamId,
        workspace_id: workspaceId,
        access: input.access!,
        created_at: ctx.clock.now().toISOString(),
        ...workspaceColumns(input),
      } as never)
      .execute();
    return toTeamWorkspace(
      await tx.selectFrom('team_workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      workspace,
    );
  });
}

export async function listTeamWorkspaces(
  ctx: ServiceContext,
  workspaceId: string | undefined,
  page: PageRequest,
): Promise<Paged<TeamWorkspace>> {
  if (!workspaceId) throw badRequest('filter[workspace][id] is required', { parameter: 'filter[workspace][id]' });
  const { workspace, facts, manage } = await readableWorkspaceFor(ctx, ctx.db, workspaceId);
  let q = ctx.db.selectFrom('team_workspaces').where('workspace_id', '=', workspaceId);
  if (!manage) {
    const mine = facts.teams.map((t) => t.teamId);
    if (mine.length === 0) return { items: [], total: 0, page };
    q = q.where('team_id', 'in', mine);
  }
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return { items: rows.map((r) => toTeamWorkspace(r, workspace)), total: Number(n), page };
}

async function visibleTeamWorkspace(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('team_workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  const missing = () => notFound(`team access ${id} not found`);
  if (!row) throw missing();
  const w = await readableWorkspaceFor(ctx, db, row.workspace_id).catch(() => {
    throw missing();
  });
  if (!w.manage && !ownTeam(w.facts, row.team_id)) throw missing();
  return { row, ...w };
}

export async function getTeamWorkspace(ctx: ServiceContext, id: string): Promise<TeamWorkspace> {
  const { row, workspace } = await visibleTeamWorkspace(ctx, ctx.db, id);
  return toTeamWorkspace(row, workspace);
}

export async function updateTeamWorkspace(
  ctx: ServiceContext,
  id: string,
  input: TeamWorkspaceInput,
): Promise<TeamWorkspace> {
  return writeTransaction(inOrganizationOf(ctx, 'team_workspaces', id), async (tx) => {
    const { row, workspace, manage } = await visibleTeamWorkspace(ctx, tx, id);
    if (!manage) throw notAuthorized(`manage team access to workspace ${workspace.name} (${row.workspace_id})`);
    checkCustomOnly(input.access ?? row.access, input.customKeys);
    const changes: Partial<TeamWorkspacesTable> = { ...workspaceColumns(input, row) };
    if (input.access) changes.access = input.access;
    await tx
      .updateTable('team_workspaces')
      .set(changes as never)
      .where('id', '=', id)
      .execute();
    return toTeamWorkspace(
      await tx.selectFrom('team_workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      workspace,
    );
  });
}

export async function deleteTeamWorkspace(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'team_workspaces', id), async (tx) => {
    const { row, workspace, manage } = await visibleTeamWorkspace(ctx, tx, id);
    if (!manage) throw notAuthorized(`manage team access to workspace ${workspace.name} (${row.workspace_id})`);
    await tx.deleteFrom('team_workspaces').where('id', '=', id).execute();
  });
}
