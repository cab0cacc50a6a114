import type { Kysely } from 'kysely';

/**
 * Authorization codes of `terraform login` (the `login.v1` service): the sha256 of each code (the
 * code itself is never stored), the user who approved it, the client and redirect URI it was
 * issued to, the PKCE S256 challenge the token request must answer, when it was made, when it
 * expires (60 s later) and when it was traded for a token (null until then; set once, by a single
 * conditional update, so a code works once even when several instances share the database). A
 * user's codes go with the user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terraform_login_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('terraform_login_codes_expires')
    .on('terraform_login_codes')
    .column('expires_at')
    .execute();
}
