import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, jsonOf, runCli } from './cli.js';
import { TEST_SECRET_KEY_LINE } from './secret-key.js';

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The site-administrator token printed at the first start of a database (null on later starts). */
  token: string | null;
  stderr: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts `berth serve --port 0` on `db` (a SQLite file or a `postgres://` URL) as a real process and waits until it listens. Rate
 * limiting is off unless `extraArgs` sets `--rate-limit` (tests send bursts with one token). `env`
 * adds environment variables (test hooks). On PostgreSQL, BERTH_SECRET_KEY is the tests' key.
 */
export function startServe(
  db: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const rate = extraArgs.includes('--rate-limit') ? [] : ['--rate-limit', '0'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--database', db, ...rate, ...extraArgs], {
      env: {
        ...process.env,
        NO_COLOR: '1',
        BERTH_DB: '',
        BERTH_DATABASE_URL: '',
        // PostgreSQL has no file to keep the key of sensitive values beside: every instance gets the tests' one.
        ...(db.startsWith('postgres') ? { BERTH_SECRET_KEY: TEST_SECRET_KEY_LINE } : {}),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${err}`)), 20_000);
    const onExit = (code: number | null) => reject(new Error(`serve exited with ${code}:\n${err}`));
    child.on('exit', onExit);
    child.stderr.on('data', (d) => {
      err += d;
      const url = /berth listening on (https?:\/\/\S+)/.exec(err)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        child,
        url,
        token: /^\s+(berth\.\S+)$/m.exec(err)?.[1] ?? null,
        stderr: () => err,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill(signal);
          }),
      });
    });
  });
}

/**
 * The CLI pointed at a running `serve` with its site-administrator token and `--org ORG`:
 * `remote(...args)` runs it, `json(...args)` runs it with `--json`, expects success and no
 * stderr, and parses stdout.
 */
export function remoteCli(server: () => ServeProcess, org: string) {
  const remote = (...args: string[]) =>
    runCli([...args, '--server', server().url, '--token', server().token!, '--org', org]);
  return { remote, json: jsonOf(remote, { quiet: true }) };
}
