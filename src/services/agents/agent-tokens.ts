import { notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { generateToken, hashToken } from '../../domain/identity/token.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { creatorOf } from '../identity/tokens.js';
import { inOrganizationOf } from '../write-scope.js';
import { manageablePool } from './pool-access.js';

/**
 * An agent pool's authentication tokens (HCP Terraform's agent tokens): a `berth agent` presents
 * one to register with the pool and for every call of the agent protocol; it does nothing else
 * (the `/api/v2` API refuses it). Only its sha256 is stored: the token is shown once, in the
 * answer that created it. Who may manage the pool's agents reads, creates and deletes them.
 */
export interface AgentTokenInfo {
  id: string;
  agentPoolId: string;
  description: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  createdBy: { type: string; id: string } | null;
  /** Only in the answer that created it. */
  token?: string;
}

type Row = {
  id: string;
  agent_pool_id: string;
  description: string | null;
  created_at: string;
  last_used_at: string | null;
  created_by_type: string | null;
  created_by_id: string | null;
};

function toInfo(row: Row, token?: string): AgentTokenInfo {
  return {
    id: row.id,
    agentPoolId: row.agent_pool_id,
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    createdBy: row.created_by_type && row.created_by_id ? { type: row.created_by_type, id: row.created_by_id } : null,
    ...(token ? { token } : {}),
  };
}

const COLUMNS = [
  'id',
  'agent_pool_id',
  'description',
  'created_at',
  'last_used_at',
  'created_by_type',
  'created_by_id',
] as const;

export async function createAgentToken(
  ctx: ServiceContext,
  poolId: string,
  description: string | null,
): Promise<AgentTokenInfo> {
  return writeTransaction(inOrganizationOf(ctx, 'agent_pools', poolId), async (tx) => {
    const pool = await manageablePool(ctx, poolId, tx);
    const token = generateToken();
    const row: Row = {
      id: newId('at'),
      agent_pool_id: pool.id,
      description,
      created_at: ctx.clock.now().toISOString(),
      last_used_at: null,
      ...creatorOf(ctx.actor),
    };
    await tx
      .insertInto('agent_tokens')
      .values({ ...row, token_hash: hashToken(token) })
      .execute();
    return toInfo(row, token);
  });
}

export async function listAgentTokens(
  ctx: ServiceContext,
  poolId: string,
  page: PageRequest,
): Promise<Paged<AgentTokenInfo>> {
  const pool = await manageablePool(ctx, poolId);
  const { n } = await ctx.db
    .selectFrom('agent_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agent_pool_id', '=', pool.id)
    .executeTakeFirstOrThrow();
  const rows = await ctx.db
    .selectFrom('agent_tokens')
    .select(COLUMNS)
    .where('agent_pool_id', '=', pool.id)
    .orderBy('seq')
    .$call(inPage(page))
    .execute();
  return { items: rows.map((r) => toInfo(r)), total: Number(n), page };
}

/** Whether `id` names an agent token (`/authentication-tokens/:id` serves every kind of token). */
export async function isAgentToken(ctx: ServiceContext, id: string): Promise<boolean> {
  return (await ctx.db.selectFrom('agent_tokens').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

async function manageableToken(ctx: ServiceContext, id: string, db = ctx.db): Promise<Row> {
  const row = await db.selectFrom('agent_tokens').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`token ${id} not found`);
  await manageablePool(ctx, row.agent_pool_id, db).catch(() => {
    throw notFound(`token ${id} not found`);
  });
  return row;
}

export async function readAgentToken(ctx: ServiceContext, id: string): Promise<AgentTokenInfo> {
  return toInfo(await manageableToken(ctx, id));
}

/**
 * Deletes an agent token: the agents that registered with it are refused from their next call
 * (they stop), and the runs they were executing end errored once they stop pinging.
 */
export async function deleteAgentToken(ctx: ServiceContext, id: string): Promise<void> {
  const found = await ctx.db.selectFrom('agent_tokens').select('agent_pool_id').where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound(`token ${id} not found`);
  await writeTransaction(inOrganizationOf(ctx, 'agent_pools', found.agent_pool_id), async (tx) => {
    await manageableToken(ctx, id, tx);
    await tx.deleteFrom('agent_tokens').where('id', '=', id).execute();
  });
}
