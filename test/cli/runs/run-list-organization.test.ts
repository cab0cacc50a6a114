import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

/**
 * `berth run list --operation`, and `berth run list` without a workspace: the runs of every
 * workspace of the organization, with a WORKSPACE column naming them.
 */
describe('berth run list across an organization, and --operation', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const ids = async (...args: string[]) => {
    const res = await cli('run', 'list', ...args, '--json');
    expect(res.code, res.stderr).toBe(0);
    return (JSON.parse(res.stdout) as { id: string }[]).map((r) => r.id);
  };
  const record = async (ws: string, ...flags: string[]) => {
    const res = await cli('run', 'record', ws, '--status', 'applied', '--plan-ms', '10', ...flags, '--json');
    expect(res.code, res.stderr).toBe(0);
    return (JSON.parse(res.stdout) as { id: string }).id;
  };
  let web: string;
  let apiDestroy: string;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const ws of ['web', 'api']) expect((await cli('workspace', 'create', ws)).code).toBe(0);
    web = await record('web', '--message', 'deploy');
    apiDestroy = await record('api', '--destroy', '--message', 'tear down');
  });
  afterAll(() => tmp.cleanup());

  it('without a workspace lists the runs of every workspace of --org, naming their workspaces', async () => {
    expect(await ids()).toEqual([apiDestroy, web]);
    const table = await cli('run', 'list');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+WORKSPACE\s+STATUS/);
    expect(lines[1]).toMatch(new RegExp(`^${apiDestroy}\\s+api\\s+applied`));
    expect(lines[2]).toMatch(new RegExp(`^${web}\\s+web\\s+applied`));
    // A workspace's list keeps its columns.
    expect((await cli('run', 'list', 'web')).stdout).not.toContain('WORKSPACE');
  });

  it('--operation keeps the runs of those operations; an unknown one is a usage error', async () => {
    expect(await ids('--operation', 'destroy')).toEqual([apiDestroy]);
    expect(await ids('api', '--operation', 'destroy')).toEqual([apiDestroy]);
    expect(await ids('web', '--operation', 'destroy')).toEqual([]);
    expect(await ids('--operation', 'plan_and_apply,destroy', '--status', 'applied')).toEqual([apiDestroy, web]);
    const bad = await cli('run', 'list', '--operation', 'apply');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown operation apply');
    expect(bad.stderr).toContain('plan_and_apply');
  });

  it('without a workspace or an organization says what to give', async () => {
    const res = await runCli(['run', 'list'], { BERTH_DB: tmp.db });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('give a WORKSPACE, or an organization');
  });
});
