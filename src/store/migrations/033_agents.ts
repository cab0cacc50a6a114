import type { Kysely } from 'kysely';

/**
 * Agents (`berth agent`, issue 36): runs of agent-mode workspaces execute on other machines.
 * - `agent_tokens`: the authentication tokens of an agent pool (HCP's agent tokens): the sha256
 *   of each token (the token itself is shown once, never stored), its description, who made it,
 *   when it was made and last used. They go with their pool.
 * - `agents`: each `berth agent` process that registered with a token of the pool: its name, its
 *   status (`idle`, `busy`, `exited`, `errored`, `unknown`), the address it registered from, and
 *   when it last pinged. An agent silent for longer than serve's agent timeout is `exited` and the
 *   runs it had claimed (`runs.claimed_by` is the agent's id) end errored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agent_tokens')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('agent_pool_id', 'text', (c) => c.notNull().references('agent_pools.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('created_by_type', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('agent_tokens_pool').on('agent_tokens').columns(['agent_pool_id', 'seq']).execute();

  await db.schema
    .createTable('agents')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('agent_pool_id', 'text', (c) => c.notNull().references('agent_pools.id').onDelete('cascade'))
    .addColumn('agent_token_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_ping_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agents_pool').on('agents').columns(['agent_pool_id', 'seq']).execute();
  await db.schema.createIndex('agents_status').on('agents').columns(['status', 'last_ping_at']).execute();
  await db.schema.createIndex('runs_claimed_by').on('runs').columns(['claimed_by', 'status']).execute();
}
