import { type KyselyPlugin, SelectQueryNode, TableNode, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { localAdminActor } from '../../src/services/identity/admin-user.js';
import { copyDatabase } from '../../src/store/copy.js';
import { openStore, type Store } from '../../src/store/open.js';
import { tempDb } from '../helpers/cli.js';

/** Counts the reads of each table (`select … from TABLE`) made through the database it is given to. */
function readCounter(): { plugin: KyselyPlugin; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (SelectQueryNode.is(node))
        for (const from of node.from?.froms ?? [])
          if (TableNode.is(from)) {
            const name = from.table.identifier.name;
            reads.set(name, (reads.get(name) ?? 0) + 1);
          }
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return { plugin, reads };
}

/**
 * `berth db copy` reads the source a batch at a time, in the order of each table's key (never a
 * whole table in memory): with batches of 2, every row of every table still arrives, the same,
 * through tables keyed by one column and by two.
 */
describe('db copy in batches', () => {
  const from = tempDb();
  const to = tempDb();
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    from.cleanup();
    to.cleanup();
  });

  it('copies every row of every table, reading each table in batches of its key', async () => {
    const source = await openStore(from.db);
    stores.push(source);
    const app = createApp({ db: source.db, localActor: await localAdminActor(source.db, new Date()) });
    const call = async (method: string, path: string, data: unknown) => {
      const res = await app.fetch(
        new Request(`http://local/api/v2${path}`, {
          method,
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data }),
        }),
      );
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return res.status === 204 ? null : ((await res.json()) as { data: { id: string } }).data;
    };
    await call('POST', '/organizations', { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } });
    const set = await call('POST', '/organizations/acme/varsets', {
      type: 'varsets',
      attributes: { name: 'common', global: false },
    });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const ws = await call('POST', '/organizations/acme/workspaces', {
        type: 'workspaces',
        attributes: { name: `app-${i}` },
      });
      ids.push(ws!.id);
    }
    // A table keyed by two columns (varset, workspace), with more rows than a batch.
    await call(
      'POST',
      `/varsets/${set!.id}/relationships/workspaces`,
      ids.map((id) => ({ type: 'workspaces', id })),
    );

    const target = await openStore(to.db);
    stores.push(target);
    const counter = readCounter();
    const result = await copyDatabase({ ...source, db: source.db.withPlugin(counter.plugin) }, target, undefined, 2);

    // Every table: the same rows, in the same key order, on both sides.
    for (const { name } of result.tables) {
      const all = (s: Store) => sql<Record<string, unknown>>`select * from ${sql.table(name)} order by 1`.execute(s.db);
      expect((await all(target)).rows, name).toEqual((await all(source)).rows);
    }
    expect(result.tables.find((t) => t.name === 'workspaces')!.rows).toBe(7);
    expect(result.tables.find((t) => t.name === 'varset_workspaces')!.rows).toBe(7);
    // 7 rows in batches of 2: four reads (the last one short), never one read of the whole table.
    expect(counter.reads.get('workspaces')).toBe(4);
    expect(counter.reads.get('varset_workspaces')).toBe(4);
  });
});
