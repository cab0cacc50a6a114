import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Flushes a SQLite file's write-ahead log to the disk (`fdatasync`) on libuv's thread pool, so
 * that the event loop goes on serving while the disk works: what `--durability full` waits for
 * before a write is answered (group-commit.ts).
 *
 * Why not SQLite's own `synchronous=FULL`: better-sqlite3 runs on the event loop's thread, so the
 * fsync inside each COMMIT (a millisecond or several on a busy disk) would stop every request of
 * the server, reads included, for its length. The writer connection commits with
 * `synchronous=NORMAL` instead (the WAL written, not flushed; SQLite keeps the file consistent
 * whatever happens), and this flushes the WAL after the commit and before the answer: a flush of
 * the file's inode covers every frame written before it started, from any connection.
 *
 * Flushes coalesce: while one runs, every caller that asks is served by the next one, which
 * starts when the current one ends (the current one may have started before their commit).
 */
export class WalSync {
  #file: Promise<FileHandle> | null = null;
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;

  constructor(private readonly walPath: string) {}

  /** Resolves once every WAL frame written before the call is on the disk. */
  sync(): Promise<void> {
    if (!this.#running) return this.#start();
    this.#next ??= this.#running.then(
      () => this.#start(),
      () => this.#start(),
    );
    return this.#next;
  }

  #start(): Promise<void> {
    this.#next = null;
    const run = this.#flush();
    this.#running = run;
    const done = () => {
      if (this.#running === run) this.#running = null;
    };
    run.then(done, done);
    return run;
  }

  async #flush(): Promise<void> {
    this.#file ??= openWal(this.walPath);
    try {
      await (await this.#file).datasync();
    } catch (err) {
      // Opened again by the next flush (a failed open, or a handle gone bad).
      this.#file = null;
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.#running?.catch(() => undefined);
    await this.#next?.catch(() => undefined);
    const file = this.#file;
    this.#file = null;
    if (file) await (await file).close();
  }
}

/** The WAL file, opened once; its folder is flushed too, so that the file's own entry survives. */
async function openWal(path: string): Promise<FileHandle> {
  const file = await open(path, 'r');
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return file;
}
