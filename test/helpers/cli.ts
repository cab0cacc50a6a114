import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`node bin/run.js ARGS`) from the repository root and collects its output.
 * Never interactive (BERTH_NO_INPUT=1), no colour; BERTH_SERVER/TOKEN/ORG of the outer shell are
 * dropped so that only `env` decides (pass BERTH_DB there for a local database).
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of ['BERTH_SERVER', 'BERTH_TOKEN', 'BERTH_ORG', 'BERTH_DB']) delete base[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/run.js', ...args], {
      cwd: ROOT,
      env: { ...base, BERTH_NO_INPUT: '1', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), so that it may prompt. Each answer is
 * typed once its prompt (a pattern over the output since the previous answer) has appeared.
 * Output is stdout and stderr together, as a terminal shows them.
 */
export function runCliInTerminal(args: string[], env: Record<string, string>, answers: [RegExp, string][]): Promise<{ code: number; output: string }> {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of ['BERTH_SERVER', 'BERTH_TOKEN', 'BERTH_ORG', 'BERTH_DB', 'BERTH_NO_INPUT']) delete base[name];
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, 'bin/run.js', ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...base, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let from = 0;
    let next = 0;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
      while (next < answers.length && answers[next]![0].test(output.slice(from))) {
        from = output.length;
        child.stdin.write(answers[next]![1]);
        next++;
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}
