import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform } from '../../helpers/terraform.js';

/**
 * berth run force-execute RUN (HCP's "Run this plan now") against berth serve --execute-runs: a
 * pending run behind one awaiting confirmation discards it and plans; refusals in the API's words.
 * Then berth run show of the applied run names who confirmed it and its timeline.
 */
describeTerraform('berth run force-execute, and what run show says of an applied run', () => {
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
    const env = ['--server', server.url, '--token', server.token!];
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@a.test', ...env])).code).toBe(0);
    expect(
      (await runCli(['workspace', 'create', 'web', '--org', 'acme', '--engine-version', 'latest', ...env])).code,
    ).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('discards the run awaiting confirmation and plans the pending one; refuses a run that is not pending', async () => {
    const first = await ok('run', 'start', 'web', '--directory', cfg, '--follow');
    const firstId = /^(run-\S+) planned \(awaiting confirmation\)$/m.exec(first.stdout)?.[1];
    expect(firstId, first.stdout).toBeDefined();
    const second = await json('run', 'start', 'web', '--directory', cfg);
    expect(second.attributes.status).toBe('pending');

    const refused = await cli('run', 'force-execute', firstId!);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`Run ${firstId} is planned: only a pending run can be force-executed`);

    const forced = await ok('run', 'force-execute', second.id);
    expect(forced.stdout).toMatch(
      new RegExp(
        `^Force-executed run ${second.id}: \\S+.*; the runs ahead of it in its workspace were discarded\\.$`,
        'm',
      ),
    );
    expect((await json('run', 'show', firstId!)).attributes.status).toBe('discarded');

    // It plans, then is applied: run show names who confirmed it and the statuses it went through.
    const log = await ok('run', 'logs', second.id, '--follow');
    expect(log.stdout).toContain('Plan: 1 to add');
    let status = '';
    while (status !== 'planned') {
      status = (await json('run', 'show', second.id)).attributes.status;
      expect(['plan_queued', 'planning', 'planned']).toContain(status);
    }
    await ok('run', 'apply', second.id);
    await ok('run', 'logs', second.id, '--phase', 'apply', '--follow');
    while (status !== 'applied') {
      status = (await json('run', 'show', second.id)).attributes.status;
      expect(['apply_queued', 'applying', 'applied']).toContain(status);
    }
    const shown = await ok('run', 'show', second.id);
    expect(shown.stdout).toMatch(/Confirmed by\s+admin/);
    expect(shown.stdout).toMatch(
      /Timeline\s+pending \S+, plan_queued \S+, planning \S+, planned \S+, confirmed \S+, apply_queued \S+, applying \S+, applied \S+/,
    );
    const doc = await json('run', 'show', second.id);
    expect(doc.relationships['confirmed-by'].data).toMatchObject({ type: 'users' });
  });

  it('help names what it does, with examples', async () => {
    const help = await cli('run', 'force-execute', '--help');
    expect(help.stdout).toContain('$ berth run force-execute run-CZcmD7eagjhyX0vN');
    expect(help.stdout).toContain('discard the run that holds its workspace');
  });
});
