import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const TOTAL = 5_000;
const CLIENTS = 8;
const KILL_AFTER = 2_500;
const BINDINGS = 3;

/**
 * `berth serve` killed with SIGKILL in the middle of 5,000 workspace creates from 8 clients, each
 * create carrying its tag bindings inline. After a restart on the same file the database passes
 * SQLite's integrity check, every acknowledged create is there whole, and no workspace is there
 * without the bindings its request carried.
 */
describe('SIGKILL during 5,000 creates from 8 clients', () => {
  const tmp = tempDb();
  let serve: ServeProcess | undefined;
  afterAll(async () => {
    await serve?.stop('SIGKILL');
    tmp.cleanup();
  });

  it(
    'after a restart: integrity check ok, every acknowledged create whole, none half-written',
    { timeout: 180_000 },
    async () => {
      serve = await startServe(tmp.db);
      const token = serve.token!;
      const url = serve.url;
      const post = (path: string, body: unknown) =>
        fetch(`${url}/api/v2${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify(body),
        });
      expect(
        (
          await post('/organizations', {
            data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
          })
        ).status,
      ).toBe(201);

      const acknowledged: string[] = [];
      let killed = false;
      let failedBeforeKill = 0;
      const client = async (c: number) => {
        for (let i = c; i < TOTAL && !killed; i += CLIENTS) {
          const name = `ws-${String(i).padStart(4, '0')}`;
          const tags = Array.from({ length: BINDINGS }, (_, k) => ({
            type: 'tag-bindings',
            attributes: { key: `k${k}`, value: `${name}-v${k}` },
          }));
          try {
            const res = await post('/organizations/acme/workspaces', {
              data: {
                type: 'workspaces',
                attributes: { name, description: `created ${i}` },
                relationships: { 'tag-bindings': { data: tags } },
              },
            });
            if (res.status === 201) acknowledged.push(name);
            else if (!killed) failedBeforeKill++;
            await res.arrayBuffer();
          } catch {
            // The connection died with the server: not acknowledged.
          }
          if (acknowledged.length >= KILL_AFTER && !killed) {
            killed = true;
            serve!.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      expect(killed).toBe(true);
      expect(failedBeforeKill).toBe(0);
      await new Promise<void>((done) =>
        serve!.child.exitCode !== null || serve!.child.signalCode !== null
          ? done()
          : serve!.child.once('exit', () => done()),
      );

      serve = await startServe(tmp.db);
      const sqlite = new Database(tmp.db, { readonly: true });
      let stored: Map<string, unknown>;
      try {
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(sqlite.pragma('foreign_key_check')).toEqual([]);
        const rows = sqlite
          .prepare(
            `select w.name, w.description, count(b.id) as bindings, group_concat(b.key || '=' || b.value, ',') as pairs
           from workspaces w left join workspace_tag_bindings b on b.workspace_id = w.id group by w.id`,
          )
          .all() as { name: string; description: string; bindings: number; pairs: string | null }[];
        stored = new Map(rows.map((r) => [r.name, r]));
        // Every acknowledged create is there, with its description and all its bindings.
        const missing = acknowledged.filter((n) => !stored.has(n));
        expect(missing).toEqual([]);
        // No workspace (acknowledged or not) is there without the bindings its request carried.
        for (const r of rows) {
          const i = Number(r.name.slice(3));
          expect(r.description).toBe(`created ${i}`);
          expect(r.bindings, r.name).toBe(BINDINGS);
          expect(r.pairs!.split(',').sort()).toEqual(
            Array.from({ length: BINDINGS }, (_, k) => `k${k}=${r.name}-v${k}`),
          );
        }
        expect(rows.length).toBeGreaterThanOrEqual(acknowledged.length);
      } finally {
        sqlite.close();
      }
      // The clients finish the 5,000 on the restarted server, retrying what was not acknowledged: a
      // create that was committed but whose answer was lost comes back 422 (name taken), never twice.
      const done = new Set(acknowledged);
      const restarted = serve.url;
      const rest = Array.from({ length: TOTAL }, (_, i) => `ws-${String(i).padStart(4, '0')}`).filter(
        (n) => !done.has(n),
      );
      const statuses = new Map<string, number>();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          for (let j = c; j < rest.length; j += CLIENTS) {
            const name = rest[j];
            const i = Number(name.slice(3));
            const tags = Array.from({ length: BINDINGS }, (_, k) => ({
              type: 'tag-bindings',
              attributes: { key: `k${k}`, value: `${name}-v${k}` },
            }));
            const res = await fetch(`${restarted}/api/v2/organizations/acme/workspaces`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
              body: JSON.stringify({
                data: {
                  type: 'workspaces',
                  attributes: { name, description: `created ${i}` },
                  relationships: { 'tag-bindings': { data: tags } },
                },
              }),
            });
            statuses.set(name, res.status);
            await res.arrayBuffer();
          }
        }),
      );
      for (const name of rest) expect([201, 422], name).toContain(statuses.get(name));
      for (const name of rest)
        if (statuses.get(name) === 422) expect(stored.has(name), `${name} was refused but never stored`).toBe(true);
      const list = await fetch(`${restarted}/api/v2/organizations/acme/workspaces?page[size]=1`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(list.status).toBe(200);
      expect(((await list.json()) as any).meta.pagination['total-count']).toBe(TOTAL);
    },
  );
});
