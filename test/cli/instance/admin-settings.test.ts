import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

describe('berth admin settings (local mode: the local site administrator)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('show reads the default; set changes what new workspaces get', async () => {
    // Terraform Enterprise's default: every workspace of the organization.
    expect((await json('admin', 'settings', 'show')).attributes).toEqual({ 'default-remote-state-access': true });
    expect((await json('workspace', 'create', 'shared')).attributes['global-remote-state']).toBe(true);
    const set = await json('admin', 'settings', 'set', '--no-default-remote-state-access');
    expect(set.attributes['default-remote-state-access']).toBe(false);
    const shown = await berth('admin', 'settings', 'show');
    expect(shown.stdout).toMatch(/Default remote state access\s+approved consumers only/);
    expect((await json('workspace', 'create', 'private')).attributes['global-remote-state']).toBe(false);
    await json('admin', 'settings', 'set', '--default-remote-state-access');
    expect((await json('workspace', 'create', 'open')).attributes['global-remote-state']).toBe(true);
  });

  it('set without a setting is a usage error (exit 2) that changes nothing', async () => {
    const res = await berth('admin', 'settings', 'set');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--default-remote-state-access');
    expect((await json('admin', 'settings', 'show')).attributes['default-remote-state-access']).toBe(true);
  });
});
