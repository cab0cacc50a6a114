import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

/**
 * `serve --hostname` (BERTH_HOSTNAME): the names terraform in a run reaches berth by. A value that
 * is no host name (a URL, a path) stops serve before it listens, with a usage error.
 */
describe('berth serve --hostname', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());
  const serve = (args: string[], env: Record<string, string> = {}) =>
    runCli(['serve', '--port', '0', '--db', tmp.db, ...args], env);
  const expectUsageError = (res: { code: number; stderr: string }, name: string) => {
    expect(res.code).toBe(2);
    expect(res.stderr.replace(/\s*\n\s*›\s*/g, ' ')).toContain(
      `--hostname "${name}": give a host name with an optional port, e.g. berth.example.com or localhost:8080`,
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stderr).not.toContain('berth listening');
  };

  it('refuses a URL or a path, given as a flag or in BERTH_HOSTNAME (comma separated)', async () => {
    expectUsageError(await serve(['--hostname', 'https://berth.example.com']), 'https://berth.example.com');
    expectUsageError(await serve(['--hostname', 'ok.example.com', '--hostname', 'bad/path']), 'bad/path');
    expectUsageError(await serve([], { BERTH_HOSTNAME: 'berth.example.com,no spaces' }), 'no spaces');
  });
});
