import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';

describe('migrations', () => {
  it('are recorded, and a second run applies nothing', async () => {
    const store = await openStore(':memory:');
    const versions = (await store.db.selectFrom('berth_migrations').select('version').orderBy('version').execute()).map(
      (r) => r.version,
    );
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    expect(await migrate(store.db)).toBe(0);
    await store.close();
  });

  it('apply one that is missing even when a higher-numbered one is already applied', async () => {
    const store = await openStore(':memory:');
    let ran = 0;
    const late = { version: 4, name: 'merged-late', up: () => Promise.resolve(void ran++) };
    expect(await migrate(store.db, [...MIGRATIONS, late])).toBe(1);
    expect(ran).toBe(1);
    expect(await migrate(store.db, [...MIGRATIONS, late])).toBe(0);
    await store.close();
  });
});

describe('migrations 012 and 013: integer workspace keys, binding projects', () => {
  it('fills the workspace key and project of the tag and binding rows a database already holds', async () => {
    const { seedOrganization, sqliteFreshUpTo } = await import('./migrate-helpers.js');
    const db = await sqliteFreshUpTo(11);
    try {
      await seedOrganization(db, { projects: ['prj-1'], workspaces: ['ws-a', 'ws-b'] });
      await db
        .insertInto('tags')
        .values({ id: 'tag-1', organization_id: 'org-1', name: 't', created_at: 'now' })
        .execute();
      await db
        .insertInto('workspace_tags')
        .values([{ workspace_id: 'ws-b', tag_id: 'tag-1' }])
        .execute();
      await db
        .insertInto('workspace_tag_bindings')
        .values([{ id: 'tb-1', workspace_id: 'ws-b', key: 'k', value: 'v', created_at: 'now' }])
        .execute();
      expect(
        await migrate(
          db,
          MIGRATIONS.filter((m) => m.version <= 13),
        ),
      ).toBe(2);
      const seqB = (await db.selectFrom('workspaces').select('seq').where('id', '=', 'ws-b').executeTakeFirstOrThrow())
        .seq;
      expect(await db.selectFrom('workspace_tags').select('workspace_seq').execute()).toEqual([
        { workspace_seq: seqB },
      ]);
      expect(await db.selectFrom('workspace_tag_bindings').select(['workspace_seq', 'project_id']).execute()).toEqual([
        { workspace_seq: seqB, project_id: 'prj-1' },
      ]);
    } finally {
      await db.destroy();
    }
  });
});

describe('migration 015: organization defaults', () => {
  it('makes existing projects inherit the organization, with the new organization settings at their defaults', async () => {
    const { sqliteFreshUpTo } = await import('./migrate-helpers.js');
    const db = await sqliteFreshUpTo(13);
    try {
      await db
        .insertInto('organizations')
        .values({ id: 'org-1', name: 'acme', email: 'a@x', default_execution_mode: 'local', created_at: 'now' })
        .execute();
      await db
        .insertInto('projects')
        .values({
          id: 'prj-1',
          organization_id: 'org-1',
          name: 'p',
          name_lower: 'p',
          default_execution_mode: 'remote',
          created_at: 'now',
        })
        .execute();
      expect(
        await migrate(
          db,
          MIGRATIONS.filter((m) => m.version <= 15),
        ),
      ).toBe(MIGRATIONS.filter((m) => m.version > 13 && m.version <= 15).length);
      expect(
        await db.selectFrom('projects').select(['execution_overridden', 'default_agent_pool_id']).execute(),
      ).toEqual([{ execution_overridden: 0, default_agent_pool_id: null }]);
      expect(
        await db
          .selectFrom('organizations')
          .select([
            'default_agent_pool_id',
            'send_passing_statuses',
            'aggregated_commit_status_enabled',
            'speculative_plan_management_enabled',
          ])
          .execute(),
      ).toEqual([
        {
          default_agent_pool_id: null,
          send_passing_statuses: 0,
          aggregated_commit_status_enabled: 0,
          speculative_plan_management_enabled: 1,
        },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
