import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiryOf } from '../../../src/cli/identity/token-expiry.js';
import { runCli, tempDb } from '../../helpers/cli.js';
import { TEST_EPOCH } from '../../helpers/clock.js';

// Issue 46, item 1: `token create` needed --user NAME, and `--user bob` run by bob was refused (the
// name went through the admin-only user list); user tokens could not expire.
describe('token create: a token of your own, and user tokens that expire', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db };
  const cli = (...args: string[]) => runCli(args, env);
  let bob: (...args: string[]) => ReturnType<typeof runCli>;
  const whoami = async (token: string) => {
    const res = await runCli(['whoami', '--json'], { ...env, BERTH_TOKEN: token });
    return { code: res.code, username: res.code === 0 ? JSON.parse(res.stdout).attributes.username : null };
  };
  const tokenIdsOf = async (user: string) =>
    JSON.parse((await cli('token', 'list', '--user', user, '--json')).stdout).map((t: any) => t.id);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('user', 'create', 'bob', '--email', 'bob@acme.test')).code).toBe(0);
    expect((await cli('user', 'create', 'carol', '--email', 'carol@acme.test')).code).toBe(0);
    const token = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    bob = (...args: string[]) => runCli(args, { ...env, BERTH_TOKEN: token });
  });
  afterAll(() => tmp.cleanup());

  it('without --user, mints a token of the caller; --user of oneself needs no admin rights', async () => {
    const own = await bob('token', 'create', '--description', 'laptop', '--json');
    expect(own.code, own.stderr).toBe(0);
    const doc = JSON.parse(own.stdout);
    expect(doc).toMatchObject({
      type: 'authentication-tokens',
      attributes: { description: 'laptop', 'expired-at': null },
    });
    expect(await whoami(doc.attributes.token)).toEqual({ code: 0, username: 'bob' });
    const named = await bob('token', 'create', '--user', 'bob');
    expect(named.code, named.stderr).toBe(0);
    expect(await whoami(named.stdout.trim())).toEqual({ code: 0, username: 'bob' });
    // token list --user of oneself needs no admin rights either: bob sees his two tokens.
    const listed = await bob('token', 'list', '--user', 'bob', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((t: any) => t.attributes.description)).toContain('laptop');
    expect(JSON.parse(listed.stdout)).toHaveLength(3);
    // Another user's name still goes through the site administrators' user list: not bob's to see.
    const other = await bob('token', 'create', '--user', 'carol');
    expect(other.code).toBe(3);
    expect((await bob('token', 'list', '--user', 'carol')).code).toBe(3);
    expect(await tokenIdsOf('carol')).toEqual([]);
  });

  it('a team token is no user: says whose token to create (exit 2); local mode acts as the user admin', async () => {
    expect((await cli('team', 'create', 'devs', '--org', 'acme')).code).toBe(0);
    const team = (await cli('token', 'create', '--team', 'devs', '--org', 'acme')).stdout.trim();
    const res = await runCli(['token', 'create'], { ...env, BERTH_TOKEN: team });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /--user NAME, --team TEAM, --org ORG or --site-admin \(this token acts as team team-\w{16}, not as a user\)/,
    );
    const local = await cli('token', 'create');
    expect(local.code, local.stderr).toBe(0);
    expect(await whoami(local.stdout.trim())).toEqual({ code: 0, username: 'admin' });
  });

  it('--expires: the token carries expired-at, and works until then; expired, it is refused', async () => {
    const made = await bob('token', 'create', '--expires', '2099-01-31T00:00:00Z', '--json');
    expect(made.code, made.stderr).toBe(0);
    const doc = JSON.parse(made.stdout);
    expect(doc.attributes['expired-at']).toBe('2099-01-31T00:00:00.000Z');
    expect(await whoami(doc.attributes.token)).toEqual({ code: 0, username: 'bob' });
    // The site administrator too, for another user.
    const forCarol = await cli('token', 'create', '--user', 'carol', '--expires', '2099-02-01T10:00:00Z', '--json');
    expect(JSON.parse(forCarol.stdout).attributes['expired-at']).toBe('2099-02-01T10:00:00.000Z');
    const listed = JSON.parse((await bob('token', 'list', '--json')).stdout);
    expect(listed.find((t: any) => t.id === doc.id).attributes['expired-at']).toBe('2099-01-31T00:00:00.000Z');
    // Its time comes (set in the database: no test waits for a clock).
    const conn = new Database(tmp.db);
    conn.prepare('update tokens set expired_at = ? where id = ?').run('2001-01-01T00:00:00.000Z', doc.id);
    conn.close();
    const expired = await whoami(doc.attributes.token);
    expect(expired.code).toBe(6);
  });

  it('--expires of a time that has passed is refused before anything is sent (exit 2); so is nonsense', async () => {
    const before = await tokenIdsOf('bob');
    const past = await bob('token', 'create', '--expires', '2001-01-01T00:00:00Z');
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--expires 2001-01-01T00:00:00Z: that time has passed');
    const nonsense = await bob('token', 'create', '--expires', 'tomorrow');
    expect(nonsense.code).toBe(2);
    expect(nonsense.stderr).toContain('give a time (2030-01-31T00:00:00Z) or a duration (30d, 12h)');
    expect(await tokenIdsOf('bob')).toEqual(before);
  });

  it('expiryOf: a duration counts from the clock it is given; a time must be later than it', () => {
    const now = new Date(TEST_EPOCH);
    expect(expiryOf('30d', now)).toBe('2030-02-14T12:00:00.000Z');
    expect(expiryOf('12h', now)).toBe('2030-01-16T00:00:00.000Z');
    expect(expiryOf('2030-01-15T12:00:01Z', now)).toBe('2030-01-15T12:00:01.000Z');
    expect(() => expiryOf('2030-01-15T12:00:00Z', now)).toThrow(
      /that time has passed \(it is now 2030-01-15T12:00:00\.000Z\)/,
    );
    expect(expiryOf(undefined, now)).toBeUndefined();
  });
});
