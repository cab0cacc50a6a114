import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

describe('berth team, token and whoami (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('user', 'create', 'alice', '--email', 'alice@acme.test')).code).toBe(0);
    expect((await cli('user', 'create', 'bob', '--email', 'bob@acme.test')).code).toBe(0);
    // Only members of acme can be put in its teams.
    for (const name of ['alice', 'bob']) {
      const token = (await cli('token', 'create', '--user', name, '--description', 'join')).stdout.trim();
      await cliJoin(env, 'acme', `${name}@acme.test`, token);
    }
  });
  afterAll(() => tmp.cleanup());

  it('creates, updates, shows, lists and deletes teams', async () => {
    const created = await cli('team', 'create', 'platform', '--manage-workspaces', '--json');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).attributes['organization-access']['manage-workspaces']).toBe(true);
    const updated = await cli('team', 'update', 'platform', '--manage-projects', '--no-manage-workspaces', '--json');
    expect(JSON.parse(updated.stdout).attributes['organization-access']).toMatchObject({
      'manage-projects': true,
      'manage-workspaces': false,
    });
    const table = await cli('team', 'list');
    // The local operator (the admin user) created acme: it is its first owner.
    expect(table.stdout).toMatch(/owners\s+1\s+owners \(everything\)/);
    expect(table.stdout).toMatch(/platform\s+0\s+manage-projects/);
    expect((await cli('team', 'show', 'nope')).code).toBe(3);
    expect((await cli('team', 'delete', 'platform')).code).toBe(2);
    expect((await cli('team', 'delete', 'platform', '--yes')).code).toBe(0);
    expect((await cli('team', 'show', 'platform')).code).toBe(3);
  });

  it('adds and removes several members at once', async () => {
    await cli('team', 'create', 'devs');
    const added = await cli('team', 'add-member', 'devs', 'alice', 'bob', '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).attributes['users-count']).toBe(2);
    const shown = await cli('team', 'show', 'devs');
    expect(shown.stdout).toMatch(/Members\s+alice, bob/);
    const removed = await cli('team', 'remove-member', 'devs', 'bob', '--json');
    expect(JSON.parse(removed.stdout).attributes['users-count']).toBe(1);
    const unknown = await cli('team', 'add-member', 'devs', 'zed');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('zed');
    // carol exists but is no member of acme: the same answer as for a username nobody has.
    await cli('user', 'create', 'carol', '--email', 'carol@acme.test');
    const stranger = await cli('team', 'add-member', 'devs', 'carol');
    expect(stranger.code).toBe(3);
    expect(stranger.stderr.replace('carol', 'zed')).toBe(unknown.stderr);
  });

  it('mints team and organization tokens; whoami tells who they act as', async () => {
    const teamToken = (await cli('token', 'create', '--team', 'devs')).stdout.trim();
    const asTeam = await runCli(['whoami', '--json'], { BERTH_DB: tmp.db, BERTH_TOKEN: teamToken });
    expect(JSON.parse(asTeam.stdout).attributes).toMatchObject({
      kind: 'team',
      'team-name': 'devs',
      organization: 'acme',
    });
    const orgToken = (await runCli(['token', 'create', '--org', 'acme'], { BERTH_DB: tmp.db })).stdout.trim();
    const asOrg = await runCli(['whoami'], { BERTH_DB: tmp.db, BERTH_TOKEN: orgToken });
    expect(asOrg.stdout).toMatch(/Acting as\s+organization/);
    expect(asOrg.stdout).toMatch(/Organization\s+acme/);
    const local = await runCli(['whoami'], { BERTH_DB: tmp.db });
    expect(local.stdout).toMatch(/Acting as\s+user/);
    expect(local.stdout).toMatch(/User\s+admin/);
    expect(local.stdout).toMatch(/Site administrator\s+yes/);
    expect(local.stdout).toMatch(/Token\s+none \(local mode\)/);
  });

  it('BERTH_ORG alone does not mint an organization token: the caller gets a token of its own', async () => {
    const r = await cli('token', 'create', '--json');
    expect(r.code, r.stderr).toBe(0);
    const me = await runCli(['whoami', '--json'], {
      BERTH_DB: tmp.db,
      BERTH_TOKEN: JSON.parse(r.stdout).attributes.token,
    });
    expect(JSON.parse(me.stdout).attributes).toMatchObject({ kind: 'user', username: 'admin' });
  });

  it('sets every organization-access flag and the team settings on create and update', async () => {
    const made = await cli(
      'team',
      'create',
      'people',
      '--manage-membership',
      '--manage-teams',
      '--access-secret-teams',
      '--manage-policies',
      '--sso-team-id',
      'abc-123',
      '--no-allow-member-token-management',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    const attrs = JSON.parse(made.stdout).attributes;
    expect(attrs['organization-access']).toMatchObject({
      'manage-membership': true,
      'manage-teams': true,
      'access-secret-teams': true,
      'manage-policies': true,
      'manage-agent-pools': false,
    });
    expect(attrs).toMatchObject({ 'sso-team-id': 'abc-123', 'allow-member-token-management': false });
    const updated = await cli(
      'team',
      'update',
      'people',
      '--no-manage-teams',
      '--manage-agent-pools',
      '--allow-member-token-management',
      '--sso-team-id',
      '',
      '--json',
    );
    const after = JSON.parse(updated.stdout).attributes;
    expect(after['organization-access']).toMatchObject({
      'manage-membership': true,
      'manage-teams': false,
      'manage-agent-pools': true,
    });
    expect(after).toMatchObject({ 'sso-team-id': null, 'allow-member-token-management': true });
    const shown = await cli('team', 'show', 'people');
    expect(shown.stdout).toMatch(/Member token management\s+allowed/);
    expect((await cli('team', 'update', 'people')).code).toBe(2);
  });

  it('mints team tokens with a description and an expiry, and lists them with --team', async () => {
    await cli('team', 'create', 'deployers');
    const legacy = await cli('token', 'create', '--team', 'deployers');
    expect(legacy.code, legacy.stderr).toBe(0);
    const described = await cli(
      'token',
      'create',
      '--team',
      'deployers',
      '--description',
      'CI',
      '--expires',
      '30d',
      '--json',
    );
    expect(described.code, described.stderr).toBe(0);
    const token = JSON.parse(described.stdout);
    expect(token.attributes.description).toBe('CI');
    const days = (Date.parse(token.attributes['expired-at']) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    const dup = await cli('token', 'create', '--team', 'deployers', '--description', 'CI');
    expect(dup.code).toBe(5);
    expect(dup.stderr).toContain('Description has already been taken');
    const list = await cli('token', 'list', '--team', 'deployers', '--json');
    expect(list.code).toBe(0);
    const tokens = JSON.parse(list.stdout);
    expect(
      tokens.map((t: any) => t.attributes.description).sort((a: any, b: any) => String(a).localeCompare(String(b))),
    ).toEqual(['CI', null]);
    expect(list.stdout).not.toContain(token.attributes.token);
    const table = await cli('token', 'list', '--team', 'deployers');
    expect(table.stdout).toMatch(/EXPIRES/);
    expect(table.stdout).toMatch(/never/);
    const at = await cli(
      'token',
      'create',
      '--team',
      'deployers',
      '--description',
      'fixed',
      '--expires',
      '2099-01-31T00:00:00Z',
      '--json',
    );
    expect(JSON.parse(at.stdout).attributes['expired-at']).toBe('2099-01-31T00:00:00.000Z');
    expect((await cli('token', 'create', '--team', 'deployers', '--expires', 'soon')).code).toBe(2);
    // User tokens expire too (issue 46, item 1).
    const alice = await cli('token', 'create', '--user', 'alice', '--expires', '2099-01-31T00:00:00Z', '--json');
    expect(JSON.parse(alice.stdout).attributes['expired-at']).toBe('2099-01-31T00:00:00.000Z');
  });

  it('lists and revokes user tokens', async () => {
    const token = (await cli('token', 'create', '--user', 'alice', '--description', 'laptop')).stdout.trim();
    const asAlice = { BERTH_DB: tmp.db, BERTH_TOKEN: token };
    const list = await runCli(['token', 'list', '--json'], asAlice);
    expect(list.code).toBe(0);
    const tokens = JSON.parse(list.stdout).filter((t: any) => t.attributes.description === 'laptop');
    expect(tokens).toHaveLength(1);
    expect(list.stdout).not.toContain(token);
    // Its own token: --yes (test/cli/identity/token-revoke-own.test.ts).
    expect((await runCli(['token', 'revoke', tokens[0].id, '--yes'], asAlice)).code).toBe(0);
    const after = await runCli(['whoami'], asAlice);
    expect(after.code).toBe(6);
  });
});
