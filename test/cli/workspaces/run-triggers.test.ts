import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

describe('berth workspace triggers add|list|remove (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    for (const name of ['app', 'network', 'database']) expect((await berth('workspace', 'create', name)).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('add makes sources by name, and prints the SOURCE → TARGET rows', async () => {
    const res = await berth('workspace', 'triggers', 'add', 'app', 'network', 'acme/database');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Applies of network, database now queue runs in app.');
    expect(res.stdout).toMatch(/SOURCE\s+TARGET\s+ID\s+CREATED/);
    expect(res.stdout).toMatch(/network\s+app\s+rt-[A-Za-z0-9]{16}/);
    const again = await berth('workspace', 'triggers', 'add', 'app', 'network');
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already a run trigger source');
    const itself = await berth('workspace', 'triggers', 'add', 'app', 'app');
    expect(itself.code).toBe(5);
    expect((await berth('workspace', 'triggers', 'add', 'app')).code).toBe(2);
  });

  it('list shows inbound then outbound, --direction one of them, --json the resources', async () => {
    expect((await berth('workspace', 'triggers', 'add', 'network', 'database')).code).toBe(0);
    const all = await json('workspace', 'triggers', 'list', 'network');
    expect(all.map((t: any) => [t.attributes['sourceable-name'], t.attributes['workspace-name']])).toEqual([
      ['database', 'network'],
      ['network', 'app'],
    ]);
    const outbound = await json('workspace', 'triggers', 'list', 'database', '--direction', 'outbound');
    expect(outbound.map((t: any) => t.attributes['workspace-name'])).toEqual(['app', 'network']);
    const none = await berth('workspace', 'triggers', 'list', 'database', '--direction', 'inbound');
    expect(none.stdout.trim()).toBe('No run triggers.');
  });

  it('remove by source; a workspace that is no source is a not-found error and changes nothing', async () => {
    const missing = await berth('workspace', 'triggers', 'remove', 'app', 'network', 'app');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('app is not a run trigger source of app');
    expect(await json('workspace', 'triggers', 'list', 'app', '--direction', 'inbound')).toHaveLength(2);
    const res = await berth('workspace', 'triggers', 'remove', 'app', 'network');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Applies of network no longer queue runs in app.');
    const kept = await json('workspace', 'triggers', 'list', 'app', '--direction', 'inbound');
    expect(kept.map((t: any) => t.attributes['sourceable-name'])).toEqual(['database']);
  });
});
