import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform } from '../../helpers/terraform.js';

// Issue 34: berth run start|logs|apply|discard|cancel against berth serve --execute-runs.
describeTerraform('berth run: runs that berth executes', () => {
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
    mkdirSync(join(cfg, '.terraform'), { recursive: true });
    mkdirSync(join(cfg, 'notes'), { recursive: true });
    writeFileSync(
      join(cfg, 'main.tf'),
      'variable "name" {\n  type    = string\n  default = "w"\n}\nresource "terraform_data" "x" {\n  input = var.name\n}\noutput "name" {\n  value = terraform_data.x.output\n}\n',
    );
    // Left out of the upload: .terraform/ always, notes/ by the .terraformignore (a broken .tf there would fail the plan).
    writeFileSync(join(cfg, '.terraform', 'junk.tf'), 'this is not HCL');
    writeFileSync(join(cfg, 'notes', 'broken.tf'), 'this is not HCL either');
    writeFileSync(join(cfg, '.terraformignore'), '# notes are not configuration\nnotes/\n');
    server = await startServe(tmp.db, ['--execute-runs']);
    const env = ['--server', server.url, '--token', server.token!];
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@a.test', ...env])).code).toBe(0);
    for (const ws of ['web', 'api'])
      expect(
        (await runCli(['workspace', 'create', ws, '--org', 'acme', '--engine-version', 'latest', ...env])).code,
      ).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('run start --follow streams the plan and returns when the run awaits confirmation; apply, then refusals in words', async () => {
    const out = await ok(
      'run',
      'start',
      'web',
      '--directory',
      cfg,
      '--follow',
      '--var',
      'name=hello',
      '--message',
      'first',
    );
    expect(out.stdout).toContain('+ input  = "hello"');
    expect(out.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(out.stdout).not.toContain('\x02');
    expect(out.stdout).not.toContain('\x03');
    const id = /^(run-\S+) planned \(awaiting confirmation\)$/m.exec(out.stdout)?.[1];
    expect(id, out.stdout).toBeDefined();
    expect(out.stderr).toContain(`Started run ${id} in workspace web (2 files uploaded).`);

    const list = await ok('run', 'list', 'web');
    expect(list.stdout).toMatch(
      new RegExp(`${id}\\s+planned \\(awaiting confirmation\\)\\s+\\S+\\s+-\\s+\\+1 ~0 -0\\s+first`),
    );
    const shown = await ok('run', 'show', id!);
    expect(shown.stdout).toMatch(/Plan\s+finished \(\+1 ~0 -0\)/);
    expect(shown.stdout).toMatch(/Actions\s+apply, discard/);
    expect(shown.stdout).toMatch(/Workspace\s+web/);

    const cancel = await cli('run', 'cancel', id!);
    expect(cancel.code).not.toBe(0);
    expect(cancel.stderr).toContain(`${id} is planned: it awaits confirmation; discard it instead`);

    expect((await ok('run', 'apply', id!, '--comment', 'looks right')).stdout).toMatch(
      new RegExp(`^Confirmed run ${id}: `),
    );
    const applyLog = await ok('run', 'logs', id!, '--phase', 'apply', '--follow');
    expect(applyLog.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(applyLog.stdout).not.toContain('\x03');
    // The apply's log has ended; the run reaches applied once the executor stored the state.
    let status = '';
    while (status !== 'applied') {
      status = (await json('run', 'show', id!)).attributes.status;
      expect(['apply_queued', 'applying', 'applied']).toContain(status);
    }
    const discard = await cli('run', 'discard', id!);
    expect(discard.code).not.toBe(0);
    expect(discard.stderr).toContain(`${id} is applied: it can no longer be discarded`);
    const again = await cli('run', 'apply', id!);
    expect(again.stderr).toContain(`${id} is applied: it can no longer be applied`);
    const planLog = await ok('run', 'logs', id!);
    expect(planLog.stdout).toContain('Plan: 1 to add');
    expect((await ok('run', 'list', 'web')).stdout).toMatch(
      new RegExp(`${id}\\s+applied\\s+\\S+\\s+\\S+\\s+\\+1 ~0 -0`),
    );
  });

  it('--plan-only --follow --json: the plan streams to stderr and the run, never applicable, ends planned_and_finished', async () => {
    const out = await ok('run', 'start', 'api', '--directory', cfg, '--plan-only', '--follow', '--json');
    const run = JSON.parse(out.stdout);
    expect(run.attributes).toMatchObject({ status: 'planned_and_finished', 'plan-only': true });
    expect(out.stderr).toContain('Plan: 1 to add');
    const apply = await cli('run', 'apply', run.id);
    expect(apply.stderr).toContain(`${run.id} is planned_and_finished: it can no longer be applied`);
  });

  it('discard and cancel: a discarded run awaits nothing; a queued run behind another is canceled at once; force-cancel needs a cancel', async () => {
    const first = await json('run', 'start', 'api', '--directory', cfg, '--follow');
    expect(first.attributes.status).toBe('planned');
    // Queued behind the first (which holds the workspace): canceled at once.
    const second = await json('run', 'start', 'api', '--directory', cfg);
    expect(second.attributes.status).toBe('pending');
    const force = await cli('run', 'cancel', second.id, '--force');
    expect(force.stderr).toContain(`${second.id} is pending: force-cancel needs a cancel first`);
    expect((await ok('run', 'cancel', second.id)).stdout).toBe(`Canceled run ${second.id}: canceled.\n`);
    const logs = await ok('run', 'logs', second.id, '--follow');
    expect(logs.stdout).toBe('');
    expect((await ok('run', 'discard', first.id)).stdout).toBe(`Discarded run ${first.id}: discarded.\n`);
    const cancel = await cli('run', 'cancel', first.id);
    expect(cancel.stderr).toContain(`${first.id} is discarded: it can no longer be canceled`);
    expect((await json('run', 'show', first.id)).attributes.actions).toMatchObject({
      'is-confirmable': false,
      'is-discardable': false,
    });
  });

  it('logs --follow, started before the plan, prints it whole and ends with it', async () => {
    const run = await json('run', 'start', 'api', '--directory', cfg, '--message', 'followed');
    const follow = await ok('run', 'logs', run.id, '--follow');
    expect(follow.stdout).toContain('Plan: 1 to add');
    expect(follow.stdout.indexOf('Terraform run')).toBe(0);
    await ok('run', 'discard', run.id);
  });

  it('recorded runs (berth run record, on a server that executes runs by default) list and show; they have no log', async () => {
    const other = tempDb();
    const plain = await startServe(other.db);
    try {
      const env = ['--server', plain.url, '--token', plain.token!, '--org', 'acme'];
      const run = (...args: string[]) => runCli([...args, ...env]);
      expect((await run('org', 'create', 'acme', '--email', 'a@a.test')).code).toBe(0);
      expect((await run('workspace', 'create', 'web')).code).toBe(0);
      const rec = await run(
        'run',
        'record',
        'web',
        '--status',
        'applied',
        '--plan-ms',
        '1000',
        '--apply-ms',
        '2000',
        '--message',
        'imported',
      );
      expect(rec.code, rec.stderr).toBe(0);
      const list = await run('run', 'list', 'web');
      expect(list.stdout).toMatch(/applied\s+1s\s+2s\s+-\s+imported/);
      const id = JSON.parse((await run('run', 'list', 'web', '--json')).stdout)[0].id;
      const shown = await run('run', 'show', id);
      expect(shown.stdout).toMatch(/Apply duration\s+2s/);
      expect(shown.stdout).not.toContain('Executed by');
      const logs = await run('run', 'logs', id);
      expect(logs.stderr).toContain(`${id} is a recorded run (executed elsewhere): berth has no log of it`);
    } finally {
      await plain.stop();
      other.cleanup();
    }
  });
});
