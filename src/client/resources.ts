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
  /** `<phase>-at` timestamps of the phases the run went through. */
  'status-timestamps'?: Record<string, string>;
}

/** A data retention policy (`data-retention-policy-delete-olders` or `...-dont-deletes`). */
export interface RetentionPolicyAttributes extends Attributes {
  'delete-older-than-n-days'?: number;
}

export interface ReservedTagKeyAttributes extends Attributes {
  key: string;
  'disable-overrides': boolean;
}
