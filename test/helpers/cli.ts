import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment every CLI test runs with: no prompts, no colour, no server, no token. */
function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, BERTH_NO_INPUT: '1', NO_COLOR: '1', ...env };
  for (const key of ['BERTH_SERVER', 'BERTH_TOKEN', 'BERTH_ORG', 'FORCE_COLOR']) if (!(key in env)) delete out[key];
  return out;
}

/**
 * Runs the built CLI (`node bin/run.js ...`) with stdin closed. Pass BERTH_DB in `env` (see
 * tempDb) so each test file works on its own database.
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A temporary database file; `cleanup` removes its folder. */
export function tempDb(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-cli-'));
  return { path: join(dir, 'berth.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
export function runCliInPty(args: string[], steps: PtyStep[], env: Record<string, string> = {}, timeoutMs = 15_000): Promise<{ code: number; output: string }> {
  const e = baseEnv(env);
  delete e.BERTH_NO_INPUT;
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], { cwd: ROOT, env: e, stdio: ['pipe', 'pipe', 'pipe'] });
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
    drive().catch((err) => {
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
