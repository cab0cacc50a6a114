import type { Kysely } from 'kysely';
import * as m001 from './001_foundation.js';
import * as m002 from './002_project_tag_bindings.js';
import * as m006 from './006_runs.js';
import * as m005 from './005_state_versions.js';
import * as m003 from './003_workspaces.js';
import * as m007 from './007_workspace_relations.js';
import * as m008 from './008_team_access.js';
import * as m009 from './009_list_indexes.js';
import * as m010 from './010_audit_trail.js';
import * as m011 from './011_workspaces_org_seq.js';
import * as m012 from './012_integer_workspace_keys.js';
import * as m013 from './013_binding_projects.js';
import * as m014 from './014_identity.js';
import * as m015 from './015_organization_defaults.js';
import * as m016 from './016_state_files.js';
import * as m017 from './017_teams_tokens.js';
import * as m018 from './018_lean_audit_events.js';
import * as m019 from './019_list_scale_indexes.js';
import * as m020 from './020_console_sign_in_links.js';
import * as m021 from './021_workspace_lock_index.js';
import * as m022 from './022_security_generation.js';
import * as m023 from './023_workspace_counts.js';
import * as m024 from './024_saml_role_structured_output.js';
import * as m026 from './026_terraform_login_codes.js';
import * as m027 from './027_invitation_emails.js';
import * as m028 from './028_run_execution.js';
import * as m029 from './029_run_heartbeat.js';
import * as m030 from './030_run_tokens.js';
import * as m031 from './031_workspace_variables.js';
import * as m032 from './032_variable_sets.js';
import * as m033 from './033_agents.js';
import * as m034 from './034_schedules.js';
import * as m035 from './035_saved_plans.js';
import * as m037 from './037_saved_plan_runs.js';
import * as m038 from './038_plan_json_outputs.js';
import * as m039 from './039_redacted_plan_json.js';
import * as m040 from './040_varset_variable_versions.js';
import * as m041 from './041_sealed_values.js';
import * as m042 from './042_current_configuration_version.js';
import * as m043 from './043_run_events_comments.js';
import * as m044 from './044_run_confirmation_and_latest_run.js';
import * as m045 from './045_keep_remote_state_default.js';
import * as m046 from './046_provider_registry.js';
import * as m047 from './047_registry_modules.js';
import * as m048 from './048_project_owned_varsets.js';
import * as m049 from './049_run_triggers.js';
import * as m050 from './050_notification_configurations.js';
import * as m051 from './051_state_version_rollback.js';

export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<any>): Promise<void>;
}

/** Numbered, forward-only. Append new migrations here; never edit one that has shipped. */
export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'foundation', up: m001.up },
  { version: 2, name: 'project_tag_bindings', up: m002.up },
  { version: 3, name: 'workspaces', up: m003.up },
  { version: 5, name: 'state_versions', up: m005.up },
  { version: 6, name: 'runs', up: m006.up },
  { version: 7, name: 'workspace_relations', up: m007.up },
  { version: 8, name: 'team_access', up: m008.up },
  { version: 9, name: 'list_indexes', up: m009.up },
  { version: 10, name: 'audit_trail', up: m010.up },
  { version: 11, name: 'workspaces_org_seq', up: m011.up },
  { version: 12, name: 'integer_workspace_keys', up: m012.up },
  { version: 13, name: 'binding_projects', up: m013.up },
  { version: 14, name: 'identity', up: m014.up },
  { version: 15, name: 'organization_defaults', up: m015.up },
  { version: 16, name: 'state_files', up: m016.up },
  { version: 17, name: 'teams_tokens', up: m017.up },
  { version: 18, name: 'lean_audit_events', up: m018.up },
  { version: 19, name: 'list_scale_indexes', up: m019.up },
  { version: 20, name: 'console_sign_in_links', up: m020.up },
  { version: 21, name: 'workspace_lock_index', up: m021.up },
  { version: 22, name: 'security_generation', up: m022.up },
  { version: 23, name: 'workspace_counts', up: m023.up },
  { version: 24, name: 'saml_role_structured_output', up: m024.up },
  { version: 26, name: 'terraform_login_codes', up: m026.up },
  { version: 27, name: 'invitation_emails', up: m027.up },
  { version: 28, name: 'run_execution', up: m028.up },
  { version: 29, name: 'run_heartbeat', up: m029.up },
  { version: 30, name: 'run_tokens', up: m030.up },
  { version: 31, name: 'workspace_variables', up: m031.up },
  { version: 32, name: 'variable_sets', up: m032.up },
  { version: 33, name: 'agents', up: m033.up },
  { version: 34, name: 'schedules', up: m034.up },
  { version: 35, name: 'saved_plans', up: m035.up },
  { version: 37, name: 'saved_plan_runs', up: m037.up },
  { version: 38, name: 'plan_json_outputs', up: m038.up },
  { version: 39, name: 'redacted_plan_json', up: m039.up },
  { version: 40, name: 'varset_variable_versions', up: m040.up },
  { version: 41, name: 'sealed_values', up: m041.up },
  { version: 42, name: 'current_configuration_version', up: m042.up },
  { version: 43, name: 'run_events_comments', up: m043.up },
  { version: 44, name: 'run_confirmation_and_latest_run', up: m044.up },
  { version: 45, name: 'keep_remote_state_default', up: m045.up },
  { version: 46, name: 'provider_registry', up: m046.up },
  { version: 47, name: 'registry_modules', up: m047.up },
  { version: 48, name: 'project_owned_varsets', up: m048.up },
  { version: 49, name: 'run_triggers', up: m049.up },
  { version: 50, name: 'notification_configurations', up: m050.up },
  { version: 51, name: 'state_version_rollback', up: m051.up },
];
