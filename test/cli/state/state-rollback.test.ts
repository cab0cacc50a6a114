import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, runCli, runCliInPty, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

const FIXTURE = new URL('../../fixtures/state-small.json', import.meta.url).pathname;
const SMALL = readFileSync(FIXTURE, 'utf8');

describe('berth state rollback and state pull --version (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let first: string;
  let later: string;
  let bobToken: string;

  /** Pushes a later state of the fixture: serial 7, another url and password, one more output. */
  const pushLater = async (serial = 7) => {
    const s = JSON.parse(SMALL);
    s.serial = serial;
    s.outputs.url.value = 'https://later.test';
    s.outputs.password.value = 'swordfish';
    s.outputs.extra = { value: 42, type: 'number' };
    const file = join(tmp.dir, `later-${serial}.json`);
    writeFileSync(file, JSON.stringify(s, null, 2));
    const res = await cli('state', 'push', 'app', file, '--json');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout).id as string;
  };
  const versions = async () => JSON.parse((await cli('state', 'list', 'app', '--json')).stdout) as any[];

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const ws of ['app', 'other']) expect((await cli('workspace', 'create', ws)).code).toBe(0);
    const pushed = await cli('state', 'push', 'app', FIXTURE, '--json');
    expect(pushed.code, pushed.stderr).toBe(0);
    first = JSON.parse(pushed.stdout).id;
    later = await pushLater();
    expect((await cli('state', 'push', 'other', FIXTURE)).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    bobToken = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    await cliJoin(env, 'acme', 'bob@acme.test', bobToken, ['owners']);
  });
  afterAll(() => tmp.cleanup());

  it('state pull --version downloads that version; another workspace’s is refused (exit 3)', async () => {
    const old = await cli('state', 'pull', 'app', '--version', first);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toBe(SMALL);
    const file = join(tmp.dir, 'old.tfstate');
    const written = await cli('state', 'pull', 'acme/app', file, '--version', first);
    expect(written.stdout).toMatch(/^Wrote state serial 3 \(\d+ bytes\) to /);
    expect(readFileSync(file, 'utf8')).toBe(SMALL);
    const otherVersion = (JSON.parse((await cli('state', 'list', 'other', '--json')).stdout) as any[])[0].id;
    const refused = await cli('state', 'pull', 'app', '--version', otherVersion);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`state version ${otherVersion} is not a state version of workspace app`);
  });

  it('without a terminal it previews the changed outputs (sensitive ones masked) and refuses unless --yes', async () => {
    const res = await cli('state', 'rollback', 'app', '--to', first);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`Rolling back workspace app to state version ${first} (serial 3, created `);
    expect(res.stderr).toContain(`The current state (serial 7, ${later}) stays in the history`);
    expect(res.stderr).toContain('Outputs that change:\n');
    expect(res.stderr).toContain('  ~ url: "https://later.test" → "https://example.test"\n');
    expect(res.stderr).toContain('  ~ password: (sensitive) → (sensitive)\n');
    expect(res.stderr).toContain('  - extra: 42 (removed)\n');
    expect(res.stderr).not.toMatch(/hunter2|swordfish/);
    expect(res.stderr).toContain('refusing to roll back the state of workspace app');
    expect(await versions()).toHaveLength(2);
  });

  it('--yes locks, rolls back and unlocks: the old content is current with the next serial', async () => {
    const res = await cli('state', 'rollback', 'app', '--to', first, '--yes', '--json');
    expect(res.code, res.stderr).toBe(0);
    const sv = JSON.parse(res.stdout);
    expect(sv.attributes).toMatchObject({ serial: 8, current: true, intermediate: false });
    expect(sv.relationships['rollback-state-version'].data.id).toBe(first);
    const pulled = await cli('state', 'pull', 'app');
    expect(pulled.stdout).toBe(SMALL.replace('"serial": 3', '"serial": 8'));
    const ws = JSON.parse((await cli('workspace', 'show', 'app', '--json')).stdout);
    expect(ws.attributes.locked).toBe(false);
  });

  it('with the caller’s own lock it rolls back under it and leaves the lock; the version is current at unlock', async () => {
    const newer = await pushLater(9);
    expect((await cli('workspace', 'lock', 'app')).code).toBe(0);
    const res = await cli('state', 'rollback', 'app', '--to', first, '--yes');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        `^Rolled back workspace app to ${first} \\(serial 3\\): new state version sv-\\w+, serial 10; it becomes current when you unlock`,
      ),
    );
    const current = () => JSON.parse(readCurrent()).serial;
    const readCurrent = () => readFileSync(join(tmp.dir, 'current.tfstate'), 'utf8');
    expect((await cli('state', 'pull', 'app', join(tmp.dir, 'current.tfstate'))).code).toBe(0);
    expect(current()).toBe(9);
    expect((await versions())[1].id).toBe(newer);
    expect((await cli('workspace', 'unlock', 'app')).code).toBe(0);
    expect((await cli('state', 'pull', 'app', join(tmp.dir, 'current.tfstate'))).code).toBe(0);
    expect(current()).toBe(10);
  });

  it("someone else's lock: exit 8 naming the holder; nothing stored", async () => {
    const count = (await versions()).length;
    expect(
      (await runCli(['workspace', 'lock', 'app', '--reason', 'maintenance'], { ...env, BERTH_TOKEN: bobToken })).code,
    ).toBe(0);
    const res = await cli('state', 'rollback', 'app', '--to', first, '--yes');
    expect(res.code).toBe(8);
    expect(res.stderr).toMatch(/Workspace app is locked by bob \(user\) since .*: "maintenance"/);
    expect(await versions()).toHaveLength(count);
    expect((await runCli(['workspace', 'unlock', 'app'], { ...env, BERTH_TOKEN: bobToken })).code).toBe(0);
  });

  it('on a terminal it asks: answering no changes nothing (exit 2), yes rolls back', async () => {
    const count = (await versions()).length;
    const declined = await runCliInPty(
      ['state', 'rollback', 'app', '--to', later],
      [{ expect: `Really roll back the state of workspace app to ${later}?`, send: `n${KEYS.enter}` }],
      env,
    );
    expect(declined.code, declined.output).toBe(2);
    expect(declined.output).toContain('Outputs that change:');
    expect(await versions()).toHaveLength(count);
    const accepted = await runCliInPty(
      ['state', 'rollback', 'app', '--to', later],
      [{ expect: 'Really roll back', send: `y${KEYS.enter}` }],
      env,
    );
    expect(accepted.code, accepted.output).toBe(0);
    expect(accepted.output).toContain(', is current.');
    expect(await versions()).toHaveLength(count + 1);
  });
});
