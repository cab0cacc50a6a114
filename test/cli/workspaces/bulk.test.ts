import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

describe('bulk lock and unlock (--all-matching)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bob: Record<string, string>;

  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    for (const name of ['app-1', 'app-2', 'app-3', 'db-1'])
      expect((await cli('workspace', 'create', name)).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    bob = { ...env, BERTH_TOKEN: (await cli('token', 'create', '--user', 'bob')).stdout.trim() };
    await cliJoin(env, 'acme', 'bob@acme.test', bob.BERTH_TOKEN, ['owners']);
    // app-2 is held by someone else: the bulk lock must fail there and carry on.
    expect((await runCli(['workspace', 'lock', 'app-2', '--reason', 'bob was here'], bob)).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('needs a filter and, off a terminal, --yes', async () => {
    expect((await cli('workspace', 'lock', '--all-matching')).code).toBe(2);
    const refused = await cli('workspace', 'lock', '--all-matching', '--wildcard', 'app-*');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Locking 3 workspaces: app-1, app-2, app-3');
    expect(refused.stderr).toContain('refusing to act on 3 workspaces without --yes when not on a terminal');
    const ws = JSON.parse((await cli('workspace', 'list', '--json')).stdout);
    expect(ws.filter((w: any) => w.attributes.locked).map((w: any) => w.attributes.name)).toEqual(['app-2']);
  });

  it('locks every match, reports each result, and exits 8 because one was locked by someone else', async () => {
    const r = await cli(
      'workspace',
      'lock',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--reason',
      'freeze',
      '--yes',
      '--json',
    );
    expect(r.code).toBe(8);
    const results = JSON.parse(r.stdout);
    expect(results.map((x: any) => [x.name, x.ok])).toEqual([
      ['app-1', true],
      ['app-2', false],
      ['app-3', true],
    ]);
    // The holder by name, since when and why, as for a single lock.
    expect(results[1].error).toMatch(/Workspace app-2 is locked by bob \(user\) since .*: "bob was here"/);
    const ws = JSON.parse((await cli('workspace', 'list', '--json')).stdout);
    expect(Object.fromEntries(ws.map((w: any) => [w.attributes.name, w.attributes.locked]))).toEqual({
      'app-1': true,
      'app-2': true,
      'app-3': true,
      'db-1': false,
    });
  });

  it('reports workspaces the caller already holds as already held, not as failures', async () => {
    const again = await cli('workspace', 'lock', '--all-matching', '--wildcard', 'app-*', '--yes', '--json');
    expect(again.code).toBe(8);
    expect(JSON.parse(again.stdout).map((x: any) => [x.name, x.ok, x.note ?? null])).toEqual([
      ['app-1', true, 'already held'],
      ['app-2', false, null],
      ['app-3', true, 'already held'],
    ]);
    const table = await cli('workspace', 'lock', '--all-matching', '--search', 'app-1', '--yes');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/app-1\s+ws-\S+\s+already held/);
    expect(table.stdout).toContain('1 succeeded (1 already held), 0 failed.');
  });

  it('unlocks the locked matches, as a table', async () => {
    const r = await cli('workspace', 'unlock', '--all-matching', '--wildcard', 'app-*', '--yes');
    expect(r.code).toBe(8);
    // Each row says whose lock it was and why (the preview on stderr did too).
    expect(r.stdout).toMatch(/app-1\s+ws-\S+\s+admin \(user\)\s+freeze\s+ok/);
    expect(r.stdout).toMatch(
      /app-2\s+ws-\S+\s+bob \(user\)\s+bob was here\s+failed\s+conflict: Workspace app-2 is locked by bob \(user\)/,
    );
    expect(r.stderr).toMatch(/app-2\s+bob \(user\)\s+just now\s+bob was here/);
    expect(r.stdout).toContain('2 succeeded, 1 failed.');
    const forced = await cli(
      'workspace',
      'unlock',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--force',
      '--yes',
      '--json',
    );
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).map((x: any) => x.name)).toEqual(['app-2']);
  });
});

describe('bulk move into a project (--all-matching)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  afterAll(() => tmp.cleanup());

  it('moves every matching workspace in one all-or-nothing request', async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('project', 'create', 'Platform');
    for (const name of ['platform-a', 'platform-b', 'other']) await cli('workspace', 'create', name);
    const refused = await cli('project', 'move-workspaces', 'Platform', '--all-matching', '--wildcard', 'platform-*');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Moving into Platform 2 workspaces: platform-a, platform-b');
    expect(
      (await cli('project', 'move-workspaces', 'Platform', 'other', '--all-matching', '--wildcard', 'platform-*'))
        .stderr,
    ).toContain('not both');
    const moved = await cli(
      'project',
      'move-workspaces',
      'Platform',
      '--all-matching',
      '--wildcard',
      'platform-*',
      '--yes',
      '--json',
    );
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout).moved).toHaveLength(2);
    const inPlatform = JSON.parse((await cli('workspace', 'list', '--project', 'Platform', '--json')).stdout).map(
      (w: any) => w.attributes.name,
    );
    expect(inPlatform.sort()).toEqual(['platform-a', 'platform-b']);
    const again = await cli(
      'project',
      'move-workspaces',
      'Platform',
      '--all-matching',
      '--wildcard',
      'platform-*',
      '--yes',
    );
    expect(again.stdout).toContain('No matching workspace outside the project.');
  });
});

describe('bulk flat tags (--all-matching)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  afterAll(() => tmp.cleanup());

  it('adds the tags to every matching workspace, and reports each failure', async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    for (const name of ['web-1', 'web-2', 'web-3', 'db']) await cli('workspace', 'create', name);
    const ok = await cli(
      'workspace',
      'tags',
      'add',
      '--all-matching',
      '--wildcard',
      'web-*',
      'frozen',
      'Team:Web',
      '--yes',
      '--json',
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).map((r: any) => r.ok)).toEqual([true, true, true]);
    const tagged = JSON.parse((await cli('workspace', 'list', '--tags', 'frozen', '--json')).stdout).map(
      (w: any) => w.attributes.name,
    );
    expect(tagged.sort()).toEqual(['web-1', 'web-2', 'web-3']);
    expect(JSON.parse((await cli('workspace', 'show', 'web-2', '--json')).stdout).attributes['tag-names']).toEqual([
      'frozen',
      'team:web',
    ]);
    // An invalid tag fails for every workspace; each is reported and the exit code says invalid input.
    const bad = await cli('workspace', 'tags', 'add', '--all-matching', '--wildcard', 'web-*', 'not valid!', '--yes');
    expect(bad.code).toBe(5);
    expect(bad.stdout).toContain('0 succeeded, 3 failed.');
  });
});
