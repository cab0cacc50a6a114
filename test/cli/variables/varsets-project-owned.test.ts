import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `berth varset create --project`: a set owned by a project, shown with its owner, listed under the project (local mode). */
describe('berth varset: project-owned sets (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  let platform: string;

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    platform = (await json('project', 'create', 'Platform')).id;
    expect((await berth('project', 'create', 'Data')).code).toBe(0);
    expect((await berth('workspace', 'create', 'app-prod', '--project', 'Platform')).code).toBe(0);
    expect((await berth('workspace', 'create', 'etl', '--project', 'Data')).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('create --project makes a set the project owns; show names the owner; list --project lists it', async () => {
    const res = await berth('varset', 'create', 'platform-defaults', '--project', 'Platform');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Created variable set platform-defaults.');
    expect(res.stdout).toMatch(/Owner\s+project Platform/);
    const set = await json('varset', 'show', 'platform-defaults');
    expect(set.relationships.parent.data).toEqual({ type: 'projects', id: platform });
    expect((await berth('varset', 'show', 'platform-defaults')).stdout).toMatch(
      new RegExp(`Owner\\s+project ${platform}`),
    );
    expect((await berth('varset', 'create', 'org-set')).code).toBe(0);
    expect((await berth('varset', 'show', 'org-set')).stdout).toMatch(/Owner\s+organization acme/);
    expect((await json('varset', 'list', '--project', 'Platform')).map((s: any) => s.attributes.name)).toEqual([
      'platform-defaults',
    ]);
    expect(await json('varset', 'list', '--project', 'Data')).toEqual([]);
  });

  it('applies within its project only; --project with --global is refused', async () => {
    const inside = await berth('varset', 'apply', 'platform-defaults', '--workspace', 'app-prod');
    expect(inside.code, inside.stderr).toBe(0);
    const outside = await berth('varset', 'apply', 'platform-defaults', '--workspace', 'etl');
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain('applies only to its workspaces');
    const both = await berth('varset', 'create', 'x', '--project', 'Platform', '--global');
    expect(both.code).not.toBe(0);
  });
});
