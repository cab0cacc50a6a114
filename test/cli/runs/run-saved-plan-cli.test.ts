import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform } from '../../helpers/terraform.js';

// berth run start --save-plan: a saved plan (as terraform plan -out), planned_and_saved, applied later.
describeTerraform('berth run start --save-plan', () => {
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
    writeFileSync(join(cfg, 'main.tf'), 'resource "terraform_data" "x" {\n  input = "saved"\n}\n');
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

  it('plans without locking the workspace, shows as a saved plan, and applies on berth run apply', async () => {
    const out = await ok('run', 'start', 'web', '--directory', cfg, '--save-plan', '--follow');
    expect(out.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const id = /^(run-\S+) planned_and_saved \(saved plan: apply or discard it\)$/m.exec(out.stdout)?.[1];
    expect(id, out.stdout).toBeDefined();
    const shown = await ok('run', 'show', id!);
    expect(shown.stdout).toMatch(/Saved plan\s+yes/);
    expect(shown.stdout).toMatch(/Actions\s+apply, discard/);
    expect((await json('workspace', 'show', 'web')).attributes.locked).toBe(false);

    expect((await ok('run', 'apply', id!)).stdout).toMatch(new RegExp(`^Confirmed run ${id}: `));
    const applyLog = await ok('run', 'logs', id!, '--phase', 'apply', '--follow');
    expect(applyLog.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    let status = '';
    while (status !== 'applied') {
      status = (await json('run', 'show', id!)).attributes.status;
      expect(['apply_queued', 'applying', 'applied']).toContain(status);
    }
  });

  it('--save-plan with --plan-only or --auto-apply is a usage error', async () => {
    for (const other of ['--plan-only', '--auto-apply']) {
      const res = await cli('run', 'start', 'web', '--directory', cfg, '--save-plan', other);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('--save-plan excludes --plan-only and --auto-apply');
    }
  });
});
