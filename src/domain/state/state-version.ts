import type { ResourceSummary } from './state-resources.js';

/**
 * `pending` until its state is uploaded, then `finalized`. In the self-hosted edition a version's
 * stored state can be soft-deleted (`backing_data_soft_deleted`, restorable) and then
 * permanently deleted (`backing_data_permanently_deleted`).
 */
export type StateVersionStatus =
  'pending' | 'finalized' | 'backing_data_soft_deleted' | 'backing_data_permanently_deleted';

export interface StateVersion {
  id: string;
  workspaceId: string;
  serial: number;
  lineage: string | null;
  md5: string;
  status: StateVersionStatus;
  intermediate: boolean;
  current: boolean;
  resourceCount: number;
  size: number;
  terraformVersion: string | null;
  formatVersion: number | null;
  hasJsonState: boolean;
  /** The run berth executed that wrote this version (its apply), else null. */
  runId: string | null;
  /** The earlier version a rollback copied into this one (HCP's `rollback-state-version`), else null. */
  rollbackOfId: string | null;
  createdAt: string;
  finalizedAt: string | null;
  /** The signed query strings of its hosted-state URLs, each null where the version offers none. */
  urls: StateVersionUrls;
  /** Ids of its outputs, in the state's order (empty while pending). */
  outputIds: string[];
  /** What its state holds, once extracted (null while pending). */
  summary: {
    resources: ResourceSummary[];
    modules: Record<string, Record<string, number>>;
    providers: Record<string, Record<string, number>>;
  } | null;
}

/** The query strings (`expires=...&signature=...`) of a version's hosted-state URLs; the serializer builds the URLs. */
export interface StateVersionUrls {
  stateUpload: string | null;
  stateDownload: string | null;
  jsonUpload: string | null;
  jsonDownload: string | null;
}

export interface StateVersionInput {
  serial: number;
  md5: string;
  lineage: string | null;
  /** Base64 of the state file, when given inline. */
  state: string | null;
  /** Base64 of the `terraform show -json` form of the state, when given inline. */
  jsonState: string | null;
  /** Skips the serial and lineage checks against the workspace's earlier states. */
  force: boolean;
}

/** An output of a state version. */
export interface StateVersionOutput {
  id: string;
  stateVersionId: string;
  name: string;
  sensitive: boolean;
  type: string;
  detailedType: unknown;
  /** null when hidden (sensitive values in the workspace's current outputs). */
  value: unknown;
}

/** A resource instance of a workspace's current state (`GET /workspaces/:id/resources`). */
export interface WorkspaceResource {
  id: string;
  address: string;
  name: string;
  module: string;
  provider: string;
  providerType: string;
  nameIndex: string | null;
  stateVersionId: string;
  /** The date (YYYY-MM-DD) of the state version that holds it. */
  date: string;
}
