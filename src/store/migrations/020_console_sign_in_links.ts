import type { Kysely } from 'kysely';

/**
 * One-time sign-in links of the web console (`berth login --web`): the sha256 of each link's
 * code (the code itself is never stored), the user it signs in, when it was made, when it
 * expires (60 s later) and when it was used (null until then; set once, by a single conditional
 * update, so a code works once even when several instances share the database). A user's links
 * go with the user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_sign_in_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('console_sign_in_links_expires')
    .on('console_sign_in_links')
    .column('expires_at')
    .execute();
}
