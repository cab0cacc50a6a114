import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The worker: its own connection to the file, a PASSIVE checkpoint every interval. */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the request path of a long-running server. By default the
 * connection that commits the 1000th page of the WAL copies the WAL back into the database file,
 * with its fsyncs, inside that commit: every few hundred writes one request waits for it, and the
 * average commit costs several times its own work. Here a worker thread with its own connection
 * checkpoints every `intervalMs` (PASSIVE: it never blocks readers or writers), in parallel with
 * the requests. The caller keeps a high automatic checkpoint threshold on its own connection, as
 * a bound on the WAL should the worker fall behind; `onFailure` runs if the worker dies.
 */
export function startCheckpointer(path: string, intervalMs = 100, onFailure: () => void = () => {}): Checkpointer {
  // The worker loads the same addon: its path from here (the CommonJS bundle, or ES modules in tests).
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  const module = createRequire(here).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, path, intervalMs } });
  worker.unref();
  // The worker can fail (it cannot load its module when the process is out of file descriptors,
  // as under a socket flood): an unhandled 'error' would end the whole process. The caller then
  // checkpoints on its own connection again.
  worker.on('error', onFailure);
  let exited = false;
  worker.once('exit', () => (exited = true));
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      // A worker that already ended (it failed) sends nothing more: there is nothing to wait for.
      if (exited) return Promise.resolve();
      stopped ??= new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.once('error', () => resolve());
        worker.postMessage('stop');
      }).then(() => worker.terminate().then(() => undefined));
      return stopped;
    },
  };
}
