import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointerLabel, withFlagNames } from '../../../src/cli/common/api-names.js';
import { runCli, tempDb } from '../../helpers/cli.js';

// The small things of issue 21 that each surprised someone.
describe('CLI small ones', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const stateFile = (name: string, serial: number, lineage: string) => {
    const path = join(tmp.dir, name);
    writeFileSync(path, JSON.stringify({ version: 4, serial, lineage, resources: [], outputs: {} }));
    return path;
  };

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('org show without NAME shows $BERTH_ORG; without any organization it is a usage error', async () => {
    const res = await cli('org', 'show', '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe('acme');
    expect((await runCli(['org', 'show'], { BERTH_DB: tmp.db })).code).toBe(2);
  });

  it('an organization name in another case is taken (5)', async () => {
    const res = await cli('org', 'create', 'Acme', '--email', 'x@acme.test');
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('Name has already been taken (name)');
  });

  it('state push refuses another lineage or an older serial unless --force, as terraform does', async () => {
    expect((await cli('state', 'push', 'app', stateFile('a.json', 3, 'lineage-a'))).code).toBe(0);
    const other = await cli('state', 'push', 'app', stateFile('b.json', 9, 'lineage-b'));
    expect(other.code).toBe(5);
    expect(other.stderr).toContain(
      "b.json is of lineage lineage-b, not the workspace's current lineage lineage-a: it is another state. Nothing was pushed; pass --force",
    );
    const older = await cli('state', 'push', 'app', stateFile('c.json', 1, 'lineage-a'));
    expect(older.code).toBe(5);
    expect(older.stderr).toContain('has serial 1, older than serial 3 of the same lineage');
    const list = JSON.parse((await cli('state', 'list', 'app', '--json')).stdout);
    expect(list).toHaveLength(1);
    expect((await cli('workspace', 'show', 'app', '--json')).stdout).toContain('"locked": false');
    // Holding the lock already, the API's 409 for the lineage is no lock to take: the same refusal.
    expect((await cli('workspace', 'lock', 'app')).code).toBe(0);
    const held = await cli('state', 'push', 'app', stateFile('b.json', 9, 'lineage-b'));
    expect(held.code, held.stderr).toBe(5);
    expect(held.stderr).toContain("b.json is of lineage lineage-b, not the workspace's current lineage lineage-a");
    expect((await cli('workspace', 'unlock', 'app')).code).toBe(0);
    const forced = await cli('state', 'push', 'app', stateFile('b.json', 9, 'lineage-b'), '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse((await cli('state', 'list', 'app', '--json')).stdout)).toHaveLength(2);
  });

  it("API errors name the CLI's flags and arguments, not query parameters and JSON pointers", async () => {
    const actor = await cli('audit', 'list', '--actor', 'bogus');
    expect(actor.code).toBe(5);
    expect(actor.stderr).toContain('Error: bad request: --actor must be');
    expect(actor.stderr).not.toContain('filter[');
    const key = await cli('workspace', 'tag-bindings', 'add', 'app', 'a b=1');
    expect(key.code).toBe(5);
    expect(key.stderr).toMatch(/Key is invalid: .* \(#1 key\)\n$/);
    const reserved = await cli('workspace', 'create', 'w2', '--tag', 'ok=1', '--tag', 'hc:x=1');
    expect(reserved.stderr).toContain('(tag #2 key)');
    expect(reserved.stderr).not.toContain('/data/');
    // The translations themselves.
    expect(withFlagNames('filter[current-run][status] and search[wildcard-name] and page[size]')).toBe(
      '--run-status and --wildcard and --page-size',
    );
    expect(pointerLabel('/data/attributes/vcs-repo/branch')).toBe('vcs-repo.branch');
    expect(pointerLabel('/data/relationships/project/data/id')).toBe('project');
    expect(pointerLabel('/data')).toBe('');
  });
});
