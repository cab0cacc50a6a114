import { newId, randomTail } from '../../domain/common/ids.js';
import type { StateVersionRow } from './state-versions.js';

/** What varies between the ways a state version is made: an upload, a run's apply, a rollback. */
export interface NewStateVersion {
  workspaceId: string;
  serial: number;
  lineage: string | null;
  md5: string;
  /** 1: becomes current when its workspace is unlocked (or its run releases it). */
  intermediate: 0 | 1;
  createdBy: { kind: string; id: string | null };
  now: string;
  rollbackOfId?: string | null;
}

/**
 * The row of a new state version, pending until its state is stored: the one shape every writer
 * inserts (state-versions.ts, state-rollback.ts, runs/run-phases.ts).
 */
export function newStateVersionRow(v: NewStateVersion): StateVersionRow {
  return {
    seq: 0,
    id: newId('sv'),
    workspace_id: v.workspaceId,
    serial: v.serial,
    lineage: v.lineage,
    md5: v.md5,
    status: 'pending',
    intermediate: v.intermediate,
    resource_count: 0,
    size: 0,
    terraform_version: null,
    // No longer what authorizes the hosted-state URLs (they are signed: state-urls.ts); kept filled.
    url_secret: randomTail(32),
    created_by_kind: v.createdBy.kind,
    created_by_id: v.createdBy.id,
    created_at: v.now,
    finalized_at: null,
    format_version: null,
    has_json_state: 0,
    rollback_of_id: v.rollbackOfId ?? null,
  };
}
