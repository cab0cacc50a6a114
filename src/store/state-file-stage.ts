import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { StateFileKind } from '../domain/state/state-url.js';
import type { DB } from './schema.js';
import { LOCK_WAIT_MS } from './sqlite-busy.js';

/** The SQLite files of open stores (in-memory databases and PostgreSQL have none). */
const files = new WeakMap<Kysely<DB>, string>();

/** Called by the SQLite store when it opens a file: its big state files can be written off the event loop. */
export function registerSqliteFile(db: Kysely<DB>, path: string): void {
  files.set(db, path);
}

/** Whether `stageStateFile` can write on this database (a SQLite file). */
export function canStageStateFile(db: Kysely<DB>): boolean {
  return files.has(db);
}

/**
 * `staged`: written; `same`: the version already has a file of these very bytes that was not yet
 * recorded (staged by an upload that died before recording it, or by a concurrent upload of the
 * same file); `exists`: it has a different one; `gone`: the version no longer exists.
 */
export type StageOutcome = 'staged' | 'same' | 'exists' | 'gone';

/** The worker: its own connection to the file, one insert (waiting for the write lock there, not on the event loop). */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
parentPort.once('message', ({ id, kind, bytes }) => {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let outcome;
  let db;
  try {
    db = new Database(workerData.path, { fileMustExist: true });
    db.pragma('busy_timeout = ' + workerData.busyMs);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    try {
      db.prepare('insert into state_files (state_version_id, kind, body) values (?, ?, ?)').run(id, kind, body);
      outcome = 'staged';
    } catch (err) {
      const code = err && err.code;
      if (code !== 'SQLITE_CONSTRAINT_PRIMARYKEY' && code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
      // A file is there already: are they the same bytes?
      const row = db.prepare('select body = ? as same from state_files where state_version_id = ? and kind = ?').get(body, id, kind);
      outcome = row && row.same === 1 ? 'same' : 'exists';
    }
    // Copied into the database file here, so that the next commit of the server's own connection
    // does not find a WAL past its automatic checkpoint threshold and copy it on the event loop.
    if (outcome === 'staged') try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  } catch (err) {
    const code = err && err.code;
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') outcome = 'gone';
    else if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_TIMEOUT') outcome = 'busy';
    else outcome = { error: String(err && err.message) };
  } finally {
    if (db) db.close();
  }
  parentPort.postMessage({ outcome, bytes }, [bytes.buffer]);
});
`;

/**
 * A test hook (test/e2e/serve-state-crash.test.ts): with `BERTH_TEST_CRASH_AFTER_STAGING` set to
 * a file kind, the process kills itself (SIGKILL) right after staging a file of that kind, before
 * the version records it: the one moment a crash leaves a staged file behind.
 */
function crashAfterStaging(kind: StateFileKind): void {
  if (process.env.BERTH_TEST_CRASH_AFTER_STAGING === kind) process.kill(process.pid, 'SIGKILL');
}

/**
 * Writes a version's state file (`state` or `json-state`) in its own short transaction on a worker
 * thread with its own connection: writing tens of megabytes into SQLite takes hundreds of
 * milliseconds, which must not block the event loop, nor happen inside the transaction that
 * records the rest. The row is written before the version is finalized (a pending version's file
 * is never served). `bytes` is handed over to the worker (its memory moves there and back): use
 * the `bytes` answered instead. Only for a SQLite file (`canStageStateFile`).
 */
export function stageStateFile(
  db: Kysely<DB>,
  id: string,
  kind: StateFileKind,
  bytes: Buffer,
): Promise<{ outcome: StageOutcome; bytes: Buffer }> {
  const path = files.get(db);
  if (!path) throw new Error('state files are staged only on a SQLite file');
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  const module = createRequire(here).resolve('better-sqlite3');
  // The worker gets the memory itself, without a copy, when the buffer is the whole of it.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = own ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { module, path, busyMs: LOCK_WAIT_MS } });
    let answered = false;
    worker.once('message', (answer: { outcome: StageOutcome | 'busy' | { error: string }; bytes: Uint8Array }) => {
      answered = true;
      void worker.terminate();
      const { outcome } = answer;
      const back = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
      if (outcome === 'staged') crashAfterStaging(kind);
      // The write lock stayed taken for LOCK_WAIT_MS: the same error as a write transaction's (503).
      if (outcome === 'busy')
        reject(Object.assign(new Error('the database is locked by another writer'), { code: 'SQLITE_BUSY' }));
      else if (typeof outcome === 'string') resolve({ outcome, bytes: back });
      else reject(new Error(`could not write the state file: ${outcome.error}`));
    });
    worker.once('error', (err) => {
      if (!answered) reject(err);
      answered = true;
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the state file writer stopped with code ${code}`));
    });
    worker.postMessage({ id, kind, bytes: view }, [view.buffer as ArrayBuffer]);
  });
}
