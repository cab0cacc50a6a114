import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

describe('berth workspace retention, org retention, maintenance prune (local mode, self-hosted)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const exec = (statement: string, ...params: unknown[]) => {
    const conn = new Database(db.path);
    try {
      return conn.prepare(statement).run(...params);
    } finally {
      conn.close();
    }
  };
  const count = (workspaceId: string) => {
    const conn = new Database(db.path, { readonly: true });
    try {
      return (
        conn.prepare('select count(*) as n from state_versions where workspace_id = ?').get(workspaceId) as {
          n: number;
        }
      ).n;
    } finally {
      conn.close();
    }
  };
  let wsId: string;

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    wsId = (await json('workspace', 'create', 'app')).id;
  });
  afterAll(() => db.cleanup());

  it("show answers the site-wide default (don't delete) while no policy exists", async () => {
    for (const args of [
      ['workspace', 'retention', 'show', 'app'],
      ['org', 'retention', 'show'],
      ['admin', 'retention', 'show'],
    ]) {
      const res = await berth(...args);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain("don't delete");
      expect(res.stdout).toContain('the site-wide default');
    }
  });

  it('admin retention set/show/delete: the site-wide default reaches workspaces without a policy', async () => {
    const set = await json('admin', 'retention', 'set', '--delete-older-than-days', '400');
    expect(set).toMatchObject({ attributes: { 'delete-older-than-n-days': 400 } });
    expect((await berth('workspace', 'retention', 'show', 'app')).stdout).toContain('older than 400 days');
    expect((await berth('admin', 'retention', 'delete')).code).toBe(0);
    expect((await berth('workspace', 'retention', 'show', 'app')).stdout).toContain("don't delete");
  });

  it('org retention set/show (by argument or --org)', async () => {
    const set = await json('org', 'retention', 'set', 'acme', '--delete-older-than-days', '90');
    expect(set).toMatchObject({
      type: 'data-retention-policy-delete-olders',
      attributes: { 'delete-older-than-n-days': 90 },
    });
    const human = await berth('org', 'retention', 'show');
    expect(human.stdout).toContain('delete state versions and runs older than 90 days');
    expect(human.stdout).toContain('organization acme');
    // The workspace reads the organization's default.
    expect((await berth('workspace', 'retention', 'show', 'app')).stdout).toContain('organization acme');
  });

  it('workspace retention set --dont-delete / --delete-older-than-days, show, delete', async () => {
    const keep = await json('workspace', 'retention', 'set', 'app', '--dont-delete');
    expect(keep.type).toBe('data-retention-policy-dont-deletes');
    expect((await berth('workspace', 'retention', 'show', 'acme/app')).stdout).toContain("don't delete");
    const days = await json('workspace', 'retention', 'set', wsId, '--delete-older-than-days', '1');
    expect(days).toMatchObject({ id: keep.id, attributes: { 'delete-older-than-n-days': 1 } });
    expect((await json('workspace', 'show', 'app')).relationships['data-retention-policy'].data).toEqual({
      id: keep.id,
      type: 'data-retention-policy-delete-olders',
    });
  });

  it('set needs exactly one of the two flags (exit 2); days below 1 are refused', async () => {
    expect((await berth('workspace', 'retention', 'set', 'app')).code).toBe(2);
    expect(
      (await berth('workspace', 'retention', 'set', 'app', '--dont-delete', '--delete-older-than-days', '3')).code,
    ).toBe(2);
    expect((await berth('org', 'retention', 'set', '--delete-older-than-days', '0')).code).toBe(2);
  });

  it('maintenance prune deletes old state versions but keeps the current one', async () => {
    const old = new Date(Date.now() - 5 * 86_400_000).toISOString();
    for (const [id, at] of [
      ['sv-AAAAAAAAAAAAAAA1', old],
      ['sv-AAAAAAAAAAAAAAA2', old],
      ['sv-AAAAAAAAAAAAAAA3', new Date().toISOString()],
    ]) {
      exec(
        "insert into state_versions (id, workspace_id, serial, md5, status, intermediate, resource_count, size, url_secret, created_at) values (?, ?, 1, 'x', 'finalized', 0, 0, 2, 's', ?)",
        id,
        wsId,
        at,
      );
    }
    exec("update workspaces set current_state_version_id = 'sv-AAAAAAAAAAAAAAA1' where id = ?", wsId);
    // --dry-run counts and deletes nothing; without --yes off a terminal, prune refuses (2).
    expect(await json('maintenance', 'prune', '--dry-run')).toEqual({
      workspaces: 1,
      'state-versions': 1,
      runs: 0,
      'dry-run': true,
    });
    expect((await berth('maintenance', 'prune', '--dry-run')).stdout).toMatch(
      /nothing was deleted[\s\S]*State versions deleted\s+1/,
    );
    expect(count(wsId)).toBe(3);
    const refused = await berth('maintenance', 'prune');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Pruning deletes 1 state version and 0 runs in 1 workspace.');
    expect(count(wsId)).toBe(3);
    const res = await json('maintenance', 'prune', '--yes');
    expect(res).toEqual({ workspaces: 1, 'state-versions': 1, runs: 0 });
    expect(count(wsId)).toBe(2);
    const human = await berth('maintenance', 'prune');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Nothing to prune[\s\S]*State versions deleted\s+0/);
  });

  it('delete removes the workspace policy and then the organization default', async () => {
    expect((await berth('workspace', 'retention', 'delete', 'app')).code).toBe(0);
    expect((await berth('workspace', 'retention', 'show', 'app')).stdout).toContain('organization acme');
    expect((await berth('org', 'retention', 'delete', 'acme')).code).toBe(0);
    expect((await berth('workspace', 'retention', 'show', 'app')).stdout).toContain('the site-wide default');
  });
});

describe('retention commands in the hosted edition', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);

  afterAll(() => db.cleanup());

  it('answer not found (exit 3)', async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    const conn = new Database(db.path);
    conn
      .prepare(
        "insert into settings (key, value) values ('edition', 'hosted') on conflict(key) do update set value = excluded.value",
      )
      .run();
    conn.close();
    expect((await berth('workspace', 'create', 'app')).code).toBe(0);
    for (const args of [
      ['org', 'retention', 'set', '--dont-delete'],
      ['workspace', 'retention', 'show', 'app'],
      ['maintenance', 'prune'],
    ]) {
      const res = await berth(...args);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(3);
    }
  });
});
