import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `workspace list --locked / --no-locked` and `--sort locked-at`: the locks board in the terminal. */
describe('workspace list by lock', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli, { quiet: true });
  const names = (list: any[]) => list.map((w) => w.attributes.name);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    for (const name of ['one', 'two', 'three', 'four']) expect((await cli('workspace', 'create', name)).code).toBe(0);
    // Locked in this order: three first (the oldest lock), then one.
    expect((await cli('workspace', 'lock', 'three', '--reason', 'first')).code).toBe(0);
    await new Promise((r) => setTimeout(r, 20));
    expect((await cli('workspace', 'lock', 'one', '--reason', 'second')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('--locked lists only the locked workspaces, --no-locked only the others', async () => {
    expect(names(await json('workspace', 'list', '--locked', '--sort', 'name'))).toEqual(['one', 'three']);
    expect(names(await json('workspace', 'list', '--no-locked', '--sort', 'name'))).toEqual(['four', 'two']);
    const table = await cli('workspace', 'list', '--locked');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('three');
    expect(table.stdout).not.toContain('four');
  });

  it('--sort locked-at puts the oldest lock first, -locked-at the newest', async () => {
    expect(names(await json('workspace', 'list', '--locked', '--sort', 'locked-at'))).toEqual(['three', 'one']);
    expect(names(await json('workspace', 'list', '--locked', '--sort', '-locked-at'))).toEqual(['one', 'three']);
  });
});
