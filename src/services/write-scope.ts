import type { WorkspaceRef } from './workspaces/workspaces-read.js';
import { memoQuery } from '../store/memo-query.js';
import type { OrganizationOf, TransactionScope, Tx } from '../store/transaction.js';

/**
 * The scopes of write transactions confined to one organization. On PostgreSQL such a write waits
 * only for the writes of its organization (and for those that span organizations), so writes in
 * different organizations run side by side (store/transaction.ts, `beginPostgresWrite`); SQLite
 * has one writer anyway and ignores the scope.
 *
 * A service passes one of these instead of `ctx` when EVERY row its transaction reads to decide
 * (names taken, locks held, counts, permissions) and every row it writes belongs to that one
 * organization: its workspaces, projects, teams, memberships, tokens of its teams and its own,
 * and the audit record of the request. A write that also touches rows of no organization or of
 * several (users, site settings, site-admin and user tokens, organizations created, renamed or
 * deleted, pruning across the instance) keeps passing `ctx`: it then takes the global lock
 * exclusively, as does any write that forgets to name its organization.
 *
 * Each resolver runs inside the transaction, under the shared global lock (no organization can be
 * created, renamed or deleted meanwhile) and before anything else; `undefined` (nothing found)
 * makes the write take the global lock, and its own lookup then answers 404 as before.
 */
function confined<C extends TransactionScope>(ctx: C, organization: OrganizationOf): C {
  return { ...ctx, organization };
}

const orgByName = memoQuery((db, p: { name: string }) =>
  db.selectFrom('organizations').select('id as organization_id').where('name', '=', p.name),
);
const orgOfWorkspace = memoQuery((db, p: { id: string }) =>
  db.selectFrom('workspaces').select('organization_id').where('id', '=', p.id),
);

async function organizationNamed(tx: Tx, name: string): Promise<string | undefined> {
  return (await orgByName.first(tx, { name }))?.organization_id;
}

/** A write in the organization named `name`. */
export function inOrganizationNamed<C extends TransactionScope>(ctx: C, name: string): C {
  return confined(ctx, (tx) => organizationNamed(tx, name));
}

/** A write in the organization of a workspace (by id, or by its organization's name and its name). */
export function inWorkspaceOrganization<C extends TransactionScope>(ctx: C, ref: WorkspaceRef): C {
  if (!('id' in ref)) return inOrganizationNamed(ctx, ref.organization);
  return confined(ctx, async (tx) => (await orgOfWorkspace.first(tx, { id: ref.id }))?.organization_id);
}

const byId = (
  table:
    | 'projects'
    | 'teams'
    | 'agent_pools'
    | 'ssh_keys'
    | 'reserved_tag_keys'
    | 'tags'
    | 'oauth_tokens'
    | 'organization_memberships'
    | 'varsets'
    | 'notification_configurations',
) => memoQuery((db, p: { id: string }) => db.selectFrom(table).select('organization_id').where('id', '=', p.id));

/** Where each kind of row finds its organization, by the row's id. */
const OWNER_OF = {
  workspaces: orgOfWorkspace,
  projects: byId('projects'),
  teams: byId('teams'),
  agent_pools: byId('agent_pools'),
  ssh_keys: byId('ssh_keys'),
  reserved_tag_keys: byId('reserved_tag_keys'),
  tags: byId('tags'),
  oauth_tokens: byId('oauth_tokens'),
  organization_memberships: byId('organization_memberships'),
  varsets: byId('varsets'),
  notification_configurations: byId('notification_configurations'),
  runs: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('runs')
      .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
      .select('workspaces.organization_id')
      .where('runs.id', '=', p.id),
  ),
  state_versions: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('state_versions')
      .innerJoin('workspaces', 'workspaces.id', 'state_versions.workspace_id')
      .select('workspaces.organization_id')
      .where('state_versions.id', '=', p.id),
  ),
  configuration_versions: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('configuration_versions')
      .innerJoin('workspaces', 'workspaces.id', 'configuration_versions.workspace_id')
      .select('workspaces.organization_id')
      .where('configuration_versions.id', '=', p.id),
  ),
  workspace_variables: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('workspace_variables')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_variables.workspace_id')
      .select('workspaces.organization_id')
      .where('workspace_variables.id', '=', p.id),
  ),
  team_projects: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('team_projects')
      .innerJoin('teams', 'teams.id', 'team_projects.team_id')
      .select('teams.organization_id')
      .where('team_projects.id', '=', p.id),
  ),
  team_workspaces: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('team_workspaces')
      .innerJoin('teams', 'teams.id', 'team_workspaces.team_id')
      .select('teams.organization_id')
      .where('team_workspaces.id', '=', p.id),
  ),
  /** A team's token (tokens of users and the site administrator belong to no organization). */
  team_tokens: memoQuery((db, p: { id: string }) =>
    db
      .selectFrom('tokens')
      .innerJoin('teams', 'teams.id', 'tokens.team_id')
      .select('teams.organization_id')
      .where('tokens.id', '=', p.id),
  ),
};

export type OwnedRow = keyof typeof OWNER_OF;

/** A write in the organization that the row `id` (of the kind `kind`) belongs to. */
export function inOrganizationOf<C extends TransactionScope>(ctx: C, kind: OwnedRow, id: string): C {
  return confined(ctx, async (tx) => (await OWNER_OF[kind].first(tx, { id }))?.organization_id);
}
