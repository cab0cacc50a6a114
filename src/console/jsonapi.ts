/** The JSON:API shapes the console reads (attributes typed per resource where it reads them). */
import type { Pagination as ClientPagination } from '../client/jsonapi.js';

export interface Ref {
  type: string;
  id: string;
}

export interface Resource<A = Record<string, unknown>> {
  type: string;
  id: string;
  attributes: A;
  relationships?: Record<string, { data?: Ref | Ref[] | null; links?: Record<string, string> } | undefined>;
  links?: Record<string, string>;
}

/** The pagination meta of a list: the same shape the CLI's client reads. */
export type Pagination = ClientPagination;

export interface Document<A = Record<string, unknown>> {
  data: Resource<A>;
  included?: Resource[];
}

export interface Collection<A = Record<string, unknown>> {
  data: Resource<A>[];
  included?: Resource[];
  meta?: { pagination?: Pagination };
}

/** The one resource a relationship points at (to-one), or null. */
export function related(r: Resource<unknown>, name: string): Ref | null {
  const data = r.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data : null;
}

/** The resources a to-many relationship points at. */
export function relatedMany(r: Resource<unknown>, name: string): Ref[] {
  const data = r.relationships?.[name]?.data;
  return Array.isArray(data) ? data : [];
}

/** The included resource a reference names, if the document included it. */
export function findIncluded(included: Resource[] | undefined, ref: Ref | null): Resource | undefined {
  if (!ref) return undefined;
  return included?.find((r) => r.type === ref.type && r.id === ref.id);
}

export interface OrganizationAttributes {
  name: string;
  email: string;
  'created-at': string;
  /** What the caller may do in it (`can-manage-auditing`: read the audit trail). */
  permissions?: Record<string, boolean | undefined>;
}

export interface ProjectAttributes {
  name: string;
  description: string | null;
  'workspace-count': number;
  'created-at': string;
  'is-default': boolean;
}

export interface TagBindingAttributes {
  key: string;
  value: string;
  'created-at'?: string;
}

export interface WorkspacePermissions {
  'can-lock': boolean;
  'can-unlock': boolean;
  'can-force-unlock': boolean;
  'can-read-state-versions': boolean;
  'can-read-state-outputs'?: boolean;
  'can-read-variable'?: boolean;
  'can-update-variable'?: boolean;
  'can-queue-run'?: boolean;
  'can-queue-apply'?: boolean;
  'can-queue-destroy'?: boolean;
  /** Safe delete. */
  'can-destroy'?: boolean;
  'can-force-delete'?: boolean;
}

export interface WorkspaceAttributes {
  name: string;
  description: string | null;
  'created-at': string;
  'updated-at': string;
  'latest-change-at': string | null;
  'execution-mode': string;
  'terraform-version': string;
  'working-directory': string | null;
  'auto-apply': boolean;
  'global-remote-state': boolean;
  'resource-count': number;
  locked: boolean;
  'locked-reason': string | null;
  'locked-at': string | null;
  'tag-names': string[];
  'plan-duration-average': number | null;
  'apply-duration-average': number | null;
  'run-failures': number | null;
  'allow-destroy-plan'?: boolean;
  /** `is-destroyable`: a safe delete would succeed (not locked, no resources). */
  actions?: { 'is-destroyable'?: boolean };
  permissions: WorkspacePermissions;
}

export interface RunAttributes {
  status: string;
  message: string | null;
  'created-at': string;
  'status-timestamps': Record<string, string>;
  /** Only on runs berth executes. */
  'executed-by'?: ExecutedBy | null;
}

export interface StateVersionAttributes {
  'created-at': string;
  serial: number;
  size: number | null;
  status: string;
  'resource-count': number | null;
  'terraform-version': string | null;
  'hosted-state-download-url': string | null;
}

export interface AuditEventAttributes {
  timestamp: string;
  action: string;
  'actor-kind': string;
  'actor-id': string | null;
  'actor-name': string | null;
  'target-type': string;
  'target-id': string | null;
  'target-name': string | null;
  'workspace-id': string | null;
  'request-id': string | null;
}

/** A variable of a workspace or a set; `value` is null when it is sensitive (write-only). */
export interface VariableAttributes {
  key: string;
  value: string | null;
  description: string | null;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
}

export interface VarsetAttributes {
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  'var-count': number;
}

export interface SshKeyAttributes {
  name: string;
}

export interface AccountAttributes {
  username: string;
  email?: string;
}

export interface AgentPoolAttributes {
  name: string;
  'created-at': string;
  'organization-scoped': boolean;
  /** Its `idle` and `busy` agents. */
  'agent-count': number;
}

export interface AgentAttributes {
  name: string;
  /** `idle`, `busy` or `exited` (berth sets no other). */
  status: string;
  'ip-address': string | null;
  'last-ping-at': string;
}

/**
 * berth's `executed-by` of a run it executes: the executor of its last claimed phase (null: none
 * yet). A serve instance's `name` is null but to site administrators.
 */
export interface ExecutedBy {
  kind: 'serve' | 'agent';
  name: string | null;
  'agent-id': string | null;
  'agent-pool-id': string | null;
}
