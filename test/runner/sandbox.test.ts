import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signalGroup, spawnInGroup, whenEnded } from '../../src/runner/process-group.js';
import { findBwrap, sandboxed, sandboxProblem, type SandboxConfig } from '../../src/runner/sandbox.js';

/**
 * The sandbox's own rules (runner/sandbox.ts), with bubblewrap and a shell script in the place of
 * terraform: its network with --run-network none, an interrupt that reaches the command (not bwrap,
 * which would die of it at once), and its try at start. The escapes of real runs are in
 * test/e2e/terraform/run-sandbox.test.ts.
 */
describe('the run sandbox', () => {
  let dir: string;
  const bwrap = findBwrap();
  const config = (network: 'host' | 'none'): SandboxConfig => ({ bwrap: bwrap!, network });
  beforeEach(() => {
    expect(bwrap, 'bubblewrap is installed by npm test (scripts/bubblewrap.mjs)').not.toBeNull();
    dir = mkdtempSync(join(tmpdir(), 'berth-sandbox-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const runIn = (network: 'host' | 'none', file: string) => {
    const { command, args } = sandboxed(config(network), { dir, cwd: dir, readOnly: [] }, file, []);
    return spawnSync(command, args, { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
  };

  it('with network none, a run has only a loopback of its own', () => {
    const interfaces = script('net.sh', "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '");
    const none = runIn('none', interfaces);
    expect(none.status, none.stderr).toBe(0);
    expect(none.stdout.trim().split('\n')).toEqual(['lo']);
    const host = runIn('host', interfaces);
    expect(host.status, host.stderr).toBe(0);
    // The machine's own: as many as outside.
    const outside = spawnSync('/bin/sh', [interfaces], { encoding: 'utf8' });
    expect(host.stdout.trim().split('\n').sort()).toEqual(outside.stdout.trim().split('\n').sort());
  });

  it("an interrupt of the phase's group reaches the command, which stops in its own time", async () => {
    // As terraform does (Go listens for SIGINT whatever it inherited), unlike a shell, which may not trap
    // a signal ignored on entry.
    const trapping = script(
      'trap.sh',
      `exec perl -e '$| = 1; $SIG{INT} = sub { print "interrupted, cleaning up\\n"; exit 3 }; print "ready\\n"; sleep 1 while 1'`,
    );
    const { command, args } = sandboxed(config('host'), { dir, cwd: dir, readOnly: [] }, trapping, []);
    const child = spawnInGroup(command, args, { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    const ended = new Promise<number | null>((resolve) => whenEnded(child, resolve));
    await ready;
    signalGroup(child, 'SIGINT');
    expect(await ended).toBe(3);
    expect(out).toContain('interrupted, cleaning up');
  });

  it('is tried once at start: null when it can run terraform here, else why', () => {
    const terraform = script('terraform', `echo '{"terraform_version":"1.11.4"}'`);
    expect(sandboxProblem(config('host'), terraform, dir)).toBeNull();
    const refusing = script('bwrap', 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');
    expect(sandboxProblem({ bwrap: refusing, network: 'host' }, terraform, dir)).toBe(
      `${refusing} cannot start a sandbox here: bwrap: setting up uid map: Permission denied`,
    );
    const silent = script('terraform-silent', 'exit 0');
    expect(sandboxProblem(config('host'), silent, dir)).toMatch(/cannot start a sandbox here \(exit 0\)$/);
  });

  it('a process left in the background dies with the sandbox, even in a session of its own', async () => {
    const marker = `777.${process.pid}`;
    const leaving = script('leave.sh', `setsid sleep ${marker} > /dev/null 2>&1 < /dev/null &\necho left`);
    const { command, args } = sandboxed(config('host'), { dir, cwd: dir, readOnly: [] }, leaving, []);
    const child = spawn(command, args, { env: { PATH: '/usr/bin:/bin' }, stdio: 'ignore' });
    await new Promise((resolve) => child.on('exit', resolve));
    const still = () => spawnSync('pgrep', ['-f', `sleep ${marker}`]).status === 0;
    await expect.poll(still, { timeout: 30_000 }).toBe(false);
  });
});
