import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const SQLITE_MODULE = createRequire(import.meta.url).resolve('better-sqlite3');

/** A child process that holds the write lock of a SQLite database file (`BEGIN IMMEDIATE`). */
export interface LockHolder {
  /** When the child reported the lock released (performance.now() of this process). */
  released: Promise<number>;
  /** Tells the child to commit (release the lock); resolves once it reported it released. */
  release(): Promise<number>;
  kill(): void;
}

const SCRIPT = `
const Database = require(process.env.SQLITE_MODULE);
const db = new Database(process.env.DB, { fileMustExist: true });
db.pragma('busy_timeout = 10000');
db.exec('begin immediate');
process.stdout.write('held\\n');
let done = false;
const release = () => {
  if (done) return;
  done = true;
  db.exec('commit');
  process.stdout.write('released\\n');
  db.close();
  process.exit(0);
};
// Told to, or its parent gone (stdin closed): never a lock left held by a forgotten child.
process.stdin.on('data', release);
process.stdin.on('end', release);
if (process.env.HOLD_MS !== 'forever') setTimeout(release, Number(process.env.HOLD_MS));
`;

/**
 * Starts another process that takes the database's write lock and keeps it `ms` milliseconds, as a
 * CLI bulk job or a second `serve` may, or until `release()` (or `kill()`) when `ms` is
 * 'forever' (tests that wait for events, not for time); resolves once the lock is held.
 */
export function holdWriteLock(db: string, ms: number | 'forever'): Promise<LockHolder> {
  const child = spawn(process.execPath, ['-e', SCRIPT], {
    env: { ...process.env, SQLITE_MODULE, DB: db, HOLD_MS: String(ms) },
    stdio: ['pipe', 'pipe', 'pipe'],
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
      if (!before.includes('held') && out.includes('held'))
        resolve({
          released,
          release: () => {
            child.stdin.end('release\n');
            return released;
          },
          kill: () => child.kill('SIGKILL'),
        });
      if (out.includes('released')) onReleased(performance.now());
    });
  });
}
