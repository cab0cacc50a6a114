import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

describe('berth user and berth token (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db };
  const cli = (...args: string[]) => runCli(args, env);
  // Only set-up commands create the database (test/cli/connection/missing-database.test.ts).
  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('creates, lists and deletes users', async () => {
    const created = await cli('user', 'create', 'bob', '--email', 'bob@acme.test', '--json');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      type: 'users',
      attributes: { username: 'bob', 'is-site-admin': false },
    });
    const table = await cli('user', 'list');
    expect(table.stdout).toMatch(/USERNAME[\s\S]*bob\s+bob@acme\.test\s+no/);
    const dup = await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    expect(dup.code).toBe(5);
    expect(dup.stderr).toContain('Username has already been taken');
    expect((await cli('user', 'delete', 'bob')).code).toBe(2);
    expect((await cli('user', 'delete', 'bob', '--yes')).code).toBe(0);
    // Left: the site-administrator user local mode acts as.
    expect(JSON.parse((await cli('user', 'list', '--json')).stdout).map((u: any) => u.attributes.username)).toEqual([
      'admin',
    ]);
    expect((await cli('user', 'delete', 'bob', '--yes')).code).toBe(3);
  });

  it('mints a site-admin token that works against the same file', async () => {
    const r = await cli('token', 'create', '--site-admin', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.type).toBe('authentication-tokens');
    expect(doc.id).toMatch(/^at-[A-Za-z0-9]{16}$/);
    const token = doc.attributes.token;
    expect((await runCli(['org', 'create', 'x', '--email', 'x@x.test'], { ...env, BERTH_TOKEN: token })).code).toBe(0);
  });

  it('a user token cannot mint site-admin tokens or create users', async () => {
    await cli('user', 'create', 'carol', '--email', 'carol@acme.test');
    const token = (await cli('token', 'create', '--user', 'carol')).stdout.trim();
    const asCarol = { ...env, BERTH_TOKEN: token };
    expect((await runCli(['token', 'create', '--site-admin'], asCarol)).code).toBe(3);
    expect((await runCli(['user', 'create', 'mallory', '--email', 'm@m.test'], asCarol)).code).toBe(3);
  });

  it('without saying whose, mints a token of the caller: in local mode the user admin', async () => {
    const r = await cli('token', 'create');
    expect(r.code, r.stderr).toBe(0);
    const me = await runCli(['whoami', '--json'], { ...env, BERTH_TOKEN: r.stdout.trim() });
    expect(JSON.parse(me.stdout).attributes.username).toBe('admin');
  });

  it('two processes opening a new database at once both succeed (migrations take turns)', async () => {
    const fresh = tempDb();
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) =>
        runCli(['org', 'create', `org-${n}`, '--email', `${n}@x.test`], { BERTH_DB: fresh.db }),
      ),
    );
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const orgs = JSON.parse((await runCli(['org', 'list', '--json'], { BERTH_DB: fresh.db })).stdout);
    expect(orgs.map((o: any) => o.id).sort()).toEqual(['org-a', 'org-b', 'org-c', 'org-d']);
    fresh.cleanup();
  });
});
