import { sql, type Kysely } from 'kysely';

/**
 * `organization_memberships.email`: the email an invitation was sent to, as the inviter typed it.
 * Until the invitee accepts, a membership shows this email, never its user's own (which may be
 * written in another case, or changed later): what an inviter sees tells them nothing about the
 * account behind the email (docs/api.md, "Organization memberships"). Existing memberships take
 * their user's email. A plain added column on both engines (nullable: SQLite cannot add a
 * non-null column without a default; every new membership sets it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization_memberships').addColumn('email', 'text').execute();
  await sql`update organization_memberships set email =
    (select users.email from users where users.id = organization_memberships.user_id)`.execute(db);
}
