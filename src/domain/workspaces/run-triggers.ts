import { badRequest, invalid, Problems } from '../common/errors.js';
import { toOneId } from '../common/relationships.js';

/**
 * Run triggers (HCP Terraform's Run Triggers API): a source workspace (`sourceable`) whose
 * applied runs queue a run in the workspace the trigger belongs to (its target). What the API
 * answers, what a create reads, and the list's required filter.
 */

/** At most this many sources per workspace (HCP: "up to 20 source workspaces"). */
export const MAX_RUN_TRIGGER_SOURCES = 20;

export interface RunTrigger {
  id: string;
  /** The target: runs are queued here. */
  workspaceId: string;
  workspaceName: string;
  /** The source: its applies fire the trigger. */
  sourceableId: string;
  sourceableName: string;
  createdAt: string;
}

/** `inbound`: the triggers that queue runs in the workspace; `outbound`: those it fires. */
export type RunTriggerType = 'inbound' | 'outbound';

/** HCP's words (go-tfe's integration tests compare them) for a missing or unknown filter. */
export const RUN_TRIGGER_TYPE_DETAIL =
  "Filter parameter run-trigger type is required and must be either 'inbound' or 'outbound'";

/** `filter[run-trigger][type]`, required: a 400 when absent or neither inbound nor outbound. */
export function parseRunTriggerType(value: string | undefined): RunTriggerType {
  if (value === 'inbound' || value === 'outbound') return value;
  throw badRequest(RUN_TRIGGER_TYPE_DETAIL, { parameter: 'filter[run-trigger][type]' });
}

/**
 * The source workspace of a create: `data.relationships.sourceable.data` = `{type: "workspaces",
 * id}` (only type and id are read: go-tfe sends a whole workspace object). 422 when missing or
 * malformed.
 */
export function parseRunTriggerSource(relationships: Record<string, unknown>): string {
  const problems = new Problems();
  const id = toOneId(relationships, 'sourceable', 'workspaces', problems);
  problems.throwIfAny();
  if (!id)
    throw invalid('/data/relationships/sourceable/data', 'sourceable is required: a workspace (type "workspaces", id)');
  return id;
}

/** The message of a run a trigger queued: which run of which workspace applied. */
export function triggeredRunMessage(sourceRunId: string, organization: string, sourceName: string): string {
  return `Triggered by run ${sourceRunId} of workspace ${organization}/${sourceName}`;
}
