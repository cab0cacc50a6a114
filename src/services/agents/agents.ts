import { BerthError, conflict, notFound } from '../../domain/common/errors.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { parseTimestamp } from '../../domain/common/timestamp.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { manageablePool } from './pool-access.js';

/** HCP Terraform's agent statuses. berth sets `idle`, `busy` and `exited` (see agent-liveness.ts). */
export type AgentStatus = 'idle' | 'busy' | 'unknown' | 'exited' | 'errored';
export const AGENT_STATUSES: readonly AgentStatus[] = ['idle', 'busy', 'unknown', 'exited', 'errored'];
/** The statuses of an agent that is running (it pings). */
export const LIVE_STATUSES: AgentStatus[] = ['idle', 'busy'];
/** The statuses of an agent that may be deleted (HCP Terraform: unknown, errored or exited). */
export const DELETABLE_STATUSES: AgentStatus[] = ['unknown', 'errored', 'exited'];

export interface Agent {
  id: string;
  agentPoolId: string;
  name: string;
  status: AgentStatus;
  ipAddress: string | null;
  lastPingAt: string;
}

export type AgentRow = {
  id: string;
  agent_pool_id: string;
  name: string;
  status: string;
  ip_address: string | null;
  last_ping_at: string;
};

export const AGENT_COLUMNS = ['id', 'agent_pool_id', 'name', 'status', 'ip_address', 'last_ping_at'] as const;

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    agentPoolId: row.agent_pool_id,
    name: row.name,
    status: row.status as AgentStatus,
    ipAddress: row.ip_address,
    lastPingAt: row.last_ping_at,
  };
}

/** `filter[last-ping-since]`: an ISO 8601 time (422 otherwise). */
export function parseLastPingSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = parseTimestamp(value);
  if (!at)
    throw new BerthError([
      {
        status: 422,
        title: 'invalid filter',
        detail: 'filter[last-ping-since] must be an ISO 8601 time, such as 2024-05-01T12:00:00Z',
        parameter: 'filter[last-ping-since]',
      },
    ]);
  return at;
}

/** The agents of a pool, oldest first; `lastPingSince`: only those that pinged since then. */
export async function listAgents(
  ctx: ServiceContext,
  poolId: string,
  page: PageRequest,
  filters: { lastPingSince?: string } = {},
): Promise<Paged<Agent>> {
  const pool = await manageablePool(ctx, poolId);
  let query = ctx.db.selectFrom('agents').where('agent_pool_id', '=', pool.id);
  if (filters.lastPingSince) query = query.where('last_ping_at', '>=', filters.lastPingSince);
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.select(AGENT_COLUMNS).orderBy('seq').$call(inPage(page)).execute();
  return { items: rows.map(toAgent), total: Number(n), page };
}

export async function readAgent(ctx: ServiceContext, id: string): Promise<Agent> {
  const row = await ctx.db.selectFrom('agents').select(AGENT_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`agent ${id} not found`);
  await manageablePool(ctx, row.agent_pool_id).catch(() => {
    throw notFound(`agent ${id} not found`);
  });
  return toAgent(row);
}

/**
 * Deletes an agent that no longer runs (`unknown`, `errored` or `exited`, as HCP Terraform): a
 * running one (`idle`, `busy`) is a 409. Those who may not manage its pool, and an unknown id, get
 * 404. The runs it executed keep naming it, by its id (services/runs/run-executors.ts).
 */
export async function deleteAgent(ctx: ServiceContext, id: string): Promise<void> {
  const missing = () => notFound(`agent ${id} not found`);
  const found = await ctx.db.selectFrom('agents').select('agent_pool_id').where('id', '=', id).executeTakeFirst();
  if (!found) throw missing();
  await writeTransaction(inOrganizationOf(ctx, 'agent_pools', found.agent_pool_id), async (tx) => {
    const row = await tx.selectFrom('agents').select(AGENT_COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row) throw missing();
    await manageablePool(ctx, row.agent_pool_id, tx).catch(() => {
      throw missing();
    });
    if (!DELETABLE_STATUSES.includes(row.status as AgentStatus))
      throw conflict(
        `agent ${row.name} (${row.id}) is ${row.status}: only an agent that is exited, errored or unknown can be ` +
          'deleted; stop it first (berth agent stops cleanly on SIGINT or SIGTERM)',
      );
    await tx.deleteFrom('agents').where('id', '=', id).where('status', 'in', DELETABLE_STATUSES).execute();
  });
}
