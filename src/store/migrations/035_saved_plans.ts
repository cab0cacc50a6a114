import type { Kysely } from 'kysely';

/**
 * Saved plans (`terraform plan -out`) of executed runs, so that the apply phase applies exactly the
 * plan that was confirmed, whichever serve instance or agent claims it and after restarts: one row
 * per run, written by the executor when the plan phase ends (while the run is `planning`), read by
 * the apply phase, deleted when the run reaches a final status (and with the run: a foreign key).
 * `size` is the length of `body` in bytes (at most MAX_SAVED_PLAN_BYTES, domain/common/limits.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saved_plans')
    .addColumn('run_id', 'text', (c) => c.primaryKey().references('runs.id').onDelete('cascade'))
    .addColumn('body', 'blob', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
