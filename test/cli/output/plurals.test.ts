import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plural } from '../../../src/domain/common/plural.js';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33, item 17.1: "1 workspaces". Every count message says one thing in the singular.
describe('count messages: singular and plural', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
    expect((await cli('project', 'create', 'Platform')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('the helper', () => {
    expect(plural(0, 'workspace')).toBe('0 workspaces');
    expect(plural(1, 'workspace')).toBe('1 workspace');
    expect(plural(2, 'workspace is', 'workspaces are')).toBe('2 workspaces are');
  });

  it('one workspace, one resource, one team', async () => {
    const state = join(tmp.dir, 'one.json');
    writeFileSync(
      state,
      JSON.stringify({
        version: 4,
        serial: 1,
        lineage: 'l-1',
        outputs: {},
        resources: [{ mode: 'managed', type: 'null_resource', name: 'a', provider: 'p', instances: [{}] }],
      }),
    );
    const push = await cli('state', 'push', 'app', state);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain('(1 resource)');

    const bulk = await cli('workspace', 'lock', '--all-matching', '--wildcard', 'app*');
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toContain('refusing to act on 1 workspace without --yes');

    const move = await cli('project', 'move-workspaces', 'Platform', 'app', '--dry-run');
    expect(move.stdout).toContain('would move 1 workspace into');
    expect(move.stdout).not.toContain('(s)');

    const del = await cli('org', 'delete', 'acme', '--dry-run');
    expect(del.stdout).toContain('2 projects, 1 workspace and 1 team');
    expect(del.stdout).not.toContain('(s)');
  });
});
