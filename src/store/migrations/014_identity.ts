import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** An id as src/domain/common/ids.ts makes them, written out here so that this migration never changes. */
function id(prefix: string): string {
  let tail = '';
  while (tail.length < 16) {
    for (const b of randomBytes(32)) if (b < 232 && tail.length < 16) tail += ALPHABET[b % 58];
  }
  return `${prefix}-${tail}`;
}

/**
 * Identity, as HCP Terraform has it:
 * - every token of a person belongs to a user: the site-administrator tokens of older databases
 *   become tokens of the first site-administrator user (a user `admin` is created when there is
 *   none), and locks they held become that user's;
 * - organization memberships (`ou-` ids, `invited` or `active`): every user already in a team of
 *   an organization becomes an active member of it. `invited_team_members` holds the teams an
 *   invited member joins when they accept;
 * - tokens may expire (`expired_at`, null for never).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization_memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('organization_memberships_org_user', ['organization_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('organization_memberships_user')
    .on('organization_memberships')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('invited_team_members')
    .addColumn('membership_id', 'text', (c) =>
      c.notNull().references('organization_memberships.id').onDelete('cascade'),
    )
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('invited_team_members_pk', ['membership_id', 'team_id'])
    .execute();
  await db.schema.createIndex('invited_team_members_team').on('invited_team_members').column('team_id').execute();

  await db.schema.alterTable('tokens').addColumn('expired_at', 'text').execute();

  const now = new Date().toISOString();
  await backfillMemberships(db, now);
  await adoptSiteAdminTokens(db, now);
}

async function backfillMemberships(db: Kysely<any>, now: string): Promise<void> {
  const pairs: { organization_id: string; user_id: string }[] = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.organization_id', 'team_members.user_id'])
    .distinct()
    .orderBy('teams.organization_id')
    .orderBy('team_members.user_id')
    .execute();
  for (let i = 0; i < pairs.length; i += 200) {
    await db
      .insertInto('organization_memberships')
      .values(pairs.slice(i, i + 200).map((p) => ({ id: id('ou'), ...p, status: 'active', created_at: now })))
      .execute();
  }
}

async function adoptSiteAdminTokens(db: Kysely<any>, now: string): Promise<void> {
  const legacy = await db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirst();
  const localLocks = await db
    .selectFrom('workspaces')
    .select('id')
    .where('locked_by_kind', '=', 'site-admin')
    .executeTakeFirst();
  if (!legacy && !localLocks) return;
  let admin: { id: string } | undefined = await db
    .selectFrom('users')
    .select('id')
    .where('site_admin', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (!admin) {
    const taken = new Set(
      (await db.selectFrom('users').select('username').where('username', 'like', 'admin%').execute()).map(
        (u: { username: string }) => u.username,
      ),
    );
    let username = 'admin';
    for (let n = 2; taken.has(username); n++) username = `admin-${n}`;
    admin = { id: id('user') };
    await db
      .insertInto('users')
      .values({ id: admin.id, username, email: `${username}@localhost`, site_admin: 1, created_at: now })
      .execute();
  }
  await db.updateTable('tokens').set({ kind: 'user', user_id: admin.id }).where('kind', '=', 'site-admin').execute();
  await db
    .updateTable('workspaces')
    .set({ locked_by_kind: 'users', locked_by_id: admin.id })
    .where('locked_by_kind', '=', 'site-admin')
    .execute();
}
