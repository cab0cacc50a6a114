import type { Kysely } from 'kysely';

/**
 * Run tokens (issues 34 and 35): the token a phase of an executed run gets when it is claimed,
 * for terraform inside the run to reach berth (its own workspace's state, the states it may
 * consume). Only the sha256 of the token is stored. Bound to its run and the phase it was minted
 * for (`plan` or `apply`), with the run's workspace and organization; it authenticates only while
 * the run is still in that phase (planning or applying) and before `expired_at`. Deleting the run
 * (or its workspace) deletes its tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expired_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('run_tokens_run').on('run_tokens').column('run_id').execute();
  await db.schema.createIndex('run_tokens_expired').on('run_tokens').column('expired_at').execute();
}
