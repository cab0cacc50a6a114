import { spawn } from 'node:child_process';
import { BIN, ROOT } from './cli.js';

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), so that it may prompt. Each answer is
 * typed once its prompt (a pattern over the output since the previous answer) has appeared.
 * Output is stdout and stderr together, as a terminal shows them.
 */
export function runCliInTerminal(args: string[], env: Record<string, string>, answers: [RegExp, string][]): Promise<{ code: number; output: string }> {
  const clean: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BERTH_') && k !== 'FORCE_COLOR') clean[k] = v;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
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
