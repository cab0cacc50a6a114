import { sql, type Kysely } from 'kysely';

/**
 * A run's history and its comments (issue 43: HCP's Run Events and Comments APIs).
 * - `run_events`: one row per thing that happened to a run, in order (`seq`): its creation, each
 *   status it moved to, a cancel asked for while it ran, a comment. `actor_user_id` is the user who
 *   did it (who created, confirmed, discarded, canceled or commented); null for what berth did by
 *   itself (the queue, the executor) and for tokens that are no user's.
 * - `comments`: the text a user left on a run, alone (its event is `commented`) or with an action
 *   (apply, discard, cancel, force-cancel: its event is that action's). One comment per event.
 * Both go with their run (and so with its workspace and organization). Deleting a user keeps the
 * history: the events and comments stay, naming no user (the partial indexes make that update,
 * and the foreign key's look-up, cheap on large tables).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_events')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('actor_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('run_events_run').on('run_events').columns(['run_id', 'seq']).execute();
  await db.schema
    .createIndex('run_events_actor')
    .on('run_events')
    .column('actor_user_id')
    .where(sql<boolean>`actor_user_id is not null`)
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('run_event_id', 'text', (c) => c.notNull().unique().references('run_events.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_run').on('comments').columns(['run_id', 'seq']).execute();
  await db.schema
    .createIndex('comments_author')
    .on('comments')
    .column('author_user_id')
    .where(sql<boolean>`author_user_id is not null`)
    .execute();
}
