import type { Generated } from 'kysely';

/**
 * Table types for kysely. Booleans are stored as 0/1 integers and timestamps as ISO-8601 text so
 * that the same schema works on SQLite and PostgreSQL.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  email: string;
  allow_force_delete_workspaces: number;
  assessments_enforced: number;
  default_execution_mode: string;
  cost_estimation_enabled: number;
  session_timeout: number | null;
  session_remember: number | null;
  collaborator_auth_policy: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  site_admin: number;
  created_at: string;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  name: string;
  is_owners: number;
  manage_projects: number;
  manage_workspaces: number;
  read_projects: number;
  read_workspaces: number;
  visibility: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

export type TokenKind = 'site-admin' | 'user' | 'team' | 'organization';

export interface TokensTable {
  id: string;
  kind: TokenKind;
  token_hash: string;
  user_id: string | null;
  team_id: string | null;
  organization_id: string | null;
  description: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface ProjectsTable {
  id: string;
  organization_id: string;
  name: string;
  name_lower: string;
  description: string | null;
  auto_destroy_activity_duration: string | null;
  default_execution_mode: string;
  is_default: number;
  created_at: string;
  /** Monotonic insertion order, for the stable default sort. */
  seq: Generated<number>;
}

export interface ProjectTagBindingsTable {
  seq: Generated<number>;
  id: string;
  project_id: string;
  key: string;
  value: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface MigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tokens: TokensTable;
  projects: ProjectsTable;
  project_tag_bindings: ProjectTagBindingsTable;
  settings: SettingsTable;
  berth_migrations: MigrationsTable;
}
