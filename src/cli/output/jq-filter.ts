// `--jq`: the whole jq language, by jq itself (jq 1.8 compiled to WebAssembly, the jq-wasm
// package). The package and its wasm are loaded only when `--jq` is given (an `await import`,
// kept out of the CLI bundle by scripts/build.mjs), so that the start-up of every other command
// does not change.
import type { Jq } from 'jq-wasm';

/** A compiled `--jq` filter: the text to print for a JSON value (results one per line, strings raw). */
export type JqFilter = (input: unknown) => { text: string; warnings: string };

/** A filter that jq cannot compile, or that fails on its input: the message names `--jq`. */
export class JqFilterError extends Error {
  constructor(
    message: string,
    /** What the filter wrote to stderr before it failed (`debug`, `stderr`). */
    readonly warnings = '',
  ) {
    super(message);
    this.name = 'JqFilterError';
  }
}

/**
 * Loads jq and compiles `expr`, so that a filter that is not valid jq is refused before the
 * command does anything. jq has no compile-only mode: the filter is compiled behind
 * `empty as $__berth_check |`, which jq checks whole (syntax, functions, variables) and never runs.
 */
export async function compileJq(expr: string): Promise<JqFilter> {
  const { loadJq } = await import('jq-wasm');
  const jq: Jq = await loadJq();
  // jq reads an empty program as `.`.
  const program = expr.trim() === '' ? '.' : expr;
  const check = jq.raw('null', `empty as $__berth_check |\n${program}`, ['-n']);
  if (check.exitCode !== 0) throw new JqFilterError(compileMessage(check.stderr));
  return (input) => {
    // The value as --json prints it (a string is passed as JSON text, never read as raw JSON). jq
    // writes each result as one line of compact JSON, read back and printed as berth prints results.
    const r = jq.raw(JSON.stringify(input ?? null), program, ['-c']);
    if (r.exitCode === 0) return { text: renderJqResults(jsonLines(r.stdout)), warnings: r.stderr };
    const at = r.stderr.lastIndexOf('jq: error');
    const warnings = at > 0 ? r.stderr.slice(0, at).trim() : '';
    const message = (at >= 0 ? r.stderr.slice(at) : r.stderr).replace(/^jq: error(?: \(at [^)]*\))?: /, '');
    throw new JqFilterError(`--jq: ${message.trim() || `jq stopped with exit code ${r.exitCode}`}`, warnings);
  };
}

function jsonLines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** The results as printed: one a line, strings raw (as `jq -r` and `gh --jq`), anything else as JSON. */
export function renderJqResults(results: unknown[]): string {
  return results.map((r) => (typeof r === 'string' ? r : JSON.stringify(r, null, 2))).join('\n');
}

/** jq's compile errors, with the line numbers of the filter as the user wrote it (one line less). */
function compileMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l))
    .map((l) =>
      l
        .replace(/^jq: error: /, '')
        .replace(/ at <top-level>, line (\d+)/, (_, n: string) => ` at line ${Math.max(1, Number(n) - 1)}`),
    );
  return `--jq: ${lines.join('\n').trim()}`;
}
