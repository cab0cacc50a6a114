import { effectiveExecution, type ExecutionSetting } from '../../domain/workspaces/execution.js';
import type { ExecutionMode } from '../../domain/organizations/organization.js';
import type { OrgFacts } from '../../domain/permissions/policy.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import type { Project } from '../../domain/projects/project.js';
import type { Selectable } from 'kysely';
import type { ProjectsTable } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';

/** A project row with its organization's execution defaults (what a project without its own inherits). */
export type ProjectRow = Selectable<ProjectsTable> & { org_execution_mode: string; org_agent_pool_id: string | null };

/** The organization columns every project row carries: select them from `projects` joined to `organizations`. */
export const ORG_EXECUTION_COLUMNS = [
  'organizations.default_execution_mode as org_execution_mode',
  'organizations.default_agent_pool_id as org_agent_pool_id',
] as const;

/** The project's own execution setting, or null when it inherits its organization's. */
export function ownExecution(row: Selectable<ProjectsTable>): ExecutionSetting | null {
  return row.execution_overridden === 1
    ? { mode: row.default_execution_mode as ExecutionMode, agentPoolId: row.default_agent_pool_id }
    : null;
}
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { projectWorkspaceCount } from '../workspaces/workspace-counts.js';

/** Turns a project row into the domain object, with permissions computed for the caller. */
export function toProject(
  ctx: ServiceContext,
  row: ProjectRow,
  organizationName: string,
  orgLevelFacts: OrgFacts,
  counts: { workspaceCount: number; teamCount: number },
): Project {
  const facts = scoped(orgLevelFacts, { projectId: row.id });
  const canUpdate = can(ctx.actor, 'project:update', facts);
  const execution = effectiveExecution({
    workspace: null,
    project: ownExecution(row),
    organization: { mode: row.org_execution_mode as ExecutionMode, agentPoolId: row.org_agent_pool_id },
  });
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationName,
    name: row.name,
    description: row.description,
    autoDestroyActivityDuration: row.auto_destroy_activity_duration,
    defaultExecutionMode: execution.mode,
    defaultAgentPoolId: execution.agentPoolId,
    executionOverridden: execution.source === 'project',
    isDefault: row.is_default === 1,
    createdAt: row.created_at,
    workspaceCount: counts.workspaceCount,
    teamCount: counts.teamCount,
    permissions: {
      canRead: can(ctx.actor, 'project:read', facts),
      canUpdate,
      canDestroy: can(ctx.actor, 'project:delete', facts),
      canCreateWorkspace: can(ctx.actor, 'workspace:create', facts),
      canMoveWorkspace: can(ctx.actor, 'project:move-workspaces', facts),
      canManageTags: canUpdate,
      canManageTeams: can(ctx.actor, 'project:manage-teams', facts),
    },
  };
}

/** Loads one project row by id (no permission check). */
const projectById = memoQuery((db, p: { id: string }) =>
  db
    .selectFrom('projects')
    .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
    .selectAll('projects')
    .select(ORG_EXECUTION_COLUMNS)
    .where('projects.id', '=', p.id),
);

export async function findProjectRow(db: Tx, id: string): Promise<ProjectRow | null> {
  return (await projectById.first(db, { id })) ?? null;
}

/** Counts shown on a project document: its workspaces, and the teams with access to it. */
export async function projectCounts(db: Tx, projectId: string): Promise<{ workspaceCount: number; teamCount: number }> {
  const workspaceCount = await projectWorkspaceCount(db, projectId);
  const teams = await db
    .selectFrom('team_projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { workspaceCount, teamCount: Number(teams.n) };
}
