import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

// Issue 33: `token revoke` of the very token the command runs with used to revoke it silently.
describe('token revoke of the token in use', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('user', 'create', 'alice', '--email', 'alice@acme.test')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  /** A new token of alice's: its secret and its id. */
  async function aliceToken(description: string): Promise<{ secret: string; id: string }> {
    const secret = (await cli('token', 'create', '--user', 'alice', '--description', description)).stdout.trim();
    const me = await runCli(['whoami', '--json'], { ...env, BERTH_TOKEN: secret });
    expect(me.code, me.stderr).toBe(0);
    return { secret, id: JSON.parse(me.stdout).id };
  }

  it('refuses without --yes when not on a terminal, says why, and changes nothing', async () => {
    const own = await aliceToken('own-refused');
    const asAlice = { ...env, BERTH_TOKEN: own.secret };
    const res = await runCli(['token', 'revoke', own.id], asAlice);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is the token this command runs with (environment BERTH_TOKEN)');
    expect(res.stderr).toContain('without --yes');
    expect(res.stdout).toBe('');
    expect((await runCli(['whoami'], asAlice)).code).toBe(0);
  });

  it('revokes it with --yes', async () => {
    const own = await aliceToken('own-yes');
    const asAlice = { ...env, BERTH_TOKEN: own.secret };
    const res = await runCli(['token', 'revoke', own.id, '--yes'], asAlice);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Revoked token ${own.id}.`);
    expect((await runCli(['whoami'], asAlice)).code).toBe(6);
  });

  it('asks on a terminal: no keeps it, yes revokes it', async () => {
    const own = await aliceToken('own-terminal');
    const asAlice = { ...env, BERTH_TOKEN: own.secret };
    const no = await runCliInPty(
      ['token', 'revoke', own.id],
      [{ expect: 'Really revoke the token you are using', send: `n${KEYS.enter}` }],
      asAlice,
    );
    expect(no.code).toBe(2);
    expect(no.output).toContain('is the token this command runs with');
    expect((await runCli(['whoami'], asAlice)).code).toBe(0);
    const yes = await runCliInPty(
      ['token', 'revoke', own.id],
      [{ expect: 'Really revoke the token you are using', send: `y${KEYS.enter}` }],
      asAlice,
    );
    expect(yes.code, yes.output).toBe(0);
    expect(yes.output).toContain(`Revoked token ${own.id}.`);
    expect((await runCli(['whoami'], asAlice)).code).toBe(6);
  });

  it('revokes another token at once, without asking', async () => {
    const own = await aliceToken('own-kept');
    const other = await aliceToken('other');
    const asAlice = { ...env, BERTH_TOKEN: own.secret };
    const res = await runCli(['token', 'revoke', other.id], asAlice);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect((await runCli(['whoami'], { ...env, BERTH_TOKEN: other.secret })).code).toBe(6);
    expect((await runCli(['whoami'], asAlice)).code).toBe(0);
  });
});
