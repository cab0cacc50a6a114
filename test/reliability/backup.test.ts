import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * `berth backup` while `serve` takes a write load on the same file, then `berth restore` into a
 * new file: the restored database passes the integrity check, opens with berth, and holds every
 * workspace whose create was acknowledged (201) before the backup began.
 */

const CLIENTS = 4;

interface Create {
  name: string;
  status: number;
  /** Sequence number of the moment the response arrived (see `clock`). */
  ackedAt: number;
}

describe('backup under write load, and restore', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let token: string;
  // A logical clock: each event (a response, the start of the backup) takes the next number.
  let clock = 0;

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startServe(tmp.db);
    token = server.token!;
    const org = await api('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    expect(org.status).toBe(201);
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
  });

  it('keeps every acknowledged write in a restorable, intact copy', async () => {
    const creates: Create[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const name = `w-${n}-${i}`;
        const res = await api('POST', '/organizations/acme/workspaces', {
          data: { type: 'workspaces', attributes: { name } },
        });
        await res.arrayBuffer();
        creates.push({ name, status: res.status, ackedAt: ++clock });
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    // Let the load get going, then back up while it runs.
    while (creates.length < 40) await new Promise((r) => setTimeout(r, 10));
    const backupFile = join(tmp.dir, 'backup.db');
    const backupStart = ++clock;
    const backup = await runCli(['backup', backupFile, '--db', tmp.db, '--json']);
    const afterBackup = creates.length;
    // Keep writing a little after the backup, then stop.
    while (creates.length < afterBackup + 20) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await load;

    expect(backup.code, backup.stderr).toBe(0);
    const info = JSON.parse(backup.stdout);
    expect(info).toMatchObject({ file: backupFile, bytes: readFileSync(backupFile).length });
    expect(info.bytes).toBeGreaterThan(0);
    // Every create succeeded: the backup never made the server fail or report "database is locked".
    expect(creates.filter((c) => c.status !== 201)).toEqual([]);
    expect(server.stderr()).not.toMatch(/database is locked|unexpected error/);
    // The access log line ends with the request id the response carried.
    expect(server.stderr()).toMatch(
      /POST \/api\/v2\/organizations\/acme\/workspaces 201 \d+(\.\d+)?ms [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n/,
    );

    const restored = join(tmp.dir, 'restored.db');
    const restore = await runCli(['restore', backupFile, '--to', restored, '--json']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ file: restored, replaced: false });

    const db = new Database(restored, { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const names = new Set((db.prepare('select name from workspaces').all() as { name: string }[]).map((r) => r.name));
      const acknowledgedBefore = creates.filter((c) => c.ackedAt < backupStart);
      expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(40);
      expect(acknowledgedBefore.filter((c) => !names.has(c.name))).toEqual([]);
      // Whole workspaces, not just rows: each restored one has its project, and its create its audit record.
      const orphans = db
        .prepare(
          'select count(*) as n from workspaces w left join projects p on p.id = w.project_id where p.id is null',
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
      const audited = db.prepare("select count(*) as n from audit_events where action = 'workspace.create'").get() as {
        n: number;
      };
      expect(audited.n).toBe(names.size);
    } finally {
      db.close();
    }

    // The restored file is a berth database: the CLI opens it.
    const list = await runCli(['workspace', 'list', '--org', 'acme', '--db', restored, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout).map((w: any) => w.attributes.name);
    expect(listed.length).toBeGreaterThanOrEqual(creates.filter((c) => c.ackedAt < backupStart).length);
    // And its audit trail reads through `berth audit list`, filtered by workspace name.
    const trail = await runCli(['audit', 'list', '--org', 'acme', '--db', restored, '--workspace', 'w-0-0', '--json']);
    expect(trail.code, trail.stderr).toBe(0);
    expect(JSON.parse(trail.stdout).map((e: any) => [e.attributes.action, e.attributes['target-name']])).toEqual([
      ['workspace.create', 'w-0-0'],
    ]);
  });

  it('refuses to restore over the database the server is using, and the server carries on', async () => {
    const backupFile = join(tmp.dir, 'backup.db');
    const before = ((await (await api('GET', '/organizations/acme/workspaces?page[size]=1')).json()) as any).meta
      .pagination['total-count'];
    const res = await runCli(['restore', backupFile, '--db', tmp.db]);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('already exists and looks in use');
    expect(res.stderr).toContain('--force');
    const after = await api('GET', '/organizations/acme/workspaces?page[size]=1');
    expect(after.status).toBe(200);
    expect(((await after.json()) as any).meta.pagination['total-count']).toBe(before);
  });
});

describe('backup and restore refusals', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('never overwrites without --force, and rejects files that are not intact berth databases', async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test', '--db', tmp.db])).code).toBe(0);
    const file = join(tmp.dir, 'b.db');
    expect((await runCli(['backup', file, '--db', tmp.db])).code).toBe(0);
    const again = await runCli(['backup', file, '--db', tmp.db]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('already exists');
    expect((await runCli(['backup', file, '--db', tmp.db, '--force'])).code).toBe(0);

    const missing = await runCli(['backup', join(tmp.dir, 'x.db'), '--db', join(tmp.dir, 'none.db')]);
    // A database that does not exist is a usage error (cli/connection/database-file.ts).
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no database at ${join(tmp.dir, 'none.db')}`);
    expect(existsSync(join(tmp.dir, 'none.db'))).toBe(false);

    const garbage = join(tmp.dir, 'garbage.db');
    writeFileSync(garbage, 'this is not a database'.repeat(100));
    const bad = await runCli(['restore', garbage, '--to', join(tmp.dir, 'r1.db')]);
    expect(bad.code).toBe(5);
    expect(existsSync(join(tmp.dir, 'r1.db'))).toBe(false);

    const foreign = join(tmp.dir, 'foreign.db');
    const f = new Database(foreign);
    f.exec('create table t (x integer)');
    f.close();
    const notBerth = await runCli(['restore', foreign, '--to', join(tmp.dir, 'r2.db')]);
    expect(notBerth.code).toBe(5);
    expect(notBerth.stderr).toContain('not a berth database');

    // Forced over an existing database: the content is the backup's.
    expect((await runCli(['org', 'create', 'later', '--email', 'l@acme.test', '--db', tmp.db])).code).toBe(0);
    const forced = await runCli(['restore', file, '--db', tmp.db, '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).replaced).toBe(true);
    const orgs = await runCli(['org', 'list', '--db', tmp.db, '--json']);
    expect(JSON.parse(orgs.stdout).map((o: any) => o.id)).toEqual(['acme']);
  });
});
