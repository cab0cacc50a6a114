import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform } from '../../helpers/terraform.js';

/**
 * Issue 46: a run awaiting confirmation whose lock is force-unlocked (`workspace unlock --force`)
 * never applies, even once the workspace was locked by another for state surgery and unlocked
 * again: two parties never change one state. Against berth serve --execute-runs, real terraform.
 */
describeTerraform('berth workspace unlock --force of a run lock', () => {
  const tmp = tempDb();
  const cfg = join(tmp.dir, 'cfg');
  let server: ServeProcess;
  const cli = (...args: string[]) =>
    runCli([...args, '--server', server.url, '--token', server.token!, '--org', 'acme']);
  const ok = async (...args: string[]) => {
    const out = await cli(...args);
    expect(out.code, out.stderr).toBe(0);
    return out;
  };
  const json = async (...args: string[]) => JSON.parse((await ok(...args, '--json')).stdout);

  beforeAll(async () => {
    mkdirSync(cfg, { recursive: true });
    writeFileSync(join(cfg, 'main.tf'), 'resource "terraform_data" "x" {\n  input = "v"\n}\n');
    server = await startServe(tmp.db, ['--execute-runs']);
    await ok('org', 'create', 'acme', '--email', 'a@a.test');
    await ok('workspace', 'create', 'web', '--engine-version', 'latest');
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('ends the run holding the lock, says so, and the run can no longer apply', async () => {
    const started = await ok('run', 'start', 'web', '--directory', cfg, '--follow');
    const runId = /^(run-\S+) planned \(awaiting confirmation\)$/m.exec(started.stdout)?.[1];
    expect(runId, started.stdout).toBeDefined();
    expect((await json('workspace', 'show', 'web')).attributes.locked).toBe(true);

    const unlocked = await ok('workspace', 'unlock', 'web', '--force');
    expect(unlocked.stdout).toContain(
      `Force-unlocked workspace web. Run ${runId} held the lock: it was ended and will not apply.`,
    );
    const run = await json('run', 'show', runId!);
    expect(run.attributes.status).toBe('discarded');

    // Another party's state surgery: lock, unlock. The run's apply is refused all along.
    await ok('workspace', 'lock', 'web', '--reason', 'state surgery');
    const refused = await cli('run', 'apply', runId!);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`${runId} is discarded: it can no longer be applied`);
    await ok('workspace', 'unlock', 'web');
    expect((await cli('run', 'apply', runId!)).code).not.toBe(0);
    const ws = await json('workspace', 'show', 'web');
    expect(ws.relationships['current-state-version'].data).toBeNull();
  });
});
