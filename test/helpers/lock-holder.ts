import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const SQLITE_MODULE = createRequire(import.meta.url).resolve('better-sqlite3');

/** A child process that holds the write lock of a SQLite database file (`BEGIN IMMEDIATE`) for a while. */
export interface LockHolder {
  /** When the child reported the lock released (performance.now() of this process). */
  released: Promise<number>;
  kill(): void;
}

const SCRIPT = `
const Database = require(process.env.SQLITE_MODULE);
const db = new Database(process.env.DB, { fileMustExist: true });
db.pragma('busy_timeout = 10000');
db.exec('begin immediate');
process.stdout.write('held\\n');
setTimeout(() => {
  db.exec('commit');
  process.stdout.write('released\\n');
  db.close();
}, Number(process.env.HOLD_MS));
`;

/**
 * Starts another process that takes the database's write lock and keeps it `ms` milliseconds, as a
 * CLI bulk job or a second `serve` may; resolves once the lock is held.
 */
export function holdWriteLock(db: string, ms: number): Promise<LockHolder> {
  const child = spawn(process.execPath, ['-e', SCRIPT], {
    env: { ...process.env, SQLITE_MODULE, DB: db, HOLD_MS: String(ms) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onReleased!: (at: number) => void;
  const released = new Promise<number>((resolve) => (onReleased = resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (!out.includes('held')) reject(new Error(`the lock holder exited with ${code}: ${err}`));
    });
    child.stdout.on('data', (d) => {
      const before = out;
      out += d;
      if (!before.includes('held') && out.includes('held')) resolve({ released, kill: () => child.kill('SIGKILL') });
      if (out.includes('released')) onReleased(performance.now());
    });
  });
}
