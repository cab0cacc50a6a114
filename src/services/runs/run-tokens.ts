import type { Kysely } from 'kysely';
import type { Actor } from '../../domain/permissions/actor.js';
import { newId, randomTail } from '../../domain/common/ids.js';
import { hashToken, isExpired, sameHash } from '../../domain/identity/token.js';
import type { DB } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';
import { writeTransaction } from '../../store/transaction.js';
import type { Phase } from './run-rows.js';

/**
 * Run tokens (migration 030): the token a phase of an executed run gets when the executor claims
 * it, which terraform inside the run uses to reach berth (`terraform_remote_state`, or the `remote`
 * backend of its own workspace). It acts as the run (actor kind `run`): what it may do is the
 * policy's (domain/permissions/policy.ts, `runCan`) and the routes' (api/auth.ts, `RUN_TOKEN_ROUTES`). It
 * authenticates only while its run is in the phase it was minted for and is not being canceled,
 * and until its expiry. Only its hash is stored; the secret goes to the executor alone, which
 * writes it into the run's CLI configuration file, and is never logged.
 */

/** Run tokens start with this: the authentication looks them up in `run_tokens`, never in `tokens`. */
export const RUN_TOKEN_PREFIX = 'berth-run.';

export function isRunToken(token: string): boolean {
  return token.startsWith(RUN_TOKEN_PREFIX);
}

/**
 * How long a phase's token lives at most, given the executor's time limit: a phase runs at most
 * three terraform commands (init, plan, apply), each within the limit, and a minute to stop.
 */
export function runTokenTtl(timeLimitMs: number): number {
  return 3 * timeLimitMs + 60_000;
}

/** For the executor's default time limit of an hour. */
export const DEFAULT_RUN_TOKEN_TTL_MS = runTokenTtl(3_600_000);

/** The status a run must still have for a token of `phase` to authenticate. */
const STATUS_OF_PHASE: Record<string, string> = { plan: 'planning', apply: 'applying' };

/**
 * Mints the token of a claimed phase (its run must be planning or applying) and answers its
 * secret. It replaces any earlier token of the run (the previous phase's), and removes the expired
 * tokens of every run. Valid for `ttlMs` at most.
 */
export async function mintRunToken(
  db: Kysely<DB>,
  claim: { runId: string; workspaceId: string; phase: Phase },
  now: Date,
  ttlMs: number,
): Promise<string> {
  const token = `${RUN_TOKEN_PREFIX}${randomTail(14)}.${randomTail(40)}`;
  const at = now.toISOString();
  await writeTransaction(db, async (tx) => {
    const ws = await tx
      .selectFrom('workspaces')
      .select('organization_id')
      .where('id', '=', claim.workspaceId)
      .executeTakeFirstOrThrow();
    await tx.deleteFrom('run_tokens').where('run_id', '=', claim.runId).execute();
    await tx.deleteFrom('run_tokens').where('expired_at', '<=', at).execute();
    await tx
      .insertInto('run_tokens')
      .values({
        id: newId('at'),
        token_hash: hashToken(token),
        run_id: claim.runId,
        phase: claim.phase,
        workspace_id: claim.workspaceId,
        organization_id: ws.organization_id,
        created_at: at,
        expired_at: new Date(now.getTime() + ttlMs).toISOString(),
      })
      .execute();
  });
  return token;
}

const runTokenByHash = memoQuery((db, p: { hash: string }) =>
  db
    .selectFrom('run_tokens')
    .innerJoin('runs', 'runs.id', 'run_tokens.run_id')
    .select([
      'run_tokens.id',
      'run_tokens.token_hash',
      'run_tokens.run_id',
      'run_tokens.phase',
      'run_tokens.workspace_id',
      'run_tokens.organization_id',
      'run_tokens.expired_at',
      'runs.status',
      'runs.cancel_requested',
    ])
    .where('run_tokens.token_hash', '=', p.hash),
);

/**
 * The run a run token acts as, and until when, or null: unknown, expired, or its run no longer in
 * the token's phase (the phase ended, the run was canceled or errored) or asked to stop. Never
 * cached: a run's status changes without touching the security tables.
 */
export async function authenticateRunToken(
  db: Kysely<DB>,
  token: string,
  now: Date,
): Promise<{ actor: Actor; expiredAt: string } | null> {
  const hash = hashToken(token);
  const row = await runTokenByHash.first(db, { hash });
  if (!row || !sameHash(row.token_hash, hash)) return null;
  if (isExpired(row.expired_at, now)) return null;
  if (row.status !== STATUS_OF_PHASE[row.phase] || row.cancel_requested === 1) return null;
  return {
    actor: {
      kind: 'run',
      tokenId: row.id,
      runId: row.run_id,
      workspaceId: row.workspace_id,
      organizationId: row.organization_id,
      // What the policy decides writes by: a plan's token reads only (runCan).
      phase: row.phase === 'apply' ? 'apply' : 'plan',
    },
    expiredAt: row.expired_at,
  };
}
