import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

const FIXTURE = new URL('../../fixtures/state-small.json', import.meta.url).pathname;

describe('berth workspace lock|unlock, state push|pull|list, run record|list|show (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bobToken: string;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const ws of ['app', 'data', 'runs']) expect((await cli('workspace', 'create', ws)).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    bobToken = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    await cliJoin(env, 'acme', 'bob@acme.test', bobToken, ['owners']);
  });
  afterAll(() => tmp.cleanup());

  it('locks with a reason; a second lock exits 8 and says who by name, since when and why', async () => {
    const locked = await cli('workspace', 'lock', 'app', '--reason', 'db migration', '--json');
    expect(locked.code).toBe(0);
    expect(JSON.parse(locked.stdout).attributes).toMatchObject({ locked: true, 'locked-reason': 'db migration' });
    const again = await runCli(['workspace', 'lock', 'acme/app'], { ...env, BERTH_TOKEN: bobToken });
    expect(again.code).toBe(8);
    expect(again.stderr).toMatch(
      /^Error: conflict: Workspace app is locked by admin \(user\) since \d\d:\d\d, just now: "db migration"\.\n$/,
    );
  });

  it('re-locking a workspace one already holds says so and exits 0; show names the holder and since when', async () => {
    const relock = await cli('workspace', 'lock', 'app', '--reason', 'other');
    expect(relock.code).toBe(0);
    expect(relock.stdout).toMatch(
      /^Workspace app is already locked by you since \d\d:\d\d, just now: "db migration"\.\n$/,
    );
    const relockJson = await cli('workspace', 'lock', 'app', '--json');
    expect(relockJson.code).toBe(0);
    expect(JSON.parse(relockJson.stdout).attributes).toMatchObject({ locked: true, 'locked-reason': 'db migration' });
    expect(relockJson.stderr).toContain('Workspace app is already locked by you');
    // Bob, a member who reads the workspace, sees who holds it by name.
    const shown = await runCli(['workspace', 'show', 'acme/app'], { ...env, BERTH_TOKEN: bobToken });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Locked\s+yes, locked by admin \(user\) since \d\d:\d\d, just now: "db migration"\n/);
  });

  it('unlock by someone else exits 8; --force releases it; unlocking an unlocked workspace says so and exits 0', async () => {
    const other = await runCli(['workspace', 'unlock', 'app'], { ...env, BERTH_TOKEN: bobToken });
    expect(other.code).toBe(8);
    const forced = await runCli(['workspace', 'unlock', 'app', '--force'], { ...env, BERTH_TOKEN: bobToken });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Force-unlocked workspace app');
    const none = await cli('workspace', 'unlock', 'app');
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('Workspace app is not locked: nothing to unlock.\n');
    const noneJson = await cli('workspace', 'unlock', 'app', '--json');
    expect(noneJson.code).toBe(0);
    expect(JSON.parse(noneJson.stdout).attributes).toMatchObject({ name: 'app', locked: false });
    expect(noneJson.stderr).toContain('is not locked');
    const noneForced = await cli('workspace', 'unlock', 'app', '--force');
    expect(noneForced.code).toBe(0);
    expect(noneForced.stdout).toContain('is not locked');
  });

  it('a member who may read but not lock gets exit 3 and a message that names both causes', async () => {
    expect((await cli('team', 'create', 'readers', '--read-workspaces')).code).toBe(0);
    await cli('user', 'create', 'rita', '--email', 'rita@acme.test');
    const ritaToken = (await cli('token', 'create', '--user', 'rita')).stdout.trim();
    await cliJoin(env, 'acme', 'rita@acme.test', ritaToken, ['readers']);
    const refused = await runCli(['workspace', 'lock', 'app'], { ...env, BERTH_TOKEN: ritaToken });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toBe('Error: not found, or you are not authorized to lock or unlock this workspace\n');
    const unknown = await runCli(['workspace', 'lock', 'nope'], { ...env, BERTH_TOKEN: ritaToken });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(
      /^Error: not found, or you are not allowed to access it: workspace "nope" not found/,
    );
    expect(JSON.parse((await cli('workspace', 'show', 'app', '--json')).stdout).attributes.locked).toBe(false);
  });

  it("a reason over the limit gets the API's 422 as a clear message, and the workspace stays unlocked", async () => {
    const tooLong = await cli('workspace', 'lock', 'app', '--reason', 'r'.repeat(1001));
    expect(tooLong.code).toBe(5);
    expect(tooLong.stderr).toContain('Reason is too long (maximum is 1000 characters)');
    const shown = await cli('workspace', 'show', 'app', '--json');
    expect(JSON.parse(shown.stdout).attributes.locked).toBe(false);
  });

  it('pushes a state (lock, upload, unlock), lists it, and pulls it back byte for byte', async () => {
    const pushed = await cli('state', 'push', 'data', FIXTURE, '--json');
    expect(pushed.code).toBe(0);
    const sv = JSON.parse(pushed.stdout);
    expect(sv.attributes).toMatchObject({ serial: 3, status: 'finalized', current: true, 'resource-count': 3 });
    const ws = JSON.parse((await cli('workspace', 'show', 'data', '--json')).stdout);
    expect(ws.attributes).toMatchObject({ locked: false, 'resource-count': 3 });
    const list = await cli('state', 'list', 'data');
    expect(list.stdout).toMatch(new RegExp(`${sv.id}\\s+3\\s+finalized\\s+3\\s+yes`));
    const pulled = await cli('state', 'pull', 'data');
    expect(pulled.stdout).toBe(readFileSync(FIXTURE, 'utf8'));
    const file = join(tmp.dir, 'pulled.tfstate');
    expect((await cli('state', 'pull', 'data', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(FIXTURE, 'utf8'));
  });

  it('a push while you hold the lock leaves the lock to you', async () => {
    await cli('workspace', 'lock', 'data');
    const newer = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    newer.serial = 4;
    newer.resources = [];
    const file = join(tmp.dir, 'newer.tfstate');
    writeFileSync(file, JSON.stringify(newer));
    const pushed = await cli('state', 'push', 'data', file);
    expect(pushed.code).toBe(0);
    expect(pushed.stderr).toContain('becomes current when you unlock');
    expect(JSON.parse((await cli('workspace', 'show', 'data', '--json')).stdout).attributes).toMatchObject({
      locked: true,
      'resource-count': 3,
    });
    await cli('workspace', 'unlock', 'data');
    expect(JSON.parse((await cli('workspace', 'show', 'data', '--json')).stdout).attributes['resource-count']).toBe(0);
  });

  it('pushes a large state (over 1 MiB) through the upload URL and pulls it back', async () => {
    const big = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    big.serial = 10;
    big.resources = Array.from({ length: 2500 }, (_, i) => ({
      mode: 'managed',
      type: 'null_resource',
      name: `r${i}`,
      provider: 'provider["registry.terraform.io/hashicorp/null"]',
      instances: [{ schema_version: 0, attributes: { id: String(i), padding: 'x'.repeat(400) } }],
    }));
    const file = join(tmp.dir, 'big.tfstate');
    writeFileSync(file, JSON.stringify(big));
    expect(readFileSync(file).length).toBeGreaterThan(1024 * 1024);
    const pushed = await cli('state', 'push', 'runs', file, '--json');
    expect(pushed.code).toBe(0);
    expect(JSON.parse(pushed.stdout).attributes).toMatchObject({
      status: 'finalized',
      'resource-count': 2500,
      current: true,
    });
    const pulled = await cli('state', 'pull', 'runs');
    expect(pulled.stdout).toBe(readFileSync(file, 'utf8'));
  });

  it('refuses a file that is not a state (usage error) and a push onto a workspace locked by someone else (8)', async () => {
    const bad = await cli('state', 'push', 'data', join(tmp.dir, 'missing.tfstate'));
    expect(bad.code).toBe(2);
    await runCli(['workspace', 'lock', 'data'], { ...env, BERTH_TOKEN: bobToken });
    const blocked = await cli('state', 'push', 'data', FIXTURE);
    expect(blocked.code).toBe(8);
    await runCli(['workspace', 'unlock', 'data'], { ...env, BERTH_TOKEN: bobToken });
  });

  it('records runs with durations that the workspace metrics show', async () => {
    const applied = await cli(
      'run',
      'record',
      'runs',
      '--status',
      'applied',
      '--plan-ms',
      '4000',
      '--apply-ms',
      '9000',
      '--message',
      'nightly',
      '--json',
    );
    expect(applied.code).toBe(0);
    const run = JSON.parse(applied.stdout);
    expect(run.attributes).toMatchObject({ status: 'applied', message: 'nightly' });
    const failed = await cli(
      'run',
      'record',
      'runs',
      '--status',
      'errored',
      '--plan-ms',
      '2000',
      '--policy-failed',
      '--error',
      'policy said no',
    );
    expect(failed.code).toBe(0);
    const ws = JSON.parse((await cli('workspace', 'show', 'runs', '--json')).stdout).attributes;
    expect(ws).toMatchObject({
      'workspace-kpis-runs-count': 2,
      'run-failures': 1,
      'policy-check-failures': 1,
      'plan-duration-average': 3000,
      'apply-duration-average': 9000,
      locked: false,
    });
    const list = await cli('run', 'list', 'runs');
    // Durations for a person: 2s, 1m30s (the milliseconds stay in --json's timestamps).
    expect(list.stdout).toMatch(/errored\s+2s/);
    // A recorded run has no resource counts: CHANGES is "-".
    expect(list.stdout).toMatch(/applied\s+4s\s+9s\s+-\s+nightly/);
    const show = await cli('run', 'show', run.id);
    expect(show.stdout).toMatch(/Apply duration\s+9s/);
    // The workspace by name, not by id.
    expect(show.stdout).toMatch(/Workspace\s+runs\n/);
    expect((await cli('run', 'show', 'run-AAAAAAAAAAAAAAAA')).code).toBe(3);
    expect((await cli('run', 'record', 'runs', '--status', 'canceled', '--apply-ms', '5')).code).toBe(2);
  });
});
