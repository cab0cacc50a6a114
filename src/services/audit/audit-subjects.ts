import type { Kysely } from 'kysely';
import type { AuditActor, AuditTarget } from '../../domain/audit/audit.js';
import { memoQuery } from '../../store/memo-query.js';
import type { DB } from '../../store/schema.js';

/** What an audit record is about, as a request names it (path) or a response returns it. */
export type SubjectRef =
  | { type: 'organizations'; name: string }
  | { type: 'workspaces'; organization: string; name: string }
  | { type: string; id: string };

/** A subject resolved for the record: target, organization and workspace. */
export interface Subject {
  target: AuditTarget;
  organizationId: string | null;
  organizationName: string | null;
  workspaceId: string | null;
}

type Db = Kysely<DB>;

const unresolved = (type: string, id: string | null): Subject => ({
  target: { type, id, name: null },
  organizationId: null,
  organizationName: null,
  workspaceId: null,
});

const orgNameById = memoQuery((db, p: { id: string }) =>
  db.selectFrom('organizations').select('name').where('id', '=', p.id),
);
const orgByName = memoQuery((db, p: { name: string }) =>
  db.selectFrom('organizations').select(['id', 'name']).where('name', '=', p.name),
);
/** A workspace subject, with its organization's name in the same query (every workspace action names one). */
const workspaceById = memoQuery((db, p: { id: string }) =>
  db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(['workspaces.name', 'workspaces.organization_id', 'organizations.name as org_name'])
    .where('workspaces.id', '=', p.id),
);

async function orgName(db: Db, organizationId: string | null): Promise<string | null> {
  if (!organizationId) return null;
  const row = await orgNameById.first(db, { id: organizationId });
  return row?.name ?? null;
}

async function inOrg(
  db: Db,
  type: string,
  id: string,
  name: string | null,
  organizationId: string | null,
  workspaceId: string | null = null,
): Promise<Subject> {
  return {
    target: { type, id, name },
    organizationId,
    organizationName: await orgName(db, organizationId),
    workspaceId,
  };
}

async function workspaceSubject(
  db: Db,
  type: string,
  id: string,
  workspaceId: string | null,
  name: string | null = null,
): Promise<Subject> {
  if (!workspaceId) return unresolved(type, id);
  const ws = await db
    .selectFrom('workspaces')
    .select(['organization_id'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return ws ? inOrg(db, type, id, name, ws.organization_id, workspaceId) : unresolved(type, id);
}

/**
 * Resolves a subject by the JSON:API type and id (or name) that routes and responses use. No
 * permission check: it only describes, for the record, what a request already touched. Unknown
 * subjects (the request will answer 404) resolve to their bare type and id.
 */
export async function resolveSubject(db: Db, ref: SubjectRef): Promise<Subject> {
  if (ref.type === 'organizations' && 'name' in ref) {
    const row = await orgByName.first(db, { name: ref.name });
    return row
      ? {
          target: { type: 'organizations', id: row.name, name: row.name },
          organizationId: row.id,
          organizationName: row.name,
          workspaceId: null,
        }
      : unresolved('organizations', ref.name);
  }
  if (ref.type === 'workspaces' && 'organization' in ref) {
    const row = await db
      .selectFrom('workspaces')
      .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
      .select(['workspaces.id'])
      .where('organizations.name', '=', ref.organization)
      .where('workspaces.name_lower', '=', ref.name.toLowerCase())
      .executeTakeFirst();
    return row ? resolveSubject(db, { type: 'workspaces', id: row.id }) : unresolved('workspaces', null);
  }
  const { type, id } = ref as { type: string; id: string };
  switch (type) {
    case 'workspaces': {
      const r = await workspaceById.first(db, { id });
      return r
        ? {
            target: { type, id, name: r.name },
            organizationId: r.organization_id,
            organizationName: r.org_name,
            workspaceId: id,
          }
        : unresolved(type, id);
    }
    case 'projects':
    case 'varsets':
    case 'teams':
    case 'ssh-keys':
    case 'agent-pools':
    case 'oauth-tokens': {
      const table = (
        {
          projects: 'projects',
          varsets: 'varsets',
          teams: 'teams',
          'ssh-keys': 'ssh_keys',
          'agent-pools': 'agent_pools',
          'oauth-tokens': 'oauth_tokens',
        } as const
      )[type];
      const r = await db.selectFrom(table).select(['name', 'organization_id']).where('id', '=', id).executeTakeFirst();
      return r ? inOrg(db, type, id, r.name, r.organization_id) : unresolved(type, id);
    }
    case 'tags': {
      const r = await db.selectFrom('tags').select(['name', 'organization_id']).where('id', '=', id).executeTakeFirst();
      return r ? inOrg(db, type, id, r.name, r.organization_id) : unresolved(type, id);
    }
    case 'reserved-tag-keys': {
      const r = await db
        .selectFrom('reserved_tag_keys')
        .select(['key', 'organization_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return r ? inOrg(db, type, id, r.key, r.organization_id) : unresolved(type, id);
    }
    case 'users': {
      const r = await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst();
      return { ...unresolved(type, id), target: { type, id, name: r?.username ?? null } };
    }
    case 'authentication-tokens': {
      const r = await db
        .selectFrom('tokens')
        .leftJoin('teams', 'teams.id', 'tokens.team_id')
        .select(['tokens.description', 'tokens.organization_id', 'teams.organization_id as team_org'])
        .where('tokens.id', '=', id)
        .executeTakeFirst();
      if (r) return inOrg(db, type, id, r.description, r.organization_id ?? r.team_org ?? null);
      // An agent pool's token (services/agents/agent-tokens.ts): in its pool's organization.
      const a = await db
        .selectFrom('agent_tokens')
        .innerJoin('agent_pools', 'agent_pools.id', 'agent_tokens.agent_pool_id')
        .select(['agent_tokens.description', 'agent_pools.organization_id'])
        .where('agent_tokens.id', '=', id)
        .executeTakeFirst();
      return a ? inOrg(db, type, id, a.description, a.organization_id) : unresolved(type, id);
    }
    case 'agents': {
      // An agent (`berth agent`): named by its name, in its pool's organization.
      const a = await db
        .selectFrom('agents')
        .innerJoin('agent_pools', 'agent_pools.id', 'agents.agent_pool_id')
        .select(['agents.name', 'agent_pools.organization_id'])
        .where('agents.id', '=', id)
        .executeTakeFirst();
      return a ? inOrg(db, type, id, a.name, a.organization_id) : unresolved(type, id);
    }
    case 'organization-memberships': {
      const r = await db
        .selectFrom('organization_memberships')
        .innerJoin('users', 'users.id', 'organization_memberships.user_id')
        .select([
          'users.username',
          'users.email',
          'organization_memberships.email as invited_email',
          'organization_memberships.status',
          'organization_memberships.organization_id',
        ])
        .where('organization_memberships.id', '=', id)
        .executeTakeFirst();
      // An invitation is named by the email it was sent to: the trail, read by the organization,
      // must not tell whose account it is (docs/api.md, "Organization memberships").
      const name = r && (r.status === 'active' ? r.username : (r.invited_email ?? r.email));
      return r ? inOrg(db, type, id, name ?? null, r.organization_id) : unresolved(type, id);
    }
    case 'team-projects': {
      const r = await db
        .selectFrom('team_projects')
        .innerJoin('teams', 'teams.id', 'team_projects.team_id')
        .select('teams.organization_id')
        .where('team_projects.id', '=', id)
        .executeTakeFirst();
      return r ? inOrg(db, type, id, null, r.organization_id) : unresolved(type, id);
    }
    case 'team-workspaces': {
      const r = await db.selectFrom('team_workspaces').select('workspace_id').where('id', '=', id).executeTakeFirst();
      return workspaceSubject(db, type, id, r?.workspace_id ?? null);
    }
    // A variable is named by its key (never its value).
    case 'vars': {
      const r = await db
        .selectFrom('workspace_variables')
        .select(['workspace_id', 'key'])
        .where('id', '=', id)
        .executeTakeFirst();
      return workspaceSubject(db, type, id, r?.workspace_id ?? null, r?.key ?? null);
    }
    // A notification configuration: in its workspace (a team's: in its organization), by its name.
    case 'notification-configurations': {
      const r = await db
        .selectFrom('notification_configurations')
        .select(['name', 'organization_id', 'workspace_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!r) return unresolved(type, id);
      return r.workspace_id
        ? workspaceSubject(db, type, id, r.workspace_id, r.name)
        : inOrg(db, type, id, r.name, r.organization_id);
    }
    case 'runs': {
      const r = await db.selectFrom('runs').select('workspace_id').where('id', '=', id).executeTakeFirst();
      return workspaceSubject(db, type, id, r?.workspace_id ?? null);
    }
    // A run trigger: in the organization of its workspace (the target), named after its source.
    case 'run-triggers': {
      const r = await db
        .selectFrom('run_triggers')
        .innerJoin('workspaces', 'workspaces.id', 'run_triggers.sourceable_id')
        .select(['run_triggers.workspace_id', 'workspaces.name'])
        .where('run_triggers.id', '=', id)
        .executeTakeFirst();
      return workspaceSubject(db, type, id, r?.workspace_id ?? null, r?.name ?? null);
    }
    case 'configuration-versions': {
      const r = await db
        .selectFrom('configuration_versions')
        .select('workspace_id')
        .where('id', '=', id)
        .executeTakeFirst();
      return workspaceSubject(db, type, id, r?.workspace_id ?? null);
    }
    // A rollback's version is named by what it restored (migration 051); other versions have no name.
    case 'state-versions': {
      const r = await db
        .selectFrom('state_versions')
        .select(['workspace_id', 'rollback_of_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      const name = r?.rollback_of_id ? `rollback to ${r.rollback_of_id}` : null;
      return workspaceSubject(db, type, id, r?.workspace_id ?? null, name);
    }
    case 'registry-modules': {
      const r = await db
        .selectFrom('registry_modules')
        .select(['name', 'provider', 'organization_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return r ? inOrg(db, type, id, `${r.name}/${r.provider}`, r.organization_id) : unresolved(type, id);
    }
    case 'registry-module-versions': {
      const r = await db
        .selectFrom('registry_module_versions')
        .innerJoin('registry_modules', 'registry_modules.id', 'registry_module_versions.module_id')
        .select(['registry_modules.name', 'registry_modules.provider', 'registry_modules.organization_id', 'version'])
        .where('registry_module_versions.id', '=', id)
        .executeTakeFirst();
      return r ? inOrg(db, type, id, `${r.name}/${r.provider} ${r.version}`, r.organization_id) : unresolved(type, id);
    }
    default:
      return unresolved(type, id);
  }
}

/**
 * A create's record pointed at what it made: the organization known at the time of the change
 * stays when the new target has none (as `retargetAuditEvent` does).
 */
export function pointedAt(original: Subject, created: Subject): Subject {
  return created.organizationId
    ? created
    : { ...created, organizationId: original.organizationId, organizationName: original.organizationName };
}

/**
 * The actor behind a state upload URL: whoever created the state version (the URL is the
 * capability they were handed), found through the token they used.
 */
export async function stateVersionCreator(db: Db, stateVersionId: string): Promise<AuditActor | null> {
  return creatorOf(db, 'state_versions', stateVersionId);
}

/** The actor behind a configuration upload URL: whoever created the configuration version. */
export async function configurationVersionCreator(db: Db, id: string): Promise<AuditActor | null> {
  return creatorOf(db, 'configuration_versions', id);
}

/** The actor behind a registry module version's upload URL: whoever created the version. */
export async function registryModuleVersionCreator(db: Db, id: string): Promise<AuditActor | null> {
  return creatorOf(db, 'registry_module_versions', id);
}

async function creatorOf(
  db: Db,
  table: 'state_versions' | 'configuration_versions' | 'registry_module_versions',
  id: string,
): Promise<AuditActor | null> {
  const sv = await db
    .selectFrom(table)
    .select(['created_by_kind', 'created_by_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!sv?.created_by_kind) return null;
  const token = sv.created_by_id
    ? await db
        .selectFrom('tokens')
        .leftJoin('users', 'users.id', 'tokens.user_id')
        .select(['tokens.user_id', 'tokens.team_id', 'tokens.organization_id', 'users.username'])
        .where('tokens.id', '=', sv.created_by_id)
        .executeTakeFirst()
    : undefined;
  return {
    kind: sv.created_by_kind,
    id: token?.user_id ?? token?.team_id ?? token?.organization_id ?? null,
    tokenId: sv.created_by_id,
    name: token?.username ?? null,
  };
}
