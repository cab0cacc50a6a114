import { isSiteAdmin } from '../../domain/permissions/actor.js';
import { addCreatorMembership, dropUnusedPlaceholder } from './membership-rows.js';
import { BerthError, conflict, forbidden, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { resolveDefaultExecution } from '../../domain/workspaces/execution.js';
import { newId } from '../../domain/common/ids.js';
import type { ExecutionMode, Organization, OrganizationInput } from '../../domain/organizations/organization.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import { DEFAULT_PROJECT_NAME, type Project } from '../../domain/projects/project.js';
import { PENDING_USERNAME_LIKE } from '../../domain/identity/user.js';
import { containsInsensitive } from '../../store/like.js';
import { sql, type Selectable, type Updateable } from 'kysely';
import type { OrganizationsTable } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { authorize, orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { findProjectRow, projectCounts, toProject } from '../projects/projects-read.js';
import { inPage, literalLimit } from '../../store/literal-limit.js';

type OrgRow = Selectable<OrganizationsTable> & {
  default_project_id: string;
  drp_id: string | null;
  drp_kind: string | null;
};

function toOrganization(ctx: ServiceContext, row: OrgRow, facts: OrgFacts): Organization {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    allowForceDeleteWorkspaces: row.allow_force_delete_workspaces === 1,
    assessmentsEnforced: row.assessments_enforced === 1,
    defaultExecutionMode: row.default_execution_mode as ExecutionMode,
    defaultAgentPoolId: row.default_execution_mode === 'agent' ? row.default_agent_pool_id : null,
    costEstimationEnabled: row.cost_estimation_enabled === 1,
    sessionTimeout: row.session_timeout,
    sessionRemember: row.session_remember,
    collaboratorAuthPolicy: row.collaborator_auth_policy,
    sendPassingStatusesForUntriggeredSpeculativePlans: row.send_passing_statuses === 1,
    aggregatedCommitStatusEnabled: row.aggregated_commit_status_enabled === 1,
    speculativePlanManagementEnabled: row.speculative_plan_management_enabled === 1,
    ownersTeamSamlRoleId: row.owners_team_saml_role_id ?? null,
    createdAt: row.created_at,
    defaultProjectId: row.default_project_id,
    ...(ctx.settings.edition === 'self-hosted'
      ? { dataRetentionPolicy: row.drp_id && row.drp_kind ? { type: row.drp_kind, id: row.drp_id } : null }
      : {}),
    permissions: {
      canUpdate: can(ctx.actor, 'organization:update', facts),
      canDestroy: can(ctx.actor, 'organization:delete', facts),
      canCreateWorkspace: can(ctx.actor, 'workspace:create', facts),
      canCreateProject: can(ctx.actor, 'project:create', facts),
      canManageTokens: can(ctx.actor, 'organization:manage-tokens', facts),
      canCreateTeam: can(ctx.actor, 'team:manage', facts),
      canManageRunTasks: can(ctx.actor, 'organization:manage-run-tasks', facts),
      canManageAgentPools: can(ctx.actor, 'organization:manage-agent-pools', facts),
      canManageVcs: can(ctx.actor, 'organization:manage-vcs', facts),
      canReadAuditTrail: can(ctx.actor, 'organization:read-audit-trail', facts),
      canTraverse: can(ctx.actor, 'organization:read', facts),
    },
  };
}

function selectOrgs(db: Tx) {
  return (
    db
      .selectFrom('organizations')
      .innerJoin('projects', (j) =>
        j.onRef('projects.organization_id', '=', 'organizations.id').on('projects.is_default', '=', 1),
      )
      // The organization's default data retention policy (workspace_id null), if any.
      .leftJoin('data_retention_policies as drp', (j) =>
        j.onRef('drp.organization_id', '=', 'organizations.id').on('drp.workspace_id', 'is', null),
      )
      .selectAll('organizations')
      .select(['projects.id as default_project_id', 'drp.id as drp_id', 'drp.kind as drp_kind'])
  );
}

const orgByName = memoQuery((db, p: { name: string }) => selectOrgs(db).where('organizations.name', '=', p.name));

/** Finds an organization row by name, or null. No permission check. */
export async function findOrganizationRow(db: Tx, name: string): Promise<OrgRow | null> {
  return (await orgByName.first(db, { name })) ?? null;
}

/** The organization row the actor may read, else 404. Shared by every org-scoped service. */
export async function readableOrganization(
  ctx: ServiceContext,
  name: string,
  db: Tx = ctx.db,
): Promise<{ row: OrgRow; facts: OrgFacts }> {
  const row = await findOrganizationRow(db, name);
  if (!row) throw notFound(`organization ${name} not found`);
  const facts = await orgFacts(db, ctx.actor, row.id);
  if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`organization ${name} not found`);
  return { row, facts };
}

const EXECUTION_POINTERS = {
  mode: '/data/attributes/default-execution-mode',
  pool: '/data/relationships/default-agent-pool',
};

/** The agent pool `id` of the organization, else a 422 at the default-agent-pool relationship. */
async function poolOf(tx: Tx, organizationId: string, id: string): Promise<void> {
  const pool = await tx
    .selectFrom('agent_pools')
    .select('id')
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!pool) throw invalid(`${EXECUTION_POINTERS.pool}/data/id`, `Agent pool ${id} not found in this organization`);
}

function nameTaken(): BerthError {
  return new BerthError([
    {
      status: 422,
      title: 'invalid attribute',
      detail: 'Name has already been taken',
      pointer: '/data/attributes/name',
    },
  ]);
}

/**
 * Whether another organization has this name in any case: names are unique regardless of case,
 * so `Acme` cannot sit beside `acme` (lookups by name stay exact, as the name is the id).
 */
async function nameInUse(tx: Tx, name: string, exceptId?: string): Promise<boolean> {
  let query = tx
    .selectFrom('organizations')
    .select('id')
    .where(sql<string>`lower(${sql.ref('organizations.name')})`, '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function createOrganization(ctx: ServiceContext, input: OrganizationInput): Promise<Organization> {
  if (!can(ctx.actor, 'organization:create', null)) {
    throw forbidden('only users and site administrators can create organizations');
  }
  const name = input.name!;
  const now = ctx.clock.now().toISOString();
  const orgId = newId('org');
  // A new organization has no agent pool yet: `agent` cannot be its default mode.
  const execution = resolveDefaultExecution(
    { mode: 'remote', agentPoolId: null },
    { mode: input.defaultExecutionMode, agentPoolId: input.defaultAgentPoolId },
    EXECUTION_POINTERS,
  );
  await writeTransaction(ctx, async (tx) => {
    if (await nameInUse(tx, name)) throw nameTaken();
    if (execution.agentPoolId) await poolOf(tx, orgId, execution.agentPoolId);
    await tx
      .insertInto('organizations')
      .values({
        id: orgId,
        name,
        email: input.email!,
        allow_force_delete_workspaces: input.allowForceDeleteWorkspaces ? 1 : 0,
        assessments_enforced: input.assessmentsEnforced ? 1 : 0,
        default_execution_mode: execution.mode,
        cost_estimation_enabled: input.costEstimationEnabled ? 1 : 0,
        session_timeout: input.sessionTimeout ?? null,
        session_remember: input.sessionRemember ?? null,
        collaborator_auth_policy: input.collaboratorAuthPolicy ?? 'password',
        send_passing_statuses: input.sendPassingStatusesForUntriggeredSpeculativePlans ? 1 : 0,
        aggregated_commit_status_enabled: input.aggregatedCommitStatusEnabled ? 1 : 0,
        speculative_plan_management_enabled: input.speculativePlanManagementEnabled === false ? 0 : 1,
        owners_team_saml_role_id: input.ownersTeamSamlRoleId ?? null,
        created_at: now,
      })
      .execute();
    await tx
      .insertInto('projects')
      .values({
        id: newId('prj'),
        organization_id: orgId,
        name: DEFAULT_PROJECT_NAME,
        name_lower: DEFAULT_PROJECT_NAME.toLowerCase(),
        description: null,
        auto_destroy_activity_duration: null,
        // Unused while the project inherits the organization's mode (execution_overridden 0).
        default_execution_mode: execution.mode,
        is_default: 1,
        created_at: now,
      })
      .execute();
    const ownersId = newId('team');
    await tx
      .insertInto('teams')
      .values({
        id: ownersId,
        organization_id: orgId,
        name: 'owners',
        is_owners: 1,
        manage_projects: 1,
        manage_workspaces: 1,
        read_projects: 1,
        read_workspaces: 1,
        visibility: 'secret',
        created_at: now,
      })
      .execute();
    if (ctx.actor.kind === 'user') {
      await tx.insertInto('team_members').values({ team_id: ownersId, user_id: ctx.actor.userId }).execute();
      await addCreatorMembership(tx, orgId, ctx.actor.userId, now);
    }
  });
  return getOrganization(ctx, name);
}

export async function getOrganization(ctx: ServiceContext, name: string): Promise<Organization> {
  const { row, facts } = await readableOrganization(ctx, name);
  return toOrganization(ctx, row, facts);
}

export async function listOrganizations(
  ctx: ServiceContext,
  page: PageRequest,
  q?: string,
): Promise<Paged<Organization>> {
  const actor = ctx.actor;
  let query = selectOrgs(ctx.db);
  if (!isSiteAdmin(actor)) {
    if (actor.kind === 'user') {
      query = query.where('organizations.id', 'in', (eb) =>
        eb
          .selectFrom('teams')
          .innerJoin('team_members', 'team_members.team_id', 'teams.id')
          .select('teams.organization_id')
          .where('team_members.user_id', '=', actor.userId),
      );
    } else if (actor.kind === 'team' || actor.kind === 'organization' || actor.kind === 'audit-trail') {
      query = query.where('organizations.id', '=', actor.organizationId);
    }
  }
  if (q)
    query = query.where((eb) =>
      eb.or([containsInsensitive('organizations.name', q), containsInsensitive('organizations.email', q)]),
    );
  const countRow = await ctx.db
    .selectFrom(query.as('visible'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('organizations.name').$call(inPage(page)).execute();
  const items: Organization[] = [];
  for (const row of rows) items.push(toOrganization(ctx, row, await orgFacts(ctx.db, actor, row.id)));
  return { items, total: Number(countRow.n), page };
}

export async function updateOrganization(
  ctx: ServiceContext,
  name: string,
  input: OrganizationInput,
): Promise<Organization> {
  const newName = await writeTransaction(ctx, async (tx) => {
    const { row } = await readableOrganization(ctx, name, tx);
    await authorize(tx, ctx.actor, row.id, 'organization:update', () => notAuthorized('update this organization'));
    if (input.name !== undefined && input.name !== row.name && (await nameInUse(tx, input.name, row.id)))
      throw nameTaken();
    const changes: Partial<Updateable<OrganizationsTable>> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.email !== undefined) changes.email = input.email;
    if (input.allowForceDeleteWorkspaces !== undefined)
      changes.allow_force_delete_workspaces = input.allowForceDeleteWorkspaces ? 1 : 0;
    if (input.assessmentsEnforced !== undefined) changes.assessments_enforced = input.assessmentsEnforced ? 1 : 0;
    if (input.defaultExecutionMode !== undefined || input.defaultAgentPoolId !== undefined) {
      const execution = resolveDefaultExecution(
        { mode: row.default_execution_mode as ExecutionMode, agentPoolId: row.default_agent_pool_id },
        { mode: input.defaultExecutionMode, agentPoolId: input.defaultAgentPoolId },
        EXECUTION_POINTERS,
      );
      if (execution.agentPoolId) await poolOf(tx, row.id, execution.agentPoolId);
      changes.default_execution_mode = execution.mode;
      changes.default_agent_pool_id = execution.agentPoolId;
    }
    if (input.sendPassingStatusesForUntriggeredSpeculativePlans !== undefined)
      changes.send_passing_statuses = input.sendPassingStatusesForUntriggeredSpeculativePlans ? 1 : 0;
    if (input.aggregatedCommitStatusEnabled !== undefined)
      changes.aggregated_commit_status_enabled = input.aggregatedCommitStatusEnabled ? 1 : 0;
    if (input.speculativePlanManagementEnabled !== undefined)
      changes.speculative_plan_management_enabled = input.speculativePlanManagementEnabled ? 1 : 0;
    if (input.ownersTeamSamlRoleId !== undefined) changes.owners_team_saml_role_id = input.ownersTeamSamlRoleId;
    if (input.costEstimationEnabled !== undefined)
      changes.cost_estimation_enabled = input.costEstimationEnabled ? 1 : 0;
    if (input.sessionTimeout !== undefined) changes.session_timeout = input.sessionTimeout;
    if (input.sessionRemember !== undefined) changes.session_remember = input.sessionRemember;
    if (input.collaboratorAuthPolicy !== undefined) changes.collaborator_auth_policy = input.collaboratorAuthPolicy;
    if (Object.keys(changes).length > 0)
      await tx.updateTable('organizations').set(changes).where('id', '=', row.id).execute();
    return input.name ?? row.name;
  });
  return getOrganization(ctx, newName);
}

/** Workspaces deleted per transaction when an organization is deleted. */
export const ORG_DELETE_BATCH = 500;

/**
 * Deletes the organization and, through foreign keys, everything in it. Its workspaces (and what
 * hangs off them) go in transactions of at most `ORG_DELETE_BATCH` workspaces, the event loop and
 * other writers getting a turn between them: in one transaction, 100,000 workspaces held the write
 * lock for seconds, and on SQLite froze the server that deleted them. The organization row goes
 * with the last batch. Each step leaves a consistent database (an organization with fewer
 * workspaces); if the request fails halfway, deleting again finishes the job. The permission is
 * checked in the first transaction, which also carries the audit record.
 */
export async function deleteOrganization(ctx: ServiceContext, name: string): Promise<void> {
  let id: string | null = null;
  for (;;) {
    const done = await writeTransaction(ctx, async (tx) => {
      if (id === null) {
        const { row } = await readableOrganization(ctx, name, tx);
        await authorize(tx, ctx.actor, row.id, 'organization:delete', () => notAuthorized('delete this organization'));
        id = row.id;
      }
      const orgId = id;
      const batch = await tx
        .deleteFrom('workspaces')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('workspaces')
            .select('id')
            .where('organization_id', '=', orgId)
            .limit(literalLimit(ORG_DELETE_BATCH)),
        )
        .executeTakeFirst();
      if (Number(batch.numDeletedRows) >= ORG_DELETE_BATCH) return false;
      // The placeholders of its invitations of people without an account go too (unless they
      // are invited elsewhere).
      const invited = await tx
        .selectFrom('organization_memberships')
        .innerJoin('users', 'users.id', 'organization_memberships.user_id')
        .select('users.id')
        .where('organization_memberships.organization_id', '=', orgId)
        .where('users.username', 'like', PENDING_USERNAME_LIKE)
        .execute();
      const deleted = await tx.deleteFrom('organizations').where('id', '=', orgId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw conflict('organization changed while deleting');
      for (const u of invited) await dropUnusedPlaceholder(tx, u.id);
      return true;
    });
    if (done) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The organization's default project, as `?include=default-project` shows it. */
export async function getDefaultProject(ctx: ServiceContext, name: string): Promise<Project> {
  const { row, facts } = await readableOrganization(ctx, name);
  const project = await findProjectRow(ctx.db, row.default_project_id);
  if (!project) throw notFound('default project not found');
  return toProject(ctx, project, row.name, facts, await projectCounts(ctx.db, project.id));
}
