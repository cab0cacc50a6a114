import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { sqliteFreshUpTo } from './migrate-helpers.js';

const upTo14 = MIGRATIONS.filter((m) => m.version <= 14);

async function seed(db: Kysely<any>): Promise<void> {
  await db.insertInto('organizations').values({ id: 'org-1', name: 'acme', email: 'a@x', created_at: 'now' }).execute();
  await db
    .insertInto('projects')
    .values({ id: 'prj-1', organization_id: 'org-1', name: 'p', name_lower: 'p', created_at: 'now' })
    .execute();
  await db
    .insertInto('users')
    .values([
      { id: 'user-alice', username: 'alice', email: 'alice@x', site_admin: 0, created_at: '2020' },
      { id: 'user-bob', username: 'bob', email: 'bob@x', site_admin: 0, created_at: '2021' },
      { id: 'user-carol', username: 'carol', email: 'carol@x', site_admin: 0, created_at: '2022' },
    ])
    .execute();
  await db
    .insertInto('teams')
    .values([
      { id: 'team-owners', organization_id: 'org-1', name: 'owners', is_owners: 1, created_at: 'now' },
      { id: 'team-devs', organization_id: 'org-1', name: 'devs', is_owners: 0, created_at: 'now' },
    ])
    .execute();
  await db
    .insertInto('team_members')
    .values([
      { team_id: 'team-owners', user_id: 'user-alice' },
      { team_id: 'team-devs', user_id: 'user-alice' },
      { team_id: 'team-devs', user_id: 'user-bob' },
    ])
    .execute();
  await db
    .insertInto('tokens')
    .values([
      {
        id: 'at-serve',
        kind: 'site-admin',
        token_hash: 'h1',
        description: 'created by berth serve',
        created_at: 'now',
      },
      { id: 'at-minted', kind: 'site-admin', token_hash: 'h2', description: 'CI', created_at: 'now' },
      { id: 'at-bob', kind: 'user', token_hash: 'h3', user_id: 'user-bob', description: null, created_at: 'now' },
    ])
    .execute();
  const ws = (id: string, kind: string | null, by: string | null) => ({
    id,
    organization_id: 'org-1',
    project_id: 'prj-1',
    name: id,
    name_lower: id,
    terraform_version: '1',
    latest_change_at: 'now',
    created_at: 'now',
    updated_at: 'now',
    locked: kind ? 1 : 0,
    locked_by_kind: kind,
    locked_by_id: by,
  });
  await db
    .insertInto('workspaces')
    .values([
      ws('ws-token', 'site-admin', 'at-serve'),
      ws('ws-local', 'site-admin', 'local'),
      ws('ws-bob', 'users', 'user-bob'),
    ])
    .execute();
}

describe('migration 014: identity', () => {
  it('makes the site-administrator tokens and their locks belong to a new admin user, and team members members', async () => {
    const db = await sqliteFreshUpTo(13);
    try {
      await seed(db);
      expect(await migrate(db, upTo14)).toBe(1);

      const admin = await db.selectFrom('users').selectAll().where('username', '=', 'admin').executeTakeFirstOrThrow();
      expect(admin).toMatchObject({ email: 'admin@localhost', site_admin: 1 });
      expect(admin.id).toMatch(/^user-[A-Za-z0-9]{16}$/);
      const tokens = await db
        .selectFrom('tokens')
        .select(['id', 'kind', 'user_id', 'expired_at'])
        .orderBy('id')
        .execute();
      expect(tokens).toEqual([
        { id: 'at-bob', kind: 'user', user_id: 'user-bob', expired_at: null },
        { id: 'at-minted', kind: 'user', user_id: admin.id, expired_at: null },
        { id: 'at-serve', kind: 'user', user_id: admin.id, expired_at: null },
      ]);
      const locks = await db
        .selectFrom('workspaces')
        .select(['id', 'locked_by_kind', 'locked_by_id'])
        .orderBy('id')
        .execute();
      expect(locks).toEqual([
        { id: 'ws-bob', locked_by_kind: 'users', locked_by_id: 'user-bob' },
        { id: 'ws-local', locked_by_kind: 'users', locked_by_id: admin.id },
        { id: 'ws-token', locked_by_kind: 'users', locked_by_id: admin.id },
      ]);

      const memberships = await db.selectFrom('organization_memberships').selectAll().orderBy('user_id').execute();
      expect(memberships.map((m) => [m.organization_id, m.user_id, m.status])).toEqual([
        ['org-1', 'user-alice', 'active'],
        ['org-1', 'user-bob', 'active'],
      ]);
      for (const m of memberships) expect(m.id).toMatch(/^ou-[A-Za-z0-9]{16}$/);
    } finally {
      await db.destroy();
    }
  });

  it('gives the tokens to the oldest site-administrator user when there is one, and finds a free name otherwise', async () => {
    const db = await sqliteFreshUpTo(13);
    try {
      await db
        .insertInto('users')
        .values([
          { id: 'user-root2', username: 'root2', email: 'r2@x', site_admin: 1, created_at: '2024' },
          { id: 'user-root1', username: 'root1', email: 'r1@x', site_admin: 1, created_at: '2023' },
        ])
        .execute();
      await db
        .insertInto('tokens')
        .values({ id: 'at-1', kind: 'site-admin', token_hash: 'h', created_at: 'now' })
        .execute();
      expect(await migrate(db, upTo14)).toBe(1);
      expect(await db.selectFrom('tokens').select(['kind', 'user_id']).execute()).toEqual([
        { kind: 'user', user_id: 'user-root1' },
      ]);
      expect(await db.selectFrom('users').select('username').where('username', 'like', 'admin%').execute()).toEqual([]);
    } finally {
      await db.destroy();
    }

    const other = await sqliteFreshUpTo(13);
    try {
      await other
        .insertInto('users')
        .values({ id: 'user-x', username: 'admin', email: 'someone@x', created_at: '2020' })
        .execute();
      await other
        .insertInto('tokens')
        .values({ id: 'at-1', kind: 'site-admin', token_hash: 'h', created_at: 'now' })
        .execute();
      await migrate(other, upTo14);
      const admin = await other.selectFrom('users').selectAll().where('site_admin', '=', 1).executeTakeFirstOrThrow();
      expect(admin.username).toBe('admin-2');
      expect(await other.selectFrom('tokens').select('user_id').execute()).toEqual([{ user_id: admin.id }]);
    } finally {
      await other.destroy();
    }
  });

  it('creates no user in a database without site-administrator tokens', async () => {
    const db = await sqliteFreshUpTo(13);
    try {
      await migrate(db, upTo14);
      expect(await db.selectFrom('users').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
