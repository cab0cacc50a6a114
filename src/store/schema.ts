import type { ColumnType, Generated } from 'kysely';
import type { StateVersionStatus } from '../domain/state/state-version.js';

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
  /** The pool of the `agent` default mode (migration 015). */
  default_agent_pool_id: Generated<string | null>;
  send_passing_statuses: Generated<number>;
  aggregated_commit_status_enabled: Generated<number>;
  speculative_plan_management_enabled: Generated<number>;
  /** The SAML role of the owners team (migration 024); null when not set. */
  owners_team_saml_role_id: Generated<string | null>;
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
  manage_policies: Generated<number>;
  manage_policy_overrides: Generated<number>;
  manage_vcs_settings: Generated<number>;
  manage_providers: Generated<number>;
  manage_modules: Generated<number>;
  manage_run_tasks: Generated<number>;
  manage_membership: Generated<number>;
  manage_teams: Generated<number>;
  manage_organization_access: Generated<number>;
  access_secret_teams: Generated<number>;
  manage_agent_pools: Generated<number>;
  sso_team_id: string | null;
  allow_member_token_management: Generated<number>;
  visibility: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

export type TokenKind = 'site-admin' | 'user' | 'team' | 'organization' | 'audit-trails';

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
  /** When the token stops working; null for never. */
  expired_at: string | null;
  /** `users`, `teams` or `organizations`; null when a site-administrator token made it. */
  created_by_type: string | null;
  created_by_id: string | null;
}

/** A user's membership of an organization (migration 014): `invited` until they accept, then `active`. */
export interface OrganizationMembershipsTable {
  id: string;
  organization_id: string;
  user_id: string;
  status: string;
  created_at: string;
  /** The email the invitation was sent to, as typed (migration 027); null only if written by hand. */
  email: string | null;
}

/** The teams an invited member joins when they accept (migration 014). */
export interface InvitedTeamMembersTable {
  membership_id: string;
  team_id: string;
}

export interface ProjectsTable {
  id: string;
  organization_id: string;
  name: string;
  name_lower: string;
  description: string | null;
  auto_destroy_activity_duration: string | null;
  /** The project's own default execution mode, used only when `execution_overridden` is 1. */
  default_execution_mode: string;
  /** 1 when the project sets its own default execution mode (migration 015); 0 inherits. */
  execution_overridden: Generated<number>;
  default_agent_pool_id: Generated<string | null>;
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

export interface WorkspacesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  name_lower: string;
  description: string | null;
  allow_destroy_plan: number;
  assessments_enabled: number;
  auto_apply: number;
  auto_apply_run_trigger: number;
  auto_destroy_at: string | null;
  /** The workspace's own value, used only when `auto_destroy_overridden` is 1. */
  auto_destroy_activity_duration: string | null;
  auto_destroy_overridden: number;
  /** Own execution mode; null inherits the project's, else the organization's. */
  execution_mode: string | null;
  agent_pool_id: string | null;
  file_triggers_enabled: number;
  global_remote_state: number;
  queue_all_runs: number;
  source: string;
  source_name: string | null;
  source_url: string | null;
  speculative_enabled: number;
  terraform_version: string;
  /** JSON array of strings. */
  trigger_patterns: string;
  /** JSON array of strings. */
  trigger_prefixes: string;
  working_directory: string | null;
  /** JSON of the VCS repository settings (see domain/workspaces/workspace.ts VcsRepo), or null. */
  vcs_repo: string | null;
  vcs_oauth_token_id: string | null;
  locked: number;
  locked_reason: string | null;
  locked_by_kind: string | null;
  locked_by_id: string | null;
  locked_at: string | null;
  resource_count: number;
  latest_change_at: string;
  current_run_id: string | null;
  current_run_status: string | null;
  current_run_created_at: string | null;
  /** The workspace's newest run, assessments aside (migration 044; `latest-run`). */
  latest_run_id: Generated<string | null>;
  current_state_version_id: string | null;
  /**
   * The newest uploaded configuration version that is not speculative, and not provisional unless a
   * run of it applied (migration 042; services/runs/current-configuration.ts).
   */
  current_configuration_version_id: Generated<string | null>;
  /** The latest finished health assessment (migration 034), null before the first. */
  current_assessment_result_id: Generated<string | null>;
  ssh_key_id: Generated<string | null>;
  /** Migration 024; 1 (true) unless set. */
  structured_run_output_enabled: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceTagBindingsTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  /** The workspace's `seq` (migration 012): what tag filters combine. */
  workspace_seq: ColumnType<number | null, number, number>;
  /** The workspace's project (migration 013), kept in step on moves: what `filter[tagged]` counts by. */
  project_id: ColumnType<string | null, string, string>;
  key: string;
  value: string;
  created_at: string;
}

export interface TagsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  name: string;
  created_at: string;
}

export interface WorkspaceTagsTable {
  seq: Generated<number>;
  workspace_id: string;
  /** The workspace's `seq` (migration 012): what tag filters combine. */
  workspace_seq: ColumnType<number | null, number, number>;
  tag_id: string;
}

export interface AgentPoolsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  name: string;
  organization_scoped: number;
  created_at: string;
}

/** An agent pool's authentication tokens (migration 033): only the token's sha256 is kept. */
export interface AgentTokensTable {
  seq: Generated<number>;
  id: string;
  agent_pool_id: string;
  token_hash: string;
  description: string | null;
  created_by_type: string | null;
  created_by_id: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** A `berth agent` process registered with a token of its pool (migration 033). */
export interface AgentsTable {
  seq: Generated<number>;
  id: string;
  agent_pool_id: string;
  agent_token_id: string | null;
  name: string;
  /** `idle`, `busy`, `exited`, `errored` or `unknown`. */
  status: string;
  ip_address: string | null;
  created_at: string;
  last_ping_at: string;
}

/** The workspaces a pool that is not organization-scoped serves (migration 015). */
export interface AgentPoolAllowedWorkspacesTable {
  seq: Generated<number>;
  agent_pool_id: string;
  workspace_id: string;
}

export interface ReservedTagKeysTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  key: string;
  disable_overrides: number;
  created_at: string;
  updated_at: string;
}

export interface OauthTokensTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  service_provider: string;
  name: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** The security generation (migration 022): one row, moved on by triggers of the security tables. */
export interface SecurityGenerationTable {
  id: number;
  epoch: string;
  n: number;
}

/** Workspaces per project (migration 023), kept by triggers on `workspaces`. */
export interface WorkspaceCountsTable {
  project_id: string;
  organization_id: string;
  n: number | string;
}

export interface MigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface StateVersionsTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  serial: number;
  lineage: string | null;
  md5: string;
  status: StateVersionStatus;
  intermediate: number;
  resource_count: number;
  size: number;
  terraform_version: string | null;
  url_secret: string;
  created_by_kind: string | null;
  created_by_id: string | null;
  created_at: string;
  finalized_at: string | null;
  format_version: number | null;
  has_json_state: Generated<number>;
  /** The version a rollback copied (migration 051); null for every other version. */
  rollback_of_id: Generated<string | null>;
}

/** A version's state (`kind` 'state') or its JSON form ('json-state'), as the bytes uploaded. */
export interface StateFilesTable {
  state_version_id: string;
  kind: 'state' | 'json-state';
  body: Buffer;
}

export interface StateVersionOutputsTable {
  seq: Generated<number>;
  id: string;
  state_version_id: string;
  name: string;
  sensitive: number;
  type: string;
  detailed_type: string | null;
  value: string;
}

export interface StateVersionResourcesTable {
  seq: Generated<number>;
  id: string;
  state_version_id: string;
  module: string;
  mode: string;
  type: string;
  name: string;
  provider: string;
  index_key: string | null;
}

export interface RunsTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  status: string;
  message: string | null;
  is_destroy: number;
  source: string;
  plan_started_at: string | null;
  plan_finished_at: string | null;
  apply_started_at: string | null;
  apply_finished_at: string | null;
  error_message: string | null;
  policy_check_failed: number;
  created_by_kind: string | null;
  created_by_id: string | null;
  created_at: string;
  updated_at: string;
  configuration_version_id: string | null;
  plan_only: Generated<number>;
  refresh: Generated<number>;
  refresh_only: Generated<number>;
  auto_apply: Generated<number>;
  allow_empty_apply: Generated<number>;
  target_addrs: string | null;
  replace_addrs: string | null;
  variables: string | null;
  has_changes: Generated<number>;
  plan_status: string | null;
  apply_status: string | null;
  plan_additions: number | null;
  plan_changes: number | null;
  plan_destructions: number | null;
  apply_additions: number | null;
  apply_changes: number | null;
  apply_destructions: number | null;
  status_timestamps: string | null;
  claimed_by: string | null;
  cancel_requested: Generated<number>;
  /** When the executor that claimed the run last said it still runs it (migration 029). */
  heartbeat_at: string | null;
  /** A saved-plan run (`save-plan`; migration 037). */
  save_plan: Generated<number>;
  /** The workspace's current state version when the plan phase started (migration 037). */
  plan_state_version_id: Generated<string | null>;
  /** The Terraform version a plan-only run asked for (migration 044; null: the workspace's). */
  terraform_version: Generated<string | null>;
  /** The user who confirmed the run's apply (migration 044; `confirmed-by`). */
  confirmed_by_user_id: Generated<string | null>;
  /** When a force-cancel becomes possible, set by the run's first cancel (migration 044). */
  force_cancel_available_at: Generated<string | null>;
}

/** A configuration a run plans (migration 028). */
export interface ConfigurationVersionsTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  status: string;
  source: string;
  speculative: number;
  provisional: number;
  auto_queue_runs: number;
  size: number;
  error_message: string | null;
  created_by_kind: string | null;
  created_by_id: string | null;
  created_at: string;
  uploaded_at: string | null;
}

export interface ConfigurationFilesTable {
  configuration_version_id: string;
  body: Buffer;
}

export interface RunLogsTable {
  seq: Generated<number>;
  run_id: string;
  phase: string;
  body: Buffer;
}

export interface WorkspaceVariablesTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  key: string;
  value: string;
  description: string | null;
  /** `terraform` | `env`. */
  category: string;
  hcl: number;
  sensitive: number;
  /** 1: `value` holds the value's ciphertext (migration 041, store/secrets/). */
  sealed: Generated<number>;
  version_id: string;
  created_at: string;
  updated_at: string;
}

export interface TeamProjectsTable {
  seq: Generated<number>;
  id: string;
  team_id: string;
  project_id: string;
  access: string;
  project_settings: string;
  project_teams: string;
  project_variable_sets: Generated<string>;
  ws_runs: string;
  ws_variables: string;
  ws_state_versions: string;
  ws_sentinel_mocks: string;
  ws_create: number;
  ws_locking: number;
  ws_delete: number;
  ws_move: number;
  ws_run_tasks: number;
  created_at: string;
}

export interface TeamWorkspacesTable {
  seq: Generated<number>;
  id: string;
  team_id: string;
  workspace_id: string;
  access: string;
  runs: string;
  variables: string;
  state_versions: string;
  sentinel_mocks: string;
  workspace_locking: number;
  run_tasks: number;
}

export interface SshKeysTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  name: string;
  value: string;
  created_at: string;
  updated_at: string;
}

export interface RemoteStateConsumersTable {
  seq: Generated<number>;
  workspace_id: string;
  consumer_id: string;
}

/** A source workspace that queues runs in a target workspace (migration 049). */
export interface RunTriggersTable {
  seq: Generated<number>;
  id: string;
  /** The target: the workspace whose runs the trigger queues. */
  workspace_id: string;
  /** The source: the workspace whose applies fire it. */
  sourceable_id: string;
  created_at: string;
}

/** A workspace's or a team's notification configuration (migration 050). */
export interface NotificationConfigurationsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  /** The subscribable: exactly one of the workspace and the team. */
  workspace_id: string | null;
  team_id: string | null;
  name: string;
  destination_type: string;
  enabled: number;
  url: string | null;
  /** The HMAC key of generic deliveries; write-only (never shown). */
  token: string | null;
  /** JSON arrays of strings. */
  triggers: string;
  email_addresses: string;
  /** JSON: the latest delivery response, as `delivery-responses` shows it. */
  delivery_responses: string;
  created_at: string;
  updated_at: string;
}

/** The users an email notification configuration mails (migration 050). */
export interface NotificationConfigurationUsersTable {
  configuration_id: string;
  user_id: string;
  position: number;
}

/** A delivery waiting in the outbox of notifications (migration 050). */
export interface NotificationDeliveriesTable {
  seq: Generated<number>;
  id: string;
  configuration_id: string;
  trigger: string;
  /** JSON: the payload's facts, frozen when the event happened. */
  payload: string;
  attempts: number;
  next_attempt_at: string;
  /** While an instance sends it: until when its claim holds. */
  claimed_until: string | null;
  created_at: string;
}

export interface DataRetentionPoliciesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  workspace_id: string | null;
  kind: string;
  delete_older_than_n_days: number | null;
  created_at: string;
}

export interface AuditEventsTable {
  seq: Generated<number>;
  id: string;
  occurred_at: string;
  action: string;
  actor_kind: string;
  actor_id: string | null;
  actor_token_id: string | null;
  actor_name: string | null;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  organization_id: string | null;
  organization_name: string | null;
  workspace_id: string | null;
  request_id: string | null;
}

/** A one-time sign-in link of the web console (migration 020); only the code's sha256 is kept. */
export interface ConsoleSignInLinksTable {
  id: string;
  code_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** When the code was exchanged for a token; null while unused. */
  used_at: string | null;
}

/** Authorization codes of `terraform login` (migration 026); only their sha256 is stored. */
export interface TerraformLoginCodesTable {
  id: string;
  code_hash: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  /** The PKCE S256 challenge the token request's code_verifier must answer. */
  code_challenge: string;
  created_at: string;
  expires_at: string;
  /** When the code was traded for a token; null while unused. */
  used_at: string | null;
}

/** The saved plan of a run's plan phase, until the run ends (migration 035, services/runs/saved-plans.ts). */
export interface SavedPlansTable {
  run_id: string;
  body: Buffer;
  /** The length of `body` in bytes. */
  size: number;
  created_at: string;
}

/**
 * The JSON plan and provider schemas of a run's plan phase, as long as the run (migration 038,
 * services/runs/plan-json.ts). Both gzipped.
 */
export interface PlanJsonOutputsTable {
  run_id: string;
  /** `terraform show -json` of the saved plan, gzipped. */
  plan_json: Buffer;
  /** `terraform providers schema -json`, gzipped. */
  provider_schemas: Buffer;
  /** The length of both bodies before compression, in bytes. */
  size: number;
  created_at: string;
  /** The redacted plan document, gzipped (migration 039; null: stored before it, redacted on read). */
  redacted_json: Buffer | null;
}

/** A serve instance's hold on a scheduled task family (migration 034, src/scheduler/lease.ts). */
export interface SchedulerLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** What the scheduler did for a workspace's due time (migration 034): once per kind, workspace and due time. */
export interface ScheduledRunsTable {
  seq: Generated<number>;
  /** `auto-destroy` or `assessment`. */
  kind: string;
  workspace_id: string;
  due_at: string;
  run_id: string | null;
  /** `queued`, or why nothing was queued (`no-configuration`, `destroy-not-allowed`, `local-execution`, `no-resources`). */
  outcome: string;
  created_at: string;
}

/** A health assessment (migration 034): its run and what its refresh-only plan found. */
export interface AssessmentResultsTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  run_id: string;
  /** `pending` while its run plans, then `finished`, `errored` or `canceled`. */
  status: string;
  drifted: number | null;
  succeeded: number | null;
  error_msg: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A variable set (migration 032). */
export interface VarsetsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  name: string;
  name_lower: string;
  description: Generated<string>;
  global: Generated<number>;
  priority: Generated<number>;
  created_at: string;
  updated_at: string;
  /** The project that owns the set (migration 048); NULL: its organization owns it. */
  parent_project_id: string | null;
}

/** A variable of a variable set; `value` of a sensitive one never leaves the API. */
export interface VarsetVariablesTable {
  seq: Generated<number>;
  id: string;
  varset_id: string;
  key: string;
  value: Generated<string>;
  description: string | null;
  /** `terraform` or `env`. */
  category: string;
  hcl: Generated<number>;
  sensitive: Generated<number>;
  /** 1: `value` holds the value's ciphertext (migration 041, store/secrets/). */
  sealed: Generated<number>;
  /** Changes on every update (migration 040). */
  version_id: string;
  created_at: string;
}

export interface VarsetWorkspacesTable {
  varset_id: string;
  workspace_id: string;
  /** Position among the set's workspaces, in the order they were added (migration 040). */
  seq: number;
}

export interface VarsetProjectsTable {
  varset_id: string;
  project_id: string;
  /** Position among the set's projects, in the order they were added (migration 040). */
  seq: number;
}

/** A run token (migration 030): the hash of the token a claimed phase of a run acts with. */
export interface RunTokensTable {
  id: string;
  token_hash: string;
  run_id: string;
  /** `plan` or `apply`: the token authenticates only while the run is planning, or applying. */
  phase: string;
  workspace_id: string;
  organization_id: string;
  created_at: string;
  expired_at: string;
}

/** Something that happened to a run, in order (migration 043; services/runs/run-events.ts). */
export interface RunEventsTable {
  seq: Generated<number>;
  id: string;
  run_id: string;
  /** What happened: `created`, `queued`, a status it moved to, `cancel_requested`, `commented`. */
  action: string;
  description: string | null;
  /** The user who did it; null for berth itself, a token that is no user's, or a deleted user. */
  actor_user_id: string | null;
  created_at: string;
}

/** A comment on a run (migration 043; services/runs/comments.ts): the text of one of its events. */
export interface CommentsTable {
  seq: Generated<number>;
  id: string;
  run_id: string;
  run_event_id: string;
  body: string;
  /** The user who wrote it; null for a token that is no user's, or a deleted user. */
  author_user_id: string | null;
  created_at: string;
}

/** The bytes of a provider package (migration 046; services/registry/provider-archives.ts). */
export interface RegistryArchivesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  size: number;
  /** Lowercase hex, known once the upload ended. */
  sha256: string | null;
  /** 0 while an upload writes its chunks. */
  complete: number;
  created_at: string;
}

/** A megabyte (at most) of an archive, in order of `part`. */
export interface RegistryArchiveChunksTable {
  archive_id: string;
  part: number;
  body: Buffer;
}

/** A public key that signs private providers (migration 046; services/registry/gpg-keys.ts). */
export interface RegistryGpgKeysTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  key_id: string;
  ascii_armor: string;
  trust_signature: string;
  source: string;
  source_url: string | null;
  created_at: string;
  updated_at: string;
}

/** A provider of an organization's registry (migration 046; services/registry/registry-providers.ts). */
export interface RegistryProvidersTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  registry_name: string;
  namespace: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A version of a private provider, with its SHA256SUMS and their signature once uploaded. */
export interface RegistryProviderVersionsTable {
  seq: Generated<number>;
  id: string;
  provider_id: string;
  version: string;
  key_id: string;
  /** A JSON array of protocol versions ("5.0"). */
  protocols: string;
  shasums: Buffer | null;
  shasums_sig: Buffer | null;
  created_at: string;
  updated_at: string;
}

/** A platform (os, arch) of a provider version, and its archive once uploaded. */
export interface RegistryProviderPlatformsTable {
  seq: Generated<number>;
  id: string;
  version_id: string;
  os: string;
  arch: string;
  shasum: string;
  filename: string;
  archive_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A package of another registry pushed into an organization's mirror (migration 046). */
export interface MirrorArchivesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  hostname: string;
  namespace: string;
  type: string;
  version: string;
  os: string;
  arch: string;
  filename: string;
  /** A JSON array of the hashes the push gave (`h1:`), besides the archive's own `zh:`. */
  hashes: string;
  archive_id: string;
  created_at: string;
}

/** A module (and provider) of an organization's registry (migration 047; services/registry/modules.ts). */
export interface RegistryModulesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  registry_name: string;
  /** '' for a private module: its namespace is its organization's name. */
  namespace: string;
  name: string;
  provider: string;
  no_code: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A version of a registry module: `pending` until its archive is uploaded, `ok` after (migration 047). */
export interface RegistryModuleVersionsTable {
  seq: Generated<number>;
  id: string;
  module_id: string;
  version: string;
  status: string;
  size: Generated<number>;
  created_by_kind: string | null;
  created_by_id: string | null;
  created_at: string;
  updated_at: string;
  uploaded_at: string | null;
}

/** The tar.gz archive of a registry module version (migration 047). */
export interface RegistryModuleFilesTable {
  version_id: string;
  body: Buffer;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tokens: TokensTable;
  organization_memberships: OrganizationMembershipsTable;
  invited_team_members: InvitedTeamMembersTable;
  projects: ProjectsTable;
  project_tag_bindings: ProjectTagBindingsTable;
  workspaces: WorkspacesTable;
  state_versions: StateVersionsTable;
  state_files: StateFilesTable;
  state_version_outputs: StateVersionOutputsTable;
  state_version_resources: StateVersionResourcesTable;
  runs: RunsTable;
  configuration_versions: ConfigurationVersionsTable;
  configuration_files: ConfigurationFilesTable;
  run_logs: RunLogsTable;
  saved_plans: SavedPlansTable;
  plan_json_outputs: PlanJsonOutputsTable;
  workspace_variables: WorkspaceVariablesTable;
  team_projects: TeamProjectsTable;
  team_workspaces: TeamWorkspacesTable;
  workspace_tag_bindings: WorkspaceTagBindingsTable;
  tags: TagsTable;
  workspace_tags: WorkspaceTagsTable;
  agent_pools: AgentPoolsTable;
  agent_pool_allowed_workspaces: AgentPoolAllowedWorkspacesTable;
  agent_tokens: AgentTokensTable;
  agents: AgentsTable;
  reserved_tag_keys: ReservedTagKeysTable;
  oauth_tokens: OauthTokensTable;
  settings: SettingsTable;
  ssh_keys: SshKeysTable;
  remote_state_consumers: RemoteStateConsumersTable;
  run_triggers: RunTriggersTable;
  data_retention_policies: DataRetentionPoliciesTable;
  notification_configurations: NotificationConfigurationsTable;
  notification_configuration_users: NotificationConfigurationUsersTable;
  notification_deliveries: NotificationDeliveriesTable;
  audit_events: AuditEventsTable;
  console_sign_in_links: ConsoleSignInLinksTable;
  terraform_login_codes: TerraformLoginCodesTable;
  run_tokens: RunTokensTable;
  run_events: RunEventsTable;
  comments: CommentsTable;
  security_generation: SecurityGenerationTable;
  workspace_counts: WorkspaceCountsTable;
  scheduler_leases: SchedulerLeasesTable;
  scheduled_runs: ScheduledRunsTable;
  assessment_results: AssessmentResultsTable;
  varsets: VarsetsTable;
  varset_variables: VarsetVariablesTable;
  varset_workspaces: VarsetWorkspacesTable;
  varset_projects: VarsetProjectsTable;
  registry_archives: RegistryArchivesTable;
  registry_archive_chunks: RegistryArchiveChunksTable;
  registry_gpg_keys: RegistryGpgKeysTable;
  registry_providers: RegistryProvidersTable;
  registry_provider_versions: RegistryProviderVersionsTable;
  registry_provider_platforms: RegistryProviderPlatformsTable;
  mirror_archives: MirrorArchivesTable;
  registry_modules: RegistryModulesTable;
  registry_module_versions: RegistryModuleVersionsTable;
  registry_module_files: RegistryModuleFilesTable;
  berth_migrations: MigrationsTable;
}
