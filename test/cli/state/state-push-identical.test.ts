import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

// Issue 33, item 17.9: pushing the same state twice made two state versions.
describe('state push of the state the workspace already has', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const stateFile = (name: string, serial: number, outputs: Record<string, unknown> = {}) => {
    const path = join(tmp.dir, name);
    writeFileSync(path, JSON.stringify({ version: 4, serial, lineage: 'lin-1', resources: [], outputs }));
    return path;
  };

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('is a no-op that says so (exit 0); --json prints the current version', async () => {
    const file = stateFile('s1.json', 1);
    const first = await cli('state', 'push', 'app', file, '--json');
    expect(first.code, first.stderr).toBe(0);
    const sv = JSON.parse(first.stdout);
    const again = await cli('state', 'push', 'app', file);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `Nothing was pushed: ${file} is the workspace's current state (serial 1, same lineage and content, ${sv.id}).\n`,
    );
    const asJson = await cli('state', 'push', 'app', file, '--json');
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout).id).toBe(sv.id);
    expect(asJson.stderr).toContain('Nothing was pushed');
    expect(await json('state', 'list', 'app')).toHaveLength(1);
  });

  it('the same serial with other content is still pushed (the API decides, as HCP Terraform does)', async () => {
    const res = await cli('state', 'push', 'app', stateFile('s1b.json', 1, { x: { value: 1, type: 'number' } }));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Pushed state serial 1');
    expect(await json('state', 'list', 'app')).toHaveLength(2);
  });
});
