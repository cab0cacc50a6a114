import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

// Human output names things; ids stay in --json (issue 33).
describe('names, not ids, in human output', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bob: (...args: string[]) => ReturnType<typeof runCli>;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Web')).code).toBe(0);
    for (const ws of ['app', 'etl']) expect((await cli('workspace', 'create', ws, '--project', 'Web')).code).toBe(0);
    await cli('user', 'create', 'alice', '--email', 'alice@acme.test');
    const alice = (await cli('token', 'create', '--user', 'alice')).stdout.trim();
    await cliJoin(env, 'acme', 'alice@acme.test', alice, ['owners']);
    expect(
      (await runCli(['workspace', 'lock', 'etl', '--reason', 'migration'], { ...env, BERTH_TOKEN: alice })).code,
    ).toBe(0);
    expect((await cli('run', 'record', 'app', '--status', 'applied', '--plan-ms', '1000')).code).toBe(0);
    expect((await cli('team', 'create', 'readers')).code).toBe(0);
    expect((await cli('team', 'access', 'readers', '--workspace', 'app', '--level', 'read')).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    const token = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    await cliJoin(env, 'acme', 'bob@acme.test', token, ['readers']);
    bob = (...args: string[]) => runCli(args, { ...env, BERTH_TOKEN: token });
  });
  afterAll(() => tmp.cleanup());

  it('workspace list --columns locked-by,latest-run names the holder and the run; --json keeps ids', async () => {
    const res = await cli('workspace', 'list', '--columns', 'name,locked-by,latest-run');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/etl\s+alice \(user\)\s+-\n/);
    expect(res.stdout).toMatch(/app\s+-\s+applied, just now\n/);
    expect(res.stdout).not.toMatch(/(user|run)-[A-Za-z0-9]{16}/);
    const json = JSON.parse((await cli('workspace', 'list', '--json')).stdout);
    const etl = json.find((w: { attributes: { name: string } }) => w.attributes.name === 'etl');
    expect(etl.relationships['locked-by'].data.id).toMatch(/^user-/);
    // One page of a paged list names them too.
    const page = await cli('workspace', 'list', '--columns', 'name,locked-by', '--page', '1');
    expect(page.stdout).toMatch(/etl\s+alice \(user\)/);
  });

  it('errors name the workspace and the project', async () => {
    const update = await bob('workspace', 'update', 'app', '--description', 'mine now');
    expect(update.code).toBe(3);
    expect(update.stderr).toMatch(/not authorized to update workspace app \(ws-[A-Za-z0-9]{16}\)/);
    const del = await cli('project', 'delete', 'Web', '--yes');
    expect(del.code).toBe(4);
    expect(del.stderr).toMatch(/Project Web \(prj-[A-Za-z0-9]{16}\) still contains 2 workspaces/);
  });
});
