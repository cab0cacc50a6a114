import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform } from '../../helpers/terraform.js';

/** The records of a serve's stderr, each line one JSON object (a line that is none fails the test). */
function records(server: ServeProcess): Record<string, any>[] {
  return server
    .stderr()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

/** The lifecycle records of one run, in the order they were written. */
const lifecycleOf = (server: ServeProcess, run: string) => records(server).filter((r) => r.run === run);

const runIdIn = (text: string) => /^(run-[A-Za-z0-9]{16}) /m.exec(text)?.[1];

// Issue 46, item 5: serve's log said nothing of runs; --log-format json and --log-level.
describeTerraform('serve --log-format json: a line for each move of a run, with the real terraform', () => {
  const tmp = tempDb();
  const cfg = join(tmp.dir, 'cfg');
  let server: ServeProcess;
  let token: string;
  const cli = (...args: string[]) => runCli([...args, '--server', server.url, '--token', token, '--org', 'acme']);
  const ok = async (...args: string[]) => {
    const out = await cli(...args);
    expect(out.code, out.stderr).toBe(0);
    return out;
  };

  beforeAll(async () => {
    mkdirSync(cfg);
    writeFileSync(
      join(cfg, 'main.tf'),
      'variable "name" {\n  type    = string\n  default = "w"\n}\nresource "terraform_data" "x" {\n  input = var.name\n}\n',
    );
    server = await startServe(tmp.db, ['--execute-runs', '--log-format', 'json']);
    // In json the token is a field of its record (the helper reads the text banner).
    token = records(server).find((r) => typeof r.token === 'string')!.token;
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('start-up, requests and every move of applied, errored, canceled and discarded runs, each one JSON line', async () => {
    const start = records(server);
    expect(start.find((r) => r.token)).toMatchObject({
      level: 'info',
      msg: expect.stringContaining('A site-administrator token was created for this database'),
    });
    expect(start.find((r) => /^berth listening on http:\/\/127\.0\.0\.1:\d+ /.test(r.msg))).toMatchObject({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    await ok('org', 'create', 'acme', '--email', 'ops@acme.test');
    await ok('workspace', 'create', 'web', '--engine-version', 'latest');
    const ws = JSON.parse((await ok('workspace', 'show', 'web', '--json')).stdout).id as string;

    // Applied: planned, confirmed (auto-apply) and applied, by serve's executor.
    const applied = runIdIn((await ok('run', 'start', 'web', '--directory', cfg, '--auto-apply', '--follow')).stdout);
    expect(applied).toBeDefined();
    await expect
      .poll(() => lifecycleOf(server, applied!).map((r) => r.msg), { timeout: 30_000 })
      .toContain('run applied');
    const lines = lifecycleOf(server, applied!);
    expect(lines.map((r) => [r.msg, r.status, r.phase])).toEqual([
      ['run created', 'pending', undefined],
      ['run queued', 'plan_queued', 'plan'],
      ['run claimed', 'planning', 'plan'],
      ['run planned', 'planned', undefined],
      ['run confirmed', 'confirmed', undefined],
      ['run queued', 'apply_queued', 'apply'],
      ['run claimed', 'applying', 'apply'],
      ['run applied', 'applied', undefined],
    ]);
    for (const r of lines) {
      expect(r).toMatchObject({ level: 'info', run: applied, workspace: ws, organization: 'acme' });
      expect(Object.keys(r).slice(0, 3)).toEqual(['time', 'level', 'msg']);
    }
    for (const r of lines.filter((l) => l.msg === 'run claimed')) expect(r.executor).toMatch(/^serve-/);

    // Discarded, and canceled while it waited behind it.
    const planned = runIdIn(
      (await ok('run', 'start', 'web', '--directory', cfg, '--var', 'name=two', '--follow')).stdout,
    );
    const waiting = runIdIn((await ok('run', 'start', 'web', '--directory', cfg, '--var', 'name=three')).stdout);
    await ok('run', 'cancel', waiting!);
    await ok('run', 'discard', planned!);
    await expect
      .poll(() => lifecycleOf(server, planned!).map((r) => r.msg), { timeout: 30_000 })
      .toEqual(['run created', 'run queued', 'run claimed', 'run planned', 'run discarded']);
    expect(lifecycleOf(server, waiting!).map((r) => r.msg)).toEqual(['run created', 'run canceled']);

    // Errored: a version serve cannot execute, a warning with the run's error.
    await ok('workspace', 'update', 'web', '--engine-version', '1.5.0');
    const errored = runIdIn((await ok('run', 'start', 'web', '--directory', cfg, '--follow')).stdout);
    await expect.poll(() => lifecycleOf(server, errored!).at(-1)?.msg, { timeout: 30_000 }).toBe('run errored');
    expect(lifecycleOf(server, errored!).at(-1)).toMatchObject({
      level: 'warn',
      status: 'errored',
      workspace: ws,
      organization: 'acme',
      error: expect.stringContaining('The workspace asks for Terraform 1.5.0'),
    });

    // Requests, as objects with their fields.
    await expect
      .poll(() => records(server).find((r) => r.msg === 'request' && r.method === 'POST' && /\/runs$/.test(r.path)))
      .toMatchObject({
        level: 'info',
        status: 201,
        duration_ms: expect.any(Number),
        request_id: expect.any(String),
      });
  });
});

describe('serve --log-format text (the default) and --log-level', () => {
  const tmp = tempDb();
  const bin = join(tmp.dir, 'bin');
  let server: ServeProcess | undefined;
  // A terraform that only answers its version: a workspace asking for another one errors at once.
  beforeAll(() => {
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'terraform'),
      `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`,
    );
    chmodSync(join(bin, 'terraform'), 0o755);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  const erroredRun = async (s: ServeProcess, token: string) => {
    const cli = (...args: string[]) => runCli([...args, '--server', s.url, '--token', token, '--org', 'acme']);
    await cli('org', 'create', 'acme', '--email', 'ops@acme.test');
    expect((await cli('workspace', 'create', 'web', '--engine-version', '1.5.0')).code).toBe(0);
    const dir = join(tmp.dir, 'config');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.tf'), '');
    return runIdIn((await cli('run', 'start', 'web', '--directory', dir, '--follow')).stdout)!;
  };

  it('text: the old lines as they were, and the lifecycle as TIME msg key=value', async () => {
    server = await startServe(tmp.db, [], { PATH: `${bin}:/usr/bin:/bin` });
    expect(server.stderr()).toContain(
      '\nA site-administrator token was created for this database. It is shown only this once:\n\n    berth.',
    );
    expect(server.stderr()).toMatch(
      /^berth listening on http:\/\/127\.0\.0\.1:\d+ \(self-hosted edition\), database /m,
    );
    const run = await erroredRun(server, server.token!);
    await expect.poll(() => server!.stderr(), { timeout: 30_000 }).toContain(`run errored run=${run}`);
    const lines = server
      .stderr()
      .split('\n')
      .filter((l) => l.includes(`run=${run}`));
    expect(lines.map((l) => l.replace(/ run=.*/, ''))).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z run created$/),
      expect.stringMatching(/Z run queued$/),
      expect.stringMatching(/Z run claimed$/),
      expect.stringMatching(/Z run errored$/),
    ]);
    expect(lines[2]).toMatch(
      new RegExp(
        `Z run claimed run=${run} workspace=ws-\\w{16} organization=acme status=planning phase=plan executor=serve-\\S+$`,
      ),
    );
    expect(lines[3]).toMatch(
      / status=errored error="The workspace asks for Terraform 1\.5\.0, but this berth runs Terraform 1\.99\.0 /,
    );
    // The access lines are as they were.
    expect(server.stderr()).toMatch(
      /^\d{4}-\d\d-\d\dT\S+Z POST \/api\/v2\/workspaces\/ws-\w{16}\/configuration-versions 201 [\d.]+ms \S+$/m,
    );
    await server.stop();
    server = undefined;
  });

  it('--log-level warn: no requests and no runs but the errored, the ready line still written', async () => {
    const db = join(tmp.dir, 'warn.db');
    server = await startServe(db, ['--log-format', 'json', '--log-level', 'warn'], { PATH: `${bin}:/usr/bin:/bin` });
    const all = () =>
      server!
        .stderr()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
    const token = all().find((r) => r.token).token;
    const run = await erroredRun(server, token);
    await expect.poll(() => all().find((r) => r.run === run)?.msg, { timeout: 30_000 }).toBe('run errored');
    expect(all().filter((r) => r.msg === 'request')).toEqual([]);
    expect(
      all()
        .filter((r) => r.run === run)
        .map((r) => r.msg),
    ).toEqual(['run errored']);
    expect(all().find((r) => /^berth listening on /.test(r.msg))).toBeDefined();
    expect(all().every((r) => r.level !== 'info' || r.token || /^berth listening on /.test(r.msg))).toBe(true);
  });
});
