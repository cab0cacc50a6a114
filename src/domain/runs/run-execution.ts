import { createHmac } from 'node:crypto';
import { LOCKING_STATUSES, type Run, type RunStatus } from './run.js';
import { signedUntilValid } from '../state/state-url.js';

/**
 * Runs that berth executes itself (`berth serve` with a terraform binary, or `berth agent`; issue 34): the
 * configuration versions they plan, their plan and apply phases, their logs and the signed URLs
 * that upload a configuration and read a log. Pure: no I/O.
 */

/** The largest configuration archive (`tar.gz`) berth takes: 64 MiB, like a state file. */
export const MAX_CONFIGURATION_BYTES = 64 * 1024 * 1024;

/** A phase's log is cut beyond this many bytes (a line says so); the phase itself goes on. */
export const MAX_LOG_BYTES = 8 * 1024 * 1024;

/** HCP's framing of a log stream: go-tfe's log reader waits for STX first and stops at ETX. */
export const LOG_START = '\x02';
export const LOG_END = '\x03';

/**
 * HCP's statuses of a configuration version that berth's take: `pending` until uploaded,
 * `uploaded`, `archived` (its archive discarded, POST .../actions/archive) and the self-hosted
 * edition's backing-data statuses (configuration-lifecycle.ts). berth never fetches from VCS
 * (`fetching`) and checks an upload before it takes it (no `errored`).
 */
export type ConfigurationStatus =
  'pending' | 'uploaded' | 'errored' | 'archived' | 'backing_data_soft_deleted' | 'backing_data_permanently_deleted';

export interface ConfigurationVersion {
  id: string;
  workspaceId: string;
  status: ConfigurationStatus;
  source: string;
  speculative: boolean;
  provisional: boolean;
  autoQueueRuns: boolean;
  size: number;
  errorMessage: string | null;
  createdAt: string;
  uploadedAt: string | null;
}

/** A phase's status, as HCP names those of plans and applies. */
export type PhaseStatus = 'pending' | 'queued' | 'running' | 'finished' | 'errored' | 'canceled' | 'unreachable';

export interface ResourceCounts {
  additions: number;
  changes: number;
  destructions: number;
}

/** What an executed run holds beyond a recorded one. */
export interface RunExecution {
  configurationVersionId: string;
  planOnly: boolean;
  /** A saved-plan run (`save-plan`): it plans at once, then waits in planned_and_saved. */
  savePlan: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  autoApply: boolean;
  allowEmptyApply: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  variables: RunVariable[];
  hasChanges: boolean;
  planStatus: PhaseStatus;
  applyStatus: PhaseStatus;
  plan: ResourceCounts | null;
  apply: ResourceCounts | null;
  statusTimestamps: Record<string, string>;
  /** force-cancel is allowed once a cancel was asked and the run is still going. */
  cancelRequested: boolean;
  /** When force-cancel becomes possible: set by the run's first cancel (null: none asked). */
  forceCancelAvailableAt: string | null;
  /** The Terraform version a plan-only run asked for (null: its workspace's `terraform-version`). */
  terraformVersion: string | null;
  /** The user who confirmed its apply (`confirmed-by`; null: nobody, or a token of no user). */
  confirmedByUserId: string | null;
}

export interface ExecutedRun extends Run {
  execution: RunExecution;
  /** force-cancel is possible now (HCP's `is-force-cancelable`). */
  mayForceCancel: boolean;
  /** What the caller may do to executed runs of the workspace, whatever the run's status (HCP's). */
  may: { forceCancel: boolean; forceExecute: boolean; comment: boolean };
}

/** A run variable: its value is an HCL expression, as in HCP. */
export interface RunVariable {
  key: string;
  value: string;
}

/** A variable name as Terraform accepts it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;

/** A resource address for -target and -replace: no spaces, quotes only inside index brackets. */
export const RESOURCE_ADDRESS = /^[A-Za-z0-9_.\-[\]"*]{1,512}$/;

/** The statuses in which an executed run is in its workspace's queue and holds it (one at a time). */
export const ACTIVE_STATUSES: RunStatus[] = ['plan_queued', ...LOCKING_STATUSES];

/**
 * The statuses a user's action may move an executed run from: apply (planned -> confirmed; a
 * saved plan, planned_and_saved -> confirmed, joins its workspace's queue),
 * discard (awaiting confirmation), cancel (queued or running). Anything else is a 409.
 */
export const APPLYABLE: RunStatus[] = [
  'planned',
  'cost_estimated',
  'policy_checked',
  'policy_override',
  'planned_and_saved',
];
export const DISCARDABLE: RunStatus[] = ['pending', ...APPLYABLE, 'policy_soft_failed'];
export const CANCELABLE: RunStatus[] = ['pending', 'plan_queued', 'planning', 'confirmed', 'apply_queued', 'applying'];

/** Signs the URL of a configuration upload or a log read: HMAC-SHA256 over purpose, id and expiry. */
export function runUrlSignature(key: string, purpose: string, id: string, expires: number): string {
  return createHmac('sha256', key).update(`run-url\n${purpose}\n${id}\n${expires}`).digest('base64url');
}

export function signedRunQuery(key: string, purpose: string, id: string, now: Date, ttlSeconds: number): string {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return `expires=${expires}&signature=${runUrlSignature(key, purpose, id, expires)}`;
}

export function runUrlValid(
  key: string,
  purpose: string,
  id: string,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  return signedUntilValid(expires, signature, now, (at) => runUrlSignature(key, purpose, id, at));
}

/** How long a log URL works: logs are read while a plan or apply runs, for up to its time limit. */
export const LOG_URL_TTL_SECONDS = 6 * 3600;

/** The part of a log that `?offset=&limit=` asks for (go-tfe's log reader pages so). */
export function logSlice(log: Buffer, offset: number, limit: number): Buffer {
  if (offset >= log.length) return Buffer.alloc(0);
  return log.subarray(offset, Math.min(log.length, offset + limit));
}

/** A version's numbers: `1.9.5` -> [1, 9, 5]; `1.9` -> [1, 9] (null: not a version). */
function versionParts(text: string): { nums: number[]; pre: string | null } | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?$/.exec(text.trim());
  if (!m) return null;
  const nums = [m[1], m[2], m[3]].filter((x) => x !== undefined).map(Number);
  return { nums, pre: m[4] ?? null };
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether the executor's terraform `version` (e.g. `1.11.4`) satisfies a workspace's
 * `terraform-version`: `latest` (any), an exact version, or comma-separated constraints
 * (`=`, `!=`, `>`, `>=`, `<`, `<=`, `~>` as Terraform reads them: `~> 1.9.0` is >= 1.9.0, < 1.10.0;
 * `~> 1.9` is >= 1.9, < 2.0). A pre-release satisfies only a constraint naming it exactly.
 */
export function versionSatisfies(version: string, constraint: string): boolean {
  const c = constraint.trim();
  if (c === '' || c.toLowerCase() === 'latest') return true;
  const have = versionParts(version);
  if (!have) return false;
  return c.split(',').every((part) => {
    const m = /^(~>|>=|<=|!=|=|>|<)?\s*(\S+)$/.exec(part.trim());
    const want = m ? versionParts(m[2]) : null;
    if (!m || !want) return false;
    const op = m[1] ?? '=';
    const cmp = compareVersions(have.nums, want.nums);
    const samePre = have.pre === want.pre;
    if (have.pre !== null && !(samePre && cmp === 0)) return op === '!=';
    switch (op) {
      case '=':
        return cmp === 0 && samePre;
      case '!=':
        return !(cmp === 0 && samePre);
      case '>':
        return cmp > 0;
      case '>=':
        return cmp >= 0;
      case '<':
        return cmp < 0;
      case '<=':
        return cmp <= 0;
      default: {
        // ~>: at least the version, below the next release of its second-to-last part.
        if (cmp < 0) return false;
        const upper = want.nums.length === 1 ? [want.nums[0] + 1] : want.nums.slice(0, -1);
        if (want.nums.length > 1) upper[upper.length - 1] += 1;
        return compareVersions(have.nums, upper) < 0;
      }
    }
  });
}
