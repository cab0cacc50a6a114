import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33, item 17.3: moving workspaces of which some already are in the project said "Moved 2".
describe('project move-workspaces with workspaces already in the project', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Platform')).code).toBe(0);
    for (const name of ['app-1', 'app-2']) expect((await cli('workspace', 'create', name)).code).toBe(0);
    expect((await cli('project', 'move-workspaces', 'Platform', 'app-1')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('reports what moved and what was already there', async () => {
    const res = await cli('project', 'move-workspaces', 'Platform', 'app-1', 'app-2');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('Moved 1 workspace into Platform: app-2. app-1 was already in Platform.\n');
  });

  it('all already there: nothing moves, exit 0; --json lists them apart from the moved ones', async () => {
    const res = await cli('project', 'move-workspaces', 'Platform', 'app-1', 'app-2', '--json');
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.moved).toEqual([]);
    expect(out['already-in-project']).toHaveLength(2);
    const human = await cli('project', 'move-workspaces', 'Platform', 'app-2');
    expect(human.stdout).toBe('Nothing to move. app-2 was already in Platform.\n');
  });
});
