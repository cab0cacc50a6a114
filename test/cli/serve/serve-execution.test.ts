import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

/**
 * Whether `berth serve` executes runs: by default when it finds a terraform binary
 * (--terraform-binary, else the PATH's), asking it its version once; without one it still
 * starts, says so in one line, and the entitlement set answers operations: false. --no-execute-runs
 * (or BERTH_EXECUTE_RUNS=false/0) turns it off; --execute-runs or --terraform-binary given
 * explicitly without a usable binary stop it (exit 2). The binaries here are small scripts that
 * answer `terraform version -json`, so the test needs no Terraform.
 */
describe('berth serve and the terraform binary', () => {
  let tmp: ReturnType<typeof tempDb>;
  let server: ServeProcess | undefined;
  let bin: string;
  let broken: string;
  beforeEach(() => {
    tmp = tempDb();
    bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'terraform'),
      `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`,
    );
    chmodSync(join(bin, 'terraform'), 0o755);
    broken = join(tmp.dir, 'broken-terraform');
    writeFileSync(broken, '#!/bin/sh\necho nonsense\n');
    chmodSync(broken, 0o755);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    tmp.cleanup();
  });

  const empty = () => join(tmp.dir, 'nothing-here');
  /** operations of a fresh organization, and the terraform-version of a workspace made without one. */
  async function answers(s: ServeProcess) {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${s.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    await api('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'ops@acme.test' } },
    });
    const ent = await api('GET', '/organizations/acme/entitlement-set');
    const ws = await api('POST', '/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'web' } },
    });
    return { operations: ent.data.attributes.operations, version: ws.data.attributes['terraform-version'] };
  }

  it('executes runs with the terraform on the PATH, and new workspaces take its version', async () => {
    server = await startServe(tmp.db, [], { PATH: bin });
    expect(server.stderr()).toContain(
      `executing runs with ${join(bin, 'terraform')} (Terraform 1.99.0), at most 2 at once`,
    );
    expect(await answers(server)).toEqual({ operations: true, version: '1.99.0' });
  });

  it('without a binary, starts, says once what to install, and answers operations: false', async () => {
    server = await startServe(tmp.db, [], { PATH: empty() });
    const lines = server
      .stderr()
      .split('\n')
      .filter((l) => l.includes('execute runs'));
    expect(lines).toEqual([
      'cannot execute runs: no terraform binary on the PATH; install Terraform on the PATH (https://developer.hashicorp.com/terraform/install) or give one with --terraform-binary. Until then runs of agent workspaces go to their agents (berth agent), and elsewhere the Terraform CLI runs plans and applies locally',
    ]);
    const { operations } = await answers(server);
    expect(operations).toBe(false);
  });

  it('without a binary, berth run start makes a run that ends errored and says what to install', async () => {
    server = await startServe(tmp.db, [], { PATH: empty() });
    const env = ['--server', server.url, '--token', server.token!, '--org', 'acme'];
    const cli = (...args: string[]) => runCli([...args, ...env]);
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web')).code).toBe(0);
    const dir = join(tmp.dir, 'config');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.tf'), 'resource "terraform_data" "x" {}\n');
    const started = await cli('run', 'start', 'web', '--directory', dir);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(
      /^run-[A-Za-z0-9]{16} errored: this berth has no terraform binary: install Terraform on the server's PATH or start berth serve with --terraform-binary\n$/,
    );
  });

  it('a binary that does not answer its version is no binary (said), unless given explicitly (exit 2)', async () => {
    const dir = join(tmp.dir, 'brokenbin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'terraform'), '#!/bin/sh\necho nonsense\n');
    chmodSync(join(dir, 'terraform'), 0o755);
    server = await startServe(tmp.db, [], { PATH: dir });
    expect(server.stderr()).toContain(
      `cannot execute runs: ${join(dir, 'terraform')} does not answer "terraform version -json"; install Terraform`,
    );
    const given = await runCli(['serve', '--port', '0', '--database', tmp.db, '--terraform-binary', broken]);
    expect(given.code).toBe(2);
    expect(given.stderr).toContain(`--terraform-binary: ${broken} does not answer "terraform version -json"`);
  });

  it('--no-execute-runs, BERTH_EXECUTE_RUNS=false and =0 turn execution off although a binary is there', async () => {
    for (const [args, env] of [
      [['--no-execute-runs'], {}],
      [[], { BERTH_EXECUTE_RUNS: 'false' }],
      [[], { BERTH_EXECUTE_RUNS: '0' }],
    ] as const) {
      const db = join(tmp.dir, `off-${Object.keys(env).length}-${args.length}-${env.BERTH_EXECUTE_RUNS ?? ''}.db`);
      const s = await startServe(db, [...args], { PATH: bin, ...env });
      try {
        expect(s.stderr()).toContain(
          'not executing runs (--no-execute-runs): runs of agent workspaces go to their agents (berth agent); elsewhere the Terraform CLI runs plans and applies locally',
        );
        expect(s.stderr()).not.toContain('executing runs with');
        expect((await answers(s)).operations).toBe(false);
      } finally {
        await s.stop();
      }
    }
  });

  it('--execute-runs without a binary, or --terraform-binary that is not one, stop with exit 2', async () => {
    const asked = await runCli(['serve', '--port', '0', '--database', tmp.db, '--execute-runs'], { PATH: empty() });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('--execute-runs: no terraform binary on the PATH');
    const viaEnv = await runCli(['serve', '--port', '0', '--database', tmp.db], {
      PATH: empty(),
      BERTH_EXECUTE_RUNS: 'true',
    });
    expect(viaEnv.code).toBe(2);
    const missing = join(tmp.dir, 'no-such-terraform');
    const given = await runCli(['serve', '--port', '0', '--database', tmp.db, '--terraform-binary', missing]);
    expect(given.code).toBe(2);
    expect(given.stderr).toContain(`--terraform-binary: ${missing} is not an executable file`);
    // --terraform-binary names the binary: the PATH's is not looked at.
    server = await startServe(tmp.db, ['--terraform-binary', join(bin, 'terraform')], { PATH: empty() });
    expect(server.stderr()).toContain('(Terraform 1.99.0)');
  });
});
