import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url));

/** Starts `berth serve --port 0 ...`, waits until it listens, stops it; returns its stderr. */
async function serveOnce(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; stderr: string; stop: () => Promise<number> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 30_000);
    const check = () => {
      const m = /berth listening on (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      } else if (child.exitCode !== null) reject(new Error(`serve exited:\n${stderr}`));
      else setTimeout(check, 20);
    };
    check();
  });
  const stop = () =>
    new Promise<number>((resolve) => {
      child.once('close', (code) => resolve(code ?? -1));
      child.kill('SIGTERM');
    });
  return {
    url,
    get stderr() {
      return stderr;
    },
    stop,
  };
}

describe('berth serve --edition', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, NO_COLOR: '1' };
  afterAll(() => db.cleanup());

  it('stores the edition in the database; later starts and local mode behave the same', async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], env)).code).toBe(0);
    // Self-hosted by default: assessments-enabled is refused.
    expect((await runCli(['workspace', 'create', 'before', '--org', 'acme', '--assessments'], env)).code).toBe(5);

    const hosted = await serveOnce(['--edition', 'hosted'], env);
    expect(hosted.stderr).toContain('(hosted edition)');
    const token = /^\s{4}(berth\.\S+)$/m.exec(hosted.stderr)?.[1];
    expect(token).toBeDefined();
    const res = await fetch(`${hosted.url}/api/v2/organizations/acme/workspaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: { type: 'workspaces', attributes: { name: 'served', 'assessments-enabled': true } },
      }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).data.attributes['assessments-enabled']).toBe(true);
    // The same commands against the server (remote mode).
    const remote = await runCli(
      ['workspace', 'list', '--org', 'acme', '--server', hosted.url, '--token', token!, '--json'],
      {},
    );
    expect(remote.code, remote.stderr).toBe(0);
    expect(JSON.parse(remote.stdout).map((w: any) => w.attributes.name)).toEqual(['served']);
    const noToken = await runCli(['workspace', 'show', 'acme/served', '--server', hosted.url], {});
    expect(noToken.code).toBe(6);
    expect(await hosted.stop()).toBe(0);

    // Local mode over the same file reads the stored edition.
    const local = await runCli(['workspace', 'create', 'after', '--org', 'acme', '--assessments', '--json'], env);
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout).attributes['assessments-enabled']).toBe(true);

    // A start without --edition keeps it; --edition self-hosted switches back.
    const again = await serveOnce([], env);
    expect(again.stderr).toContain('(hosted edition)');
    await again.stop();
    const back = await serveOnce(['--edition', 'self-hosted'], env);
    expect(back.stderr).toContain('(self-hosted edition)');
    await back.stop();
    const shown = await runCli(['workspace', 'show', 'acme/after', '--json'], env);
    expect('assessments-enabled' in JSON.parse(shown.stdout).attributes).toBe(false);
    expect((await runCli(['serve', '--edition', 'cloud'], env)).code).toBe(2);
  });
});
