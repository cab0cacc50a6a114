import type { Database } from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import { bindWriter, unbindWriter, writerRunner, type WriterRunner } from './direct-writer.js';
import type { DB } from './schema.js';
import { isSqliteBusy, lockRetryDelay, LOCK_WAIT_MS, sleep } from './sqlite-busy.js';
import type { CommitHook, Tx } from './transaction.js';
import type { WalSync } from './wal-sync.js';

/** At most this many write transactions share one commit, and a batch stops taking new ones after this long. */
export const MAX_BATCH = 64;
export const MAX_BATCH_MS = 10;

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
// Run by the writer's runner (direct-writer.ts), like the transactions' own statements.
const SAVEPOINT = CompiledQuery.raw('savepoint berth_write');
const RELEASE = CompiledQuery.raw('release berth_write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to berth_write');

interface Job {
  fn: (tx: Tx) => Promise<unknown>;
  hook: CommitHook | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** When its wait for another process's write lock ends in SQLITE_BUSY (the API's 503). */
  deadline: number;
}

type Outcome = { job: Job; ok: true; result: unknown } | { job: Job; ok: false; error: unknown };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Group commit of a SQLite file's write transactions: the write transactions of concurrent
 * requests share one SQLite transaction and one COMMIT (in WAL mode the commit, its writes and,
 * with `synchronous=FULL`, its fsync, cost more than the work of a lock or a create).
 *
 * - Writes run on a connection of their own (`writer`), reads on the store's main connection.
 *   Reads never see a batch's uncommitted rows (WAL: a reader sees what was committed when its
 *   read began), so a GET can be answered while a batch is open; and reads never wait for writes.
 * - The batch takes the file's write lock (`BEGIN IMMEDIATE`), then runs the queued transactions
 *   one after the other, each whole inside its own SAVEPOINT (they never interleave: one's
 *   statements all run before the next one starts). One that fails is rolled back to its
 *   savepoint alone; the others keep their work. Its request's commit hook (the audit record)
 *   runs inside its savepoint, so a change and its record still commit together.
 * - When the queue is empty, the batch gives the event loop one turn (requests that were parsed
 *   meanwhile join it), then commits; at most `MAX_BATCH` transactions or `MAX_BATCH_MS`.
 * - Every transaction of the batch is settled only after the COMMIT (and, with `walSync`, the
 *   durability `full`, after the WAL was flushed to the disk, wal-sync.ts): its result, or its
 *   own error. If the commit fails (or SQLite rolled the whole transaction back, e.g. on a full
 *   disk), every transaction of the batch fails with that error: none was acknowledged. The next
 *   batch may run while the flush of the previous one is under way; its own flush covers both.
 * - While another process holds the write lock, `BEGIN IMMEDIATE` is tried again after a short
 *   pause (this connection serves no reads, so nothing else waits for it); a transaction that
 *   waited `LOCK_WAIT_MS` fails with SQLITE_BUSY, as before.
 */
export class GroupCommit {
  #queue: Job[] = [];
  #running = false;
  readonly #direct: WriterRunner;
  /** How many flushes (durability `full`) are under way. */
  #flushing = 0;
  /** Wakes a batch held open by `#hold`. */
  #wake: (() => void) | null = null;

  constructor(
    private readonly writer: Kysely<DB>,
    private readonly sqlite: Database,
    private readonly walSync: WalSync | null = null,
  ) {
    this.#direct = writerRunner(sqlite);
  }

  /** Whether commits are flushed to the disk before they are acknowledged (durability `full`). */
  get flushesCommits(): boolean {
    return this.walSync !== null;
  }

  /** Runs `fn` in the next batch; resolves with its result once the batch committed. */
  run<T>(hook: CommitHook | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        fn,
        hook,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline: performance.now() + LOCK_WAIT_MS,
      });
      if (!this.#running) void this.#drain();
      else this.#wake?.();
    });
  }

  /** Closes the writer connection (after the last batch). */
  async close(): Promise<void> {
    while (this.#running) await sleep(1);
    await this.walSync?.close();
    await this.writer.destroy();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        await this.writer
          .connection()
          .execute((conn) => this.#batch(conn))
          .catch((err: unknown) => this.#failQueued(err));
      }
    } finally {
      this.#running = false;
    }
  }

  #failQueued(err: unknown): void {
    const queued = this.#queue;
    this.#queue = [];
    for (const job of queued) job.reject(err);
  }

  /** Takes the write lock; false when no queued transaction is left to run (all timed out, or an error). */
  async #begin(conn: Tx): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await conn.executeQuery(BEGIN_IMMEDIATE);
        return true;
      } catch (err) {
        if (!isSqliteBusy(err)) {
          this.#failQueued(err);
          return false;
        }
        const now = performance.now();
        this.#queue = this.#queue.filter((job) => {
          if (job.deadline > now) return true;
          job.reject(err);
          return false;
        });
        if (this.#queue.length === 0) return false;
      }
      await sleep(lockRetryDelay(attempt));
    }
  }

  /** One transaction of the batch, inside its savepoint. */
  async #runJob(conn: Tx, job: Job): Promise<Outcome> {
    try {
      this.#direct(SAVEPOINT);
      const result = await job.fn(conn);
      if (job.hook) await job.hook.beforeCommit(conn, result);
      this.#direct(RELEASE);
      return { job, ok: true, result };
    } catch (error) {
      if (this.sqlite.inTransaction) {
        this.#rollbackTo();
      }
      return { job, ok: false, error };
    }
  }

  /** Undoes the work of the failed transaction, leaving the others of the batch as they were. */
  #rollbackTo(): void {
    for (const query of [ROLLBACK_TO, RELEASE]) {
      try {
        this.#direct(query);
      } catch {
        // The batch's checks (`inTransaction`) see what state SQLite is left in.
      }
    }
  }

  async #batch(conn: Tx): Promise<void> {
    bindWriter(conn, this.#direct);
    try {
      await this.#batchOn(conn);
    } finally {
      unbindWriter(conn);
    }
  }

  async #batchOn(conn: Tx): Promise<void> {
    if (!(await this.#begin(conn))) return;
    const done: Outcome[] = [];
    const started = performance.now();
    // Set when the batch as a whole is lost: SQLite rolled the transaction back, or the commit failed.
    let lost: { error: unknown } | null = null;
    while (this.#queue.length > 0) {
      const outcome = await this.#runJob(conn, this.#queue.shift()!);
      done.push(outcome);
      if (!this.sqlite.inTransaction) {
        lost = { error: outcome.ok ? new Error('the write transaction ended before its commit') : outcome.error };
        break;
      }
      if (done.length >= MAX_BATCH || performance.now() - started >= MAX_BATCH_MS) break;
      if (this.#queue.length === 0) await nextTurn();
      if (this.#queue.length === 0) await this.#hold(started);
    }
    if (!lost) {
      try {
        await conn.executeQuery(COMMIT);
      } catch (error) {
        lost = { error };
      }
    }
    if (lost) {
      if (this.sqlite.inTransaction) await conn.executeQuery(ROLLBACK).catch(() => undefined);
      for (const { job } of done) job.reject(lost.error);
      return;
    }
    const settle = () => {
      for (const outcome of done) {
        if (!outcome.ok) {
          outcome.job.reject(outcome.error);
          continue;
        }
        try {
          outcome.job.hook?.afterCommit();
          outcome.job.resolve(outcome.result);
        } catch (error) {
          outcome.job.reject(error);
        }
      }
    };
    if (!this.walSync) return settle();
    // Not awaited: the next batch runs meanwhile. A failed flush fails the batch's requests (their
    // change is committed, but whether it would survive a power cut is unknown).
    this.#flushing++;
    const ended = () => {
      this.#flushing--;
      this.#wake?.();
    };
    this.walSync.sync().then(
      () => {
        ended();
        settle();
      },
      (error: unknown) => {
        ended();
        for (const { job } of done) job.reject(error);
      },
    );
  }

  /**
   * Durability `full`: called when the open batch has no transaction left to run. While the
   * previous batch's flush is under way, keeps the batch open (returns when a transaction
   * arrives, to run it, or when that flush ended, to commit): this batch's own flush could only
   * start once that one ended (wal-sync.ts), so committing now would answer nobody sooner, and
   * the transactions that arrive meanwhile share its commit (fewer commits: less written to the
   * WAL, less CPU). Never past `MAX_BATCH_MS` since the batch began.
   */
  async #hold(started: number): Promise<void> {
    while (this.walSync && this.#flushing > 0 && this.#queue.length === 0) {
      const wait = started + MAX_BATCH_MS - performance.now();
      if (wait <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.#wake?.(), wait);
        this.#wake = () => {
          this.#wake = null;
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

/** The group commit of each SQLite file store, made when its first write transaction comes. */
const registry = new WeakMap<Kysely<DB>, { make: () => GroupCommit; made?: GroupCommit }>();

/** Called by the SQLite store of a file: its write transactions go through a `GroupCommit` made by `make`. */
export function registerGroupCommit(db: Kysely<DB>, make: () => GroupCommit): void {
  registry.set(db, { make });
}

/** The group commit of the store, if it has one (SQLite files; not `:memory:`, not PostgreSQL). */
export function groupCommitOf(db: Kysely<DB>): GroupCommit | undefined {
  const entry = registry.get(db);
  if (!entry) return undefined;
  return (entry.made ??= entry.make());
}

/** Closes the store's writer connection, if one was made. */
export async function closeGroupCommit(db: Kysely<DB>): Promise<void> {
  const entry = registry.get(db);
  registry.delete(db);
  await entry?.made?.close();
}
