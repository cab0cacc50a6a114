import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

describe('berth run record on a locked workspace (issue 33)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bobToken: string;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const ws of ['mine', 'theirs']) expect((await cli('workspace', 'create', ws)).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    bobToken = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    await cliJoin(env, 'acme', 'bob@acme.test', bobToken, ['owners']);
  });
  afterAll(() => tmp.cleanup());

  it('records a run on a workspace the caller has locked, and the caller keeps the lock', async () => {
    expect((await cli('workspace', 'lock', 'mine', '--reason', 'importing history')).code).toBe(0);
    const res = await cli('run', 'record', 'mine', '--status', 'applied', '--plan-ms', '1000', '--apply-ms', '2000');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('(applied)');
    const ws = JSON.parse((await cli('workspace', 'show', 'mine', '--json')).stdout);
    expect(ws.attributes).toMatchObject({ locked: true, 'locked-reason': 'importing history' });
    const shown = await cli('workspace', 'show', 'mine');
    expect(shown.stdout).toMatch(/Locked\s+yes, locked by admin \(user\)/);
    const runs = JSON.parse((await cli('run', 'list', 'mine', '--json')).stdout);
    expect(runs.map((r: { attributes: { status: string } }) => r.attributes.status)).toEqual(['applied']);
  });

  it('refuses a workspace locked by someone else before creating anything: exit 8, the holder by name', async () => {
    expect(
      (await runCli(['workspace', 'lock', 'acme/theirs', '--reason', 'migration'], { ...env, BERTH_TOKEN: bobToken }))
        .code,
    ).toBe(0);
    const res = await cli('run', 'record', 'theirs', '--status', 'applied', '--plan-ms', '1000');
    expect(res.code).toBe(8);
    expect(res.stderr).toMatch(
      /Workspace theirs is locked by bob \(user\) since .*"migration"; a run cannot be recorded/,
    );
    expect(res.stderr).not.toMatch(/user-[A-Za-z0-9]{16}/);
    expect(res.stderr).not.toMatch(/unlock workspace/);
    // Nothing changed: no run, no current run, nothing pending.
    expect(JSON.parse((await cli('run', 'list', 'theirs', '--json')).stdout)).toEqual([]);
    const pending = await cli('workspace', 'list', '--run-status', 'pending', '--json');
    expect(JSON.parse(pending.stdout)).toEqual([]);
  });

  it('run list --status lists only the runs in those statuses; an unknown status is a usage error', async () => {
    const res = await cli('run', 'record', 'mine', '--status', 'errored', '--plan-ms', '500');
    expect(res.code, res.stderr).toBe(0);
    const statuses = async (...flags: string[]) =>
      JSON.parse((await cli('run', 'list', 'mine', '--json', ...flags)).stdout).map(
        (r: { attributes: { status: string } }) => r.attributes.status,
      );
    expect(await statuses()).toEqual(['errored', 'applied']);
    expect(await statuses('--status', 'applied')).toEqual(['applied']);
    expect(await statuses('--status', 'applied,errored', '--page-size', '1')).toEqual(['errored']);
    const bad = await cli('run', 'list', 'mine', '--status', 'applied,finished');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown status finished');
  });
});
