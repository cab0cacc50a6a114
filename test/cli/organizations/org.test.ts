import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

describe('berth org (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    const r = await cli('org', 'create', 'acme', '--email', 'ops@acme.test');
    expect(r.code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('creates an organization and prints it as JSON', async () => {
    const r = await cli('org', 'create', 'beta', '--email', 'b@beta.test', '--json');
    expect(r.code).toBe(0);
    const org = JSON.parse(r.stdout);
    expect(org).toMatchObject({
      id: 'beta',
      type: 'organizations',
      attributes: { name: 'beta', email: 'b@beta.test' },
    });
    expect(org.relationships['default-project'].data.id).toMatch(/^prj-/);
  });

  it('org create creates the database file (and its folder) on first use', async () => {
    const nested = tempDb();
    const env = { BERTH_DB: `${nested.dir}/deep/er/b.db` };
    expect((await runCli(['org', 'create', 'first', '--email', 'f@first.test'], env)).code).toBe(0);
    const r = await runCli(['org', 'list', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((o: { id: string }) => o.id)).toEqual(['first']);
    nested.cleanup();
  });

  it('lists organizations as a table and as JSON', async () => {
    const table = await cli('org', 'list');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+EMAIL\s+EXECUTION MODE\s+CREATED/);
    expect(table.stdout).toContain('acme');
    expect(table.stdout).toContain('ops@acme.test');
    expect(table.stdout).not.toContain('\u001b['); // no colour when not a terminal
    const json = await cli('org', 'list', '--json');
    const names = JSON.parse(json.stdout).map((o: any) => o.id);
    expect(names).toContain('acme');
  });

  it('shows one organization as key-value fields', async () => {
    const r = await cli('org', 'show', 'acme');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Name\s+acme/);
    // The default project by name, not by id.
    expect(r.stdout).toMatch(/Default project\s+Default Project\n/);
  });

  it('updates settings', async () => {
    const r = await cli('org', 'update', 'acme', '--allow-force-delete-workspaces', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).attributes['allow-force-delete-workspaces']).toBe(true);
  });

  it('refuses an update with nothing to change (usage error, exit 2)', async () => {
    const r = await cli('org', 'update', 'acme');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to change');
  });

  it('exits 3 with a clear message for an unknown organization', async () => {
    const r = await cli('org', 'show', 'nope');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: not found');
    expect(r.stdout).toBe('');
  });

  it('exits 5 for invalid input and changes nothing', async () => {
    const r = await cli('org', 'create', 'bad name', '--email', 'x@y.z');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/invalid attribute: Name may only contain/);
    const list = JSON.parse((await cli('org', 'list', '--json')).stdout);
    expect(list.map((o: any) => o.id)).not.toContain('bad name');
  });

  it('exits 5 for a duplicate name', async () => {
    const r = await cli('org', 'create', 'acme', '--email', 'x@y.z');
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Name has already been taken');
  });

  it('exits 2 when a required flag is missing', async () => {
    const r = await cli('org', 'create', 'gamma');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/email/);
  });

  it('refuses to delete without --yes when not on a terminal, then deletes with it', async () => {
    await cli('org', 'create', 'doomed', '--email', 'd@d.test');
    const refused = await cli('org', 'delete', 'doomed');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await cli('org', 'show', 'doomed')).code).toBe(0);
    const deleted = await cli('org', 'delete', 'doomed', '--yes', '--json');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: 'doomed', type: 'organizations', deleted: true });
    expect((await cli('org', 'show', 'doomed')).code).toBe(3);
  });

  it('acts as a user with --token: the user sees only its organizations', async () => {
    expect((await cli('user', 'create', 'alice', '--email', 'alice@acme.test')).code).toBe(0);
    const tok = await cli('token', 'create', '--user', 'alice');
    expect(tok.code).toBe(0);
    const token = tok.stdout.trim();
    expect(token).toMatch(/^berth\./);
    expect(tok.stderr).toContain('shown only this once');
    const mine = await runCli(['org', 'create', 'alices', '--email', 'a@a.test', '--token', token], env);
    expect(mine.code).toBe(0);
    const seen = JSON.parse((await runCli(['org', 'list', '--json'], { ...env, BERTH_TOKEN: token })).stdout);
    expect(seen.map((o: any) => o.id)).toEqual(['alices']);
    const denied = await runCli(['org', 'show', 'acme'], { ...env, BERTH_TOKEN: token });
    expect(denied.code).toBe(3);
  });

  it('exits 6 for an unknown token', async () => {
    const r = await runCli(['org', 'list'], { ...env, BERTH_TOKEN: 'berth.nope.nope' });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('unauthorized');
  });

  it('exits 7 when the server cannot be reached', async () => {
    const r = await runCli(['org', 'list', '--server', 'http://127.0.0.1:9'], env);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('cannot reach');
  });

  it('lists every command in --help', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const topic of ['org', 'token', 'user', 'serve']) expect(r.stdout).toContain(topic);
    const org = await cli('org', '--help');
    for (const cmd of ['org create', 'org delete', 'org list', 'org show', 'org update'])
      expect(org.stdout).toContain(cmd);
  });
});
