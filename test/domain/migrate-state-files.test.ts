import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { sqliteFreshUpTo } from './migrate-helpers.js';

const STATE = readFileSync(new URL('../fixtures/state-small.json', import.meta.url), 'utf8');

describe('migration 016: state files as bytes, outputs and resources', () => {
  it('moves stored states to state_files unchanged and extracts their outputs and resource instances', async () => {
    const db = await sqliteFreshUpTo(13);
    try {
      await db
        .insertInto('organizations')
        .values({ id: 'org-1', name: 'acme', email: 'a@x', created_at: 'now' })
        .execute();
      await db
        .insertInto('projects')
        .values({ id: 'prj-1', organization_id: 'org-1', name: 'p', name_lower: 'p', created_at: 'now' })
        .execute();
      await db
        .insertInto('workspaces')
        .values({
          id: 'ws-1',
          organization_id: 'org-1',
          project_id: 'prj-1',
          name: 'w',
          name_lower: 'w',
          terraform_version: '1',
          latest_change_at: 'now',
          created_at: 'now',
          updated_at: 'now',
        })
        .execute();
      const sv = (id: string) => ({
        id,
        workspace_id: 'ws-1',
        serial: 3,
        md5: 'x',
        status: 'finalized',
        intermediate: 0,
        url_secret: 's',
        created_at: 'now',
      });
      await db
        .insertInto('state_versions')
        .values([sv('sv-1'), sv('sv-2')])
        .execute();
      await db
        .insertInto('state_bodies')
        .values([
          { state_version_id: 'sv-1', body: STATE },
          { state_version_id: 'sv-2', body: 'not json' },
        ])
        .execute();

      expect(
        await migrate(
          db,
          MIGRATIONS.filter((m) => m.version <= 16),
        ),
      ).toBe(MIGRATIONS.filter((m) => m.version > 13 && m.version <= 16).length);

      const files = await db.selectFrom('state_files').selectAll().orderBy('state_version_id').execute();
      expect(files.map((f) => [f.state_version_id, f.kind, Buffer.from(f.body).toString('utf8')])).toEqual([
        ['sv-1', 'state', STATE],
        ['sv-2', 'state', 'not json'],
      ]);
      const outputs = await db.selectFrom('state_version_outputs').selectAll().orderBy('seq').execute();
      expect(outputs.map((o) => [o.state_version_id, o.name, o.sensitive, o.type, o.value])).toEqual([
        ['sv-1', 'url', 0, 'string', '"https://example.test"'],
        ['sv-1', 'password', 1, 'string', '"hunter2"'],
      ]);
      expect(outputs[0].id).toMatch(/^wsout-[A-Za-z0-9]{16}$/);
      const resources = await db.selectFrom('state_version_resources').selectAll().orderBy('seq').execute();
      expect(resources.map((r) => [r.mode, r.type, r.name, r.index_key])).toEqual([
        ['managed', 'null_resource', 'web', '0'],
        ['managed', 'null_resource', 'web', '1'],
        ['managed', 'random_pet', 'name', null],
        ['data', 'external', 'info', null],
      ]);
      const versions = await db.selectFrom('state_versions').select(['id', 'format_version']).orderBy('id').execute();
      expect(versions).toEqual([
        { id: 'sv-1', format_version: 4 },
        { id: 'sv-2', format_version: null },
      ]);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name)).not.toContain('state_bodies');
    } finally {
      await db.destroy();
    }
  });
});
