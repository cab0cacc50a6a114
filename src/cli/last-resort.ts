/**
 * The last resort of `berth serve` and `berth agent`: a promise rejected with nothing to handle it
 * ends a Node process by default, and with it every client and run the process serves. Each such
 * root is handled where it arises (runner/log-writer.ts, runner/executor.ts, runner/agent.ts); one
 * missed there is logged here instead, once per message (at most a hundred different ones), and
 * the process goes on.
 */
export function survivesUnhandledRejections(
  log: (line: string) => void,
  /** Where the rejections are heard (tests give an emitter of their own). */
  on: Pick<NodeJS.Process, 'on' | 'off'> = process,
): () => void {
  const seen = new Set<string>();
  const handler = (reason: unknown) => {
    const message = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    if (seen.has(message) || seen.size >= 100) return;
    seen.add(message);
    // One line: where it came from, not a screen of (minified) source.
    const at = reason instanceof Error ? reason.stack?.split('\n')[1]?.trim() : undefined;
    log(`berth: a failure nothing handled, logged once (the process goes on): ${message}${at ? ` (${at})` : ''}`);
  };
  on.on('unhandledRejection', handler);
  return () => on.off('unhandledRejection', handler);
}
