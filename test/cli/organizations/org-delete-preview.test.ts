import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInPty, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

const FIXTURE = new URL('../../fixtures/state-small.json', import.meta.url).pathname;

// `org delete` says what would be lost (workspaces that manage resources, locks and their
// holders), asks for the name typed back, and refuses a non-owner before saying anything.
describe('org delete: what would be lost, and the name typed back (issue 33)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bobEnv: Record<string, string>;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const ws of ['app-prod', 'etl', 'empty']) expect((await cli('workspace', 'create', ws)).code).toBe(0);
    expect((await cli('state', 'push', 'app-prod', FIXTURE)).code).toBe(0);
    await cli('user', 'create', 'alice', '--email', 'alice@acme.test');
    const alice = (await cli('token', 'create', '--user', 'alice')).stdout.trim();
    await cliJoin(env, 'acme', 'alice@acme.test', alice, ['owners']);
    expect(
      (await runCli(['workspace', 'lock', 'etl', '--reason', 'schema migration'], { ...env, BERTH_TOKEN: alice })).code,
    ).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    const bob = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    expect((await cli('team', 'create', 'devs')).code).toBe(0);
    await cliJoin(env, 'acme', 'bob@acme.test', bob, ['devs']);
    bobEnv = { ...env, BERTH_TOKEN: bob };
  });
  afterAll(() => tmp.cleanup());

  it('--dry-run names the workspaces that manage resources (how many) and the locks (by whom, why)', async () => {
    const res = await cli('org', 'delete', 'acme', '--dry-run');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('3 workspaces');
    expect(res.stdout).toContain('1 workspace still manages resources');
    expect(res.stdout).toContain('  app-prod: 3 resources');
    expect(res.stdout).toContain('1 workspace is locked:');
    expect(res.stdout).toMatch(/ {2}etl: locked by alice \(user\) since .*: "schema migration"/);
    expect(res.stdout).not.toMatch(/user-[A-Za-z0-9]{16}/);
    const json = JSON.parse((await cli('org', 'delete', 'acme', '--dry-run', '--json')).stdout);
    expect(json['workspaces-with-resources']).toMatchObject([{ name: 'app-prod', 'resource-count': 3 }]);
    expect(json['locked-workspaces']).toMatchObject([
      { name: 'etl', 'locked-by': { type: 'users', name: 'alice' }, 'locked-reason': 'schema migration' },
    ]);
  });

  it('a non-owner is refused before anything is announced: exit 3, the organization by name', async () => {
    const res = await runCli(['org', 'delete', 'acme', '--yes'], bobEnv);
    expect(res.code).toBe(3);
    expect(res.stderr).not.toContain('Deleting');
    expect(res.stderr).toContain('not authorized to delete organization acme');
    expect((await cli('org', 'show', 'acme')).code).toBe(0);
  });

  it("on a terminal it shows what would be lost and asks for the organization's name", async () => {
    const wrong = await runCliInPty(
      ['org', 'delete', 'acme'],
      [{ expect: 'Type the name (acme) to confirm', send: 'yes\r' }],
      env,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain('app-prod: 3 resources');
    expect(wrong.output).toContain('etl: locked by alice (user)');
    expect(wrong.output).toContain('aborted');
    expect((await cli('org', 'show', 'acme')).code).toBe(0);
    const right = await runCliInPty(
      ['org', 'delete', 'acme'],
      [{ expect: 'Type the name (acme) to confirm', send: 'acme\r' }],
      env,
    );
    expect(right.code, right.output).toBe(0);
    expect(right.output).toContain('Deleted organization acme.');
    expect((await cli('org', 'show', 'acme')).code).toBe(3);
  });
});
