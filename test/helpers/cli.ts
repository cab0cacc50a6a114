import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'run.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment without any berth or colour settings of the developer's shell. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('BERTH_') || k.startsWith('TFE_') || k.startsWith('TF_TOKEN_') || k === 'FORCE_COLOR') continue;
    env[k] = v;
  }
  // Hermetic: no config file of the developer's (tests that need one pass BERTH_CONFIG or HOME).
  return {
    ...env,
    NO_COLOR: '1',
    BERTH_NO_INPUT: '1',
    BERTH_CONFIG: join(tmpdir(), 'berth-tests-no-config.json'),
    ...extra,
  };
}

/** Runs the built CLI (`bin/run.js`) with `args`; never throws on a non-zero exit. */
export function runCli(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** A temporary folder with a database path in it; `cleanup()` removes it. */
export function tempDb(): { dir: string; db: string; path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-test-'));
  const db = join(dir, 'berth.db');
  return { dir, db, path: db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One step of a terminal conversation: wait until the output contains `expect`, then type `send`. */
export interface PtyStep {
  expect: string;
  send: string;
}

export const KEYS = { enter: '\r', down: '\x1b[B', up: '\x1b[A' } as const;

/**
 * Runs the CLI inside a pseudo-terminal (util-linux `script`), so that stdin and stderr are
 * terminals and prompts appear; feeds keystrokes step by step. Output is what the terminal saw.
 */
export function runCliInPty(
  args: string[],
  steps: PtyStep[],
  env: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<{ code: number; output: string }> {
  const e = cleanEnv(env);
  delete e.BERTH_NO_INPUT;
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
      cwd: ROOT,
      env: e,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d.toString()));
    child.stderr.on('data', (d) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`terminal conversation timed out; output so far:\n${output}`));
    }, timeoutMs);
    let offset = 0;
    const drive = async () => {
      for (const step of steps) {
        while (output.indexOf(step.expect, offset) === -1) {
          if (child.exitCode !== null) throw new Error(`exited before "${step.expect}":\n${output}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        offset = output.indexOf(step.expect, offset) + step.expect.length;
        child.stdin.write(step.send);
      }
    };
    drive().catch((err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

/**
 * `json(...args)` over a CLI runner: runs it with `--json`, expects exit 0 (and, with
 * `quiet`, nothing on stderr), and parses stdout.
 */
export function jsonOf(run: (...args: string[]) => Promise<CliResult>, options: { quiet?: boolean } = {}) {
  return async (...args: string[]) => {
    const res = await run(...args, '--json');
    if (options.quiet) expect(res.stderr).toBe('');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  };
}
