import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BERTH_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, NO_COLOR: '1', BERTH_NO_INPUT: '1', ...extra };
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
export function tempDb(): { dir: string; db: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'berth-test-'));
  return { dir, db: join(dir, 'berth.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
