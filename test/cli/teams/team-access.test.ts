import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

describe('berth team access (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Payments')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web')).code).toBe(0);
    expect((await cli('team', 'create', 'devs')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('grants workspace access, changes its level, lists and removes it', async () => {
    const created = await json('team', 'access', 'devs', '--workspace', 'web', '--level', 'write');
    expect(created).toMatchObject({
      type: 'team-workspaces',
      attributes: { access: 'write', 'workspace-locking': true },
    });
    const human = await cli('team', 'access', 'devs', '--workspace', 'web', '--level', 'admin');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Team devs has admin access to workspace web\./);
    const updated = await json('team', 'access', 'devs', '--workspace', 'acme/web', '--level', 'plan');
    expect(updated.id).toBe(created.id);
    expect(updated.attributes.access).toBe('plan');

    const project = await json('team', 'access', 'devs', '--project', 'Payments', '--level', 'maintain');
    expect(project).toMatchObject({
      type: 'team-projects',
      attributes: { access: 'maintain', 'workspace-access': { create: true } },
    });

    const listed = await json('team', 'access', 'list', 'devs');
    expect(listed).toEqual([
      {
        kind: 'project',
        name: 'Payments',
        targetId: expect.stringMatching(/^prj-/),
        access: 'maintain',
        id: project.id,
      },
      { kind: 'workspace', name: 'web', targetId: expect.stringMatching(/^ws-/), access: 'plan', id: created.id },
    ]);
    const table = await cli('team', 'access', 'list', 'devs');
    expect(table.stdout).toMatch(/workspace\s+web\s+ws-\S+\s+plan/);

    expect(await json('team', 'access', 'devs', '--workspace', 'web', '--remove')).toEqual({
      removed: true,
      id: created.id,
    });
    expect(await json('team', 'access', 'devs', '--workspace', 'web', '--remove')).toEqual({ removed: false });
    expect((await cli('team', 'access', 'devs', '--project', 'Payments', '--remove')).code).toBe(0);
    expect((await cli('team', 'access', 'list', 'devs')).stdout).toMatch(/no project or workspace access/);
  });

  it('refuses bad usage (exit 2) and unknown names (exit 3)', async () => {
    expect((await cli('team', 'access', 'devs', '--workspace', 'web', '--level', 'maintain')).code).toBe(2);
    expect((await cli('team', 'access', 'devs', '--project', 'Payments', '--level', 'plan')).code).toBe(2);
    expect((await cli('team', 'access', 'devs', '--workspace', 'web')).code).toBe(2);
    expect(
      (await cli('team', 'access', 'devs', '--workspace', 'web', '--project', 'Payments', '--level', 'read')).code,
    ).toBe(2);
    expect((await cli('team', 'access', 'devs', '--workspace', 'web', '--level', 'read', '--remove')).code).toBe(2);
    expect((await cli('team', 'access', 'nobody', '--workspace', 'web', '--level', 'read')).code).toBe(3);
    expect((await cli('team', 'access', 'devs', '--workspace', 'nope', '--level', 'read')).code).toBe(3);
    expect((await cli('team', 'access', 'devs', '--project', 'Nope', '--level', 'read')).code).toBe(3);
  });
});
