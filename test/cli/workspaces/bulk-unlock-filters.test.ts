import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

// `ws unlock --all-matching -p data --force` once released someone else's migration lock: bulk
// unlock selects by holder and reason, and its preview says who holds each lock and why.
describe('workspace unlock --all-matching --locked-by / --reason-match (issue 33)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let aliceEnv: Record<string, string>;

  const lockState = async () => {
    const res = await cli('workspace', 'list', '--project', 'data', '--json');
    expect(res.code, res.stderr).toBe(0);
    return Object.fromEntries(
      (JSON.parse(res.stdout) as { attributes: { name: string; locked: boolean } }[]).map((w) => [
        w.attributes.name,
        w.attributes.locked,
      ]),
    );
  };

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'data')).code).toBe(0);
    for (const ws of ['etl', 'warehouse', 'lake'])
      expect((await cli('workspace', 'create', ws, '--project', 'data')).code).toBe(0);
    await cli('user', 'create', 'alice', '--email', 'alice@acme.test');
    const token = (await cli('token', 'create', '--user', 'alice')).stdout.trim();
    await cliJoin(env, 'acme', 'alice@acme.test', token, ['owners']);
    aliceEnv = { ...env, BERTH_TOKEN: token };
    expect((await runCli(['workspace', 'lock', 'etl', '--reason', 'schema migration'], aliceEnv)).code).toBe(0);
    expect((await cli('workspace', 'lock', 'warehouse', '--reason', 'Freeze for release')).code).toBe(0);
    expect((await cli('workspace', 'lock', 'lake', '--reason', 'cost review')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('the preview names each holder and reason', async () => {
    const res = await cli('workspace', 'unlock', '--all-matching', '--project', 'data', '--dry-run');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/LOCKED BY\s+SINCE\s+REASON/);
    expect(res.stderr).toMatch(/etl\s+alice \(user\)\s+just now\s+schema migration/);
    expect(res.stderr).toMatch(/warehouse\s+admin \(user\)\s+just now\s+Freeze for release/);
    expect(res.stdout).toMatch(/etl\s+ws-\S+\s+alice \(user\)\s+schema migration\s+would change/);
    expect(res.stderr + res.stdout).not.toMatch(/user-[A-Za-z0-9]{16}/);
    expect(await lockState()).toEqual({ etl: true, warehouse: true, lake: true });
  });

  it('--locked-by keeps only the locks that user holds, even with --force', async () => {
    const res = await cli(
      'workspace',
      'unlock',
      '--all-matching',
      '--project',
      'data',
      '--locked-by',
      'admin',
      '--reason-match',
      'freeze',
      '--force',
      '--yes',
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('1 succeeded, 0 failed.');
    expect(await lockState()).toEqual({ etl: true, warehouse: false, lake: true });
    const byHolder = await cli('workspace', 'unlock', '--all-matching', '-p', 'data', '--locked-by', 'ADMIN', '--yes');
    expect(byHolder.code, byHolder.stderr).toBe(0);
    expect(await lockState()).toEqual({ etl: true, warehouse: false, lake: false });
  });

  it('--reason-match alone is a filter; no match changes nothing; both need --all-matching', async () => {
    const none = await cli('workspace', 'unlock', '--all-matching', '--reason-match', 'nothing like this', '--force');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('No matching workspace is locked.\n');
    const res = await cli('workspace', 'unlock', '--all-matching', '--reason-match', 'MIGRATION', '--force', '--yes');
    expect(res.code, res.stderr).toBe(0);
    expect(await lockState()).toEqual({ etl: false, warehouse: false, lake: false });
    expect((await cli('workspace', 'unlock', 'etl', '--locked-by', 'alice')).code).toBe(2);
  });
});
