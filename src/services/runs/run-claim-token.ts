import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { claimRun, type ClaimedRun } from './run-claim.js';
import { mintRunToken } from './run-tokens.js';

/** Claims tried when the runs claimed keep vanishing before their token is minted. */
const ATTEMPTS = 5;

/**
 * Claims the next queued phase (`claimRun`) and mints its run token, for serve's executor
 * (runner/in-process-port.ts) and for an agent (services/agents/agent-protocol.ts). The two are
 * separate transactions: a run whose workspace or organization was deleted between them (go-tfe's
 * and the tfe provider's tests delete right after creating) has no row left for its token, and is
 * passed over for the next queued one, instead of failing the claim.
 */
export async function claimWithRunToken(
  db: Kysely<DB>,
  executor: string,
  now: Date,
  ttlMs: number,
  target?: { agentPoolId: string },
): Promise<(ClaimedRun & { token: string }) | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const claimed = await claimRun(db, executor, now.toISOString(), target);
    if (!claimed) return null;
    try {
      return { ...claimed, token: await mintRunToken(db, claimed, now, ttlMs) };
    } catch (err) {
      const still = await db.selectFrom('runs').select('id').where('id', '=', claimed.runId).executeTakeFirst();
      if (still) throw err;
    }
  }
  return null;
}
