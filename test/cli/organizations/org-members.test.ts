import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

describe('berth org members, invite, join and members remove (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let aliceToken: string;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('team', 'create', 'devs')).code).toBe(0);
    expect((await cli('user', 'create', 'alice', '--email', 'alice@acme.test')).code).toBe(0);
    aliceToken = (await cli('token', 'create', '--user', 'alice')).stdout.trim();
  });
  afterAll(() => tmp.cleanup());

  it('lists the creator (the admin user local mode acts as) as the only, active member', async () => {
    const table = await cli('org', 'members');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/ID\s+USERNAME\s+EMAIL\s+STATUS\s+TEAMS/);
    expect(table.stdout).toMatch(/ou-\w{16}\s+admin\s+admin@localhost\s+active\s+owners/);
  });

  it('invites by email to teams; the user joins with their own token and then acts through those teams', async () => {
    const invited = await cli('org', 'invite', 'alice@acme.test', '--team', 'devs', '--json');
    expect(invited.code).toBe(0);
    const doc = JSON.parse(invited.stdout);
    expect(doc).toMatchObject({ type: 'organization-memberships', attributes: { status: 'invited' } });
    // Until alice accepts, the invitation is the email typed; local mode acts as the site
    // administrator, who sees the account behind it, username included (issue 43).
    expect((await cli('org', 'members', '--status', 'invited')).stdout).toMatch(
      /ou-\w{16}\s+alice\s+alice@acme\.test\s+invited\s+devs/,
    );
    // Not a member yet: alice cannot see acme.
    const asAlice = { BERTH_DB: tmp.db, BERTH_TOKEN: aliceToken };
    expect((await runCli(['org', 'show', 'acme'], asAlice)).code).toBe(3);
    const joined = await runCli(['org', 'join', 'acme'], asAlice);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toContain('You are now a member of organization acme.');
    expect((await runCli(['org', 'show', 'acme'], asAlice)).code).toBe(0);
    const members = JSON.parse((await cli('org', 'members', '--json')).stdout);
    expect(members.map((m: any) => [m.attributes.email, m.attributes.status])).toEqual([
      ['admin@localhost', 'active'],
      ['alice@acme.test', 'active'],
    ]);
    expect((await cli('team', 'show', 'devs')).stdout).toMatch(/Members\s+alice/);
    // Joining again changes nothing; without an invitation it is a 404 (exit 3).
    const again = await runCli(['org', 'join', 'acme'], asAlice);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('You are already a member of organization acme.');
    expect((await runCli(['org', 'join', 'other'], asAlice)).code).toBe(3);
  });

  it('inviting an unknown email claims no username (shown as -); a bad email is refused (exit 5)', async () => {
    expect((await cli('org', 'invite', 'newbie@corp.test')).code).toBe(0);
    expect((await cli('org', 'members', '--search', 'newbie')).stdout).toMatch(
      /ou-\w{16}\s+-\s+newbie@corp\.test\s+invited/,
    );
    const bad = await cli('org', 'invite', 'not-an-email');
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain('Email is invalid');
  });

  // Issue 46, item 3: it removed at once, without asking, even on a terminal.
  it('asks before removing on a terminal; elsewhere refuses without --yes (exit 2), changing nothing', async () => {
    const refused = await cli('org', 'members', 'remove', 'alice');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refusing to remove alice \(ou-\w{16}\) from organization acme without --yes when not on a terminal/,
    );
    expect((await cli('org', 'members', 'remove', 'alice', '--json')).code).toBe(2);
    const kept = await runCliInPty(
      ['org', 'members', 'remove', 'alice'],
      [{ expect: 'Really remove alice', send: `n${KEYS.enter}` }],
      env,
    );
    expect(kept.code).toBe(2);
    expect(kept.output).toContain('aborted');
    expect((await cli('org', 'members', '--search', 'alice')).stdout).toMatch(/alice@acme\.test\s+active/);
    // Not a member: exit 3 before any question.
    const missing = await runCliInPty(['org', 'members', 'remove', 'nobody@corp.test'], [], env);
    expect(missing.code).toBe(3);
    expect(missing.output).not.toContain('Really');
    const removed = await runCliInPty(
      ['org', 'members', 'remove', 'newbie@corp.test'],
      [{ expect: 'Really remove newbie@corp.test', send: `y${KEYS.enter}` }],
      env,
    );
    expect(removed.code).toBe(0);
    expect(removed.output).toContain('Removed newbie@corp.test from organization acme.');
    expect((await cli('org', 'members', '--search', 'newbie')).stdout).not.toContain('newbie');
  });

  it('removes a member by email, username or id with --yes; the user leaves its teams', async () => {
    expect((await cli('org', 'invite', 'other@corp.test')).code).toBe(0);
    expect((await cli('org', 'members', 'remove', 'other@corp.test', '--yes')).code).toBe(0);
    const removed = await cli('org', 'members', 'remove', 'alice', '--json', '--yes');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ type: 'organization-memberships', deleted: true });
    expect((await cli('team', 'show', 'devs')).stdout).toMatch(/Members\s+-/);
    expect((await cli('org', 'members', 'remove', 'alice', '--yes')).code).toBe(3);
    // The last owner cannot leave.
    const admin = JSON.parse((await cli('org', 'members', '--json')).stdout)[0].id;
    expect((await cli('org', 'members', 'remove', admin, '-y')).code).toBe(5);
  });

  it('needs an organization', async () => {
    expect((await runCli(['org', 'members'], { BERTH_DB: tmp.db })).code).toBe(2);
  });
});
