import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

/**
 * The run sandbox at start-up (runner/sandbox.ts, cli/runs/sandbox-flags.ts): `berth serve` and
 * `berth agent` try it once with the terraform binary (`terraform version` inside it). Where
 * bubblewrap is missing or cannot start, serve executes no runs and says how to install it or how
 * to go without (`--sandbox off`); with --execute-runs it stops, and the agent does not start.
 * `--sandbox off` is said as a warning. BERTH_BWRAP names the bubblewrap binary, here a missing
 * one or one that cannot make a sandbox. The terraform binary is a script answering its version.
 */
describe('berth serve, berth agent and the run sandbox', () => {
  let tmp: ReturnType<typeof tempDb>;
  let server: ServeProcess | undefined;
  let bin: string;
  let terraform: string;
  let refusing: string;
  beforeEach(() => {
    tmp = tempDb();
    bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    terraform = join(bin, 'terraform');
    writeFileSync(terraform, `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`);
    chmodSync(terraform, 0o755);
    // As bubblewrap answers on a kernel without unprivileged user namespaces.
    refusing = join(tmp.dir, 'bwrap');
    writeFileSync(refusing, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(refusing, 0o755);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    tmp.cleanup();
  });

  const executionLines = (s: ServeProcess) =>
    s
      .stderr()
      .split('\n')
      .filter((l) => /execute runs|executing runs|warning: runs/.test(l));
  const operations = async (s: ServeProcess) => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${s.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    await api('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'ops@acme.test' } },
    });
    return (await api('GET', '/organizations/acme/entitlement-set')).data.attributes.operations as boolean;
  };

  it('by default, each phase runs in a bubblewrap sandbox, and the start-up line says so', async () => {
    server = await startServe(tmp.db, [], { PATH: bin });
    expect(executionLines(server)).toEqual([
      expect.stringMatching(
        /^executing runs with .*terraform \(Terraform 1\.99\.0\), at most 2 at once, each phase in a bubblewrap sandbox \(\S*bwrap, network host\)$/,
      ),
    ]);
    expect(await operations(server)).toBe(true);
  });

  it('--run-network none is named in the start-up line', async () => {
    server = await startServe(tmp.db, ['--run-network', 'none'], { PATH: bin });
    expect(server.stderr()).toMatch(/each phase in a bubblewrap sandbox \(\S*bwrap, network none\)/);
  });

  it('without bubblewrap, serve executes no runs and says how to install it or go without', async () => {
    const missing = join(tmp.dir, 'no-bwrap-here');
    server = await startServe(tmp.db, [], { PATH: bin, BERTH_BWRAP: missing });
    const [line, ...rest] = executionLines(server);
    expect(rest).toEqual([]);
    expect(line).toContain(`cannot execute runs: BERTH_BWRAP (${missing}) is no executable file for the run sandbox;`);
    expect(line).toContain('apt-get install bubblewrap');
    expect(line).toContain('--sandbox off');
    expect(line).not.toContain('install Terraform');
    expect(await operations(server)).toBe(false);
  });

  it('a bubblewrap that cannot make a sandbox here is said with its own words', async () => {
    server = await startServe(tmp.db, [], { PATH: bin, BERTH_BWRAP: refusing });
    expect(server.stderr()).toContain(
      `cannot execute runs: ${refusing} cannot start a sandbox here: bwrap: No permissions to create new namespace;`,
    );
    expect(await operations(server)).toBe(false);
  });

  it('--execute-runs or --terraform-binary without a sandbox stop serve (exit 2), saying why', async () => {
    for (const args of [['--execute-runs'], ['--terraform-binary', terraform]]) {
      const asked = await runCli(['serve', '--port', '0', '--database', tmp.db, ...args], {
        PATH: bin,
        BERTH_BWRAP: refusing,
      });
      expect(asked.code).toBe(2);
      expect(asked.stderr).toContain('--execute-runs: cannot execute runs safely: ');
      expect(asked.stderr).toContain('--sandbox off');
    }
  });

  it('--sandbox off executes runs unsandboxed, and warns at start', async () => {
    server = await startServe(tmp.db, ['--sandbox', 'off'], { PATH: bin, BERTH_BWRAP: join(tmp.dir, 'no-bwrap-here') });
    const lines = executionLines(server);
    expect(lines[0]).toMatch(/^executing runs with .*, at most 2 at once, UNSANDBOXED \(--sandbox off\)/);
    expect(lines[1]).toMatch(
      /^warning: runs execute UNSANDBOXED \(--sandbox off\): terraform runs as berth's own user/,
    );
    expect(await operations(server)).toBe(true);
  });

  it('berth agent without a sandbox does not start (exit 2), before it reaches the server', async () => {
    const agent = await runCli(
      ['agent', '--server', 'http://127.0.0.1:9', '--token', 'x', '--terraform-binary', terraform],
      { BERTH_BWRAP: refusing },
    );
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('berth agent cannot execute runs safely: ');
    expect(agent.stderr).toContain('apt-get install bubblewrap');
  });
});
