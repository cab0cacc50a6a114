import type { Attributes } from './jsonapi.js';

/*
 * The attributes of each resource that the CLI reads, typed as the API sends them (docs/api.md);
 * the others stay `unknown`. The client methods that return a resource name its type here.
 */

export interface OrganizationAttributes extends Attributes {
  name: string;
}

export interface ProjectAttributes extends Attributes {
  name: string;
  'default-execution-mode'?: string;
  'setting-overwrites'?: { 'default-execution-mode'?: boolean; 'default-agent-pool'?: boolean };
}

export interface WorkspaceAttributes extends Attributes {
  name: string;
  'execution-mode': string | null;
  'setting-overwrites'?: { 'execution-mode'?: boolean; 'agent-pool'?: boolean };
  'auto-destroy-activity-duration': string | null;
  'inherits-project-auto-destroy': boolean;
  'vcs-repo': { identifier: string; branch: string | null } | null;
  locked: boolean;
  'locked-at': string | null;
  'locked-reason': string | null;
}

/** Tag bindings, own or effective (an inherited one links the project it comes from). */
export interface TagBindingAttributes extends Attributes {
  key: string;
  value: string;
}

export interface TeamAttributes extends Attributes {
  name: string;
  'organization-access'?: Record<string, boolean>;
}

/** `team-projects` and `team-workspaces`. */
export interface TeamAccessAttributes extends Attributes {
  access: string;
}

export interface UserAttributes extends Attributes {
  username: string;
}

/** What `GET /whoami` says of the caller's token. */
export interface IdentityAttributes extends Attributes {
  kind: string;
  'user-id': string | null;
  username: string | null;
  'team-id': string | null;
  'team-name': string | null;
  organization: string | null;
}

export interface TokenAttributes extends Attributes {
  /** The secret, only in the answer that created the token. */
  token?: string;
}

export interface AgentPoolAttributes extends Attributes {
  name: string;
}

export interface SshKeyAttributes extends Attributes {
  name: string;
}

export interface StateVersionAttributes extends Attributes {
  serial: number;
  'resource-count': number;
  'hosted-state-download-url': string | null;
  'hosted-state-upload-url': string | null;
}

export interface RunAttributes extends Attributes {
  status: string;
  /** Why an errored run failed (null otherwise). */
  'error-message'?: string | null;
  /** `<phase>-at` timestamps of the phases the run went through. */
  'status-timestamps'?: Record<string, string>;
  /** What the caller may do now (executed runs also say whether force-cancel is allowed). */
  actions?: {
    'is-cancelable'?: boolean;
    'is-confirmable'?: boolean;
    'is-discardable'?: boolean;
    'is-force-cancelable'?: boolean;
  };
  /** Only on runs berth executes. */
  'plan-only'?: boolean;
  'save-plan'?: boolean;
  'has-changes'?: boolean;
  /** The Terraform version a plan-only run asked for (null: its workspace's). */
  'terraform-version'?: string | null;
}

/** A configuration version of a run berth executes; `upload-url` in the create's answer only. */
export interface ConfigurationVersionAttributes extends Attributes {
  status: string;
  'upload-url'?: string;
}

/** The plan or apply of a run berth executes. */
export interface PhaseAttributes extends Attributes {
  status: string;
  'resource-additions': number;
  'resource-changes': number;
  'resource-destructions': number;
  'log-read-url': string;
}

/** A data retention policy (`data-retention-policy-delete-olders` or `...-dont-deletes`). */
export interface RetentionPolicyAttributes extends Attributes {
  'delete-older-than-n-days'?: number;
}

export interface ReservedTagKeyAttributes extends Attributes {
  key: string;
  'disable-overrides': boolean;
}
