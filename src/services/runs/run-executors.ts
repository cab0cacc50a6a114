import { isSiteAdmin } from '../../domain/permissions/actor.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';

/**
 * Where an executed run executed (issue 36): the executor that claimed its last phase (`runs.claimed_by`),
 * `berth serve --execute-runs` (`serve-<host>-<pid>-<hex>`) or a `berth agent` (its id, `agent-…`),
 * the agent named from the `agents` table: one query for a whole page of runs. A serve instance's
 * name (its host name and pid) is for site administrators only (issue 43): the run's readers see
 * that serve executed it, not where; an agent is named to them, as its pool's managers named it.
 */

export interface ExecutedBy {
  kind: 'serve' | 'agent';
  /**
   * The serve instance's executor name (null but to site administrators), or the agent's name
   * (its id once the agent is gone).
   */
  name: string | null;
  agentId: string | null;
  agentPoolId: string | null;
}

/** A run as the services read it, with where it executed (null: no phase claimed yet). */
export type WithExecutor<T> = T & { executedBy: ExecutedBy | null };

const AGENT_ID = /^agent-[A-Za-z0-9]{16}$/;

/** Where each run executed, in the order given: the agents of all of them read in one query. */
export async function executorsOf(db: Tx, claimedBy: (string | null)[]): Promise<(ExecutedBy | null)[]> {
  const agentIds = [...new Set(claimedBy.filter((c): c is string => c !== null && AGENT_ID.test(c)))];
  const agents = agentIds.length
    ? await db.selectFrom('agents').select(['id', 'name', 'agent_pool_id']).where('id', 'in', agentIds).execute()
    : [];
  const byId = new Map(agents.map((a) => [a.id, a]));
  return claimedBy.map((c) => {
    if (c === null) return null;
    if (!AGENT_ID.test(c)) return { kind: 'serve', name: c, agentId: null, agentPoolId: null };
    // An agent deleted since (by a pool manager, by the sweep of stopped agents, or with its
    // pool) is gone from `agents`: named by its id.
    const agent = byId.get(c);
    return { kind: 'agent', name: agent?.name ?? c, agentId: c, agentPoolId: agent?.agent_pool_id ?? null };
  });
}

/** Each of `runs` with where it executed, as the caller may see it. */
export async function withExecutors<T>(
  ctx: ServiceContext,
  runs: { run: T; claimedBy: string | null }[],
): Promise<WithExecutor<T>[]> {
  const executors = await executorsOf(
    ctx.db,
    runs.map((r) => r.claimedBy),
  );
  const hostShown = isSiteAdmin(ctx.actor);
  return runs.map((r, i) => {
    const e = executors[i];
    return { ...r.run, executedBy: e?.kind === 'serve' && !hostShown ? { ...e, name: null } : e };
  });
}
