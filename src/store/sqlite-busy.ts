import type { Database } from 'better-sqlite3';
import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * How long a statement may wait for a lock that another connection or process holds (SQLite's
 * write lock, mostly) before it fails with SQLITE_BUSY, which the API answers 503 with
 * Retry-After. Until berth waited in SQLite's own busy handler, this was its busy timeout.
 */
export const LOCK_WAIT_MS = 10_000;

/** Whether SQLite refused a statement because another connection holds a lock it needs (worth retrying). */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY' || code === 'SQLITE_BUSY_TIMEOUT';
}

/** Milliseconds to wait before try `attempt` (0, 1, ...): quick at first, then every 25 ms, with some jitter. */
export function lockRetryDelay(attempt: number): number {
  const base = [1, 2, 5, 10, 15, 20][attempt] ?? 25;
  return base * (0.75 + Math.random() / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SQLite waits for a lock by sleeping in its busy handler, and better-sqlite3 runs on the event
 * loop's thread: a statement waiting there for another process's write lock (a CLI bulk job, a
 * second `serve`) froze every request of the server, health checks included. So berth's
 * connections have no busy timeout; a statement refused with SQLITE_BUSY is tried again here
 * after a pause that lets the event loop run, until `LOCK_WAIT_MS` has passed.
 *
 * Only where a retry is sound: a statement outside a transaction (SQLite rolled it back whole), a
 * read (a read that got no snapshot did nothing), and COMMIT. A write inside a transaction is not
 * retried (SQLite's own rule: roll back instead); in berth it cannot be refused anyway, since a
 * write transaction holds the write lock from its start. That start, `BEGIN IMMEDIATE`, is not
 * retried here but in `writeTransaction`, which gives the connection back while it waits so that
 * reads go on meanwhile (transaction.ts).
 */
export class BusyWaitingSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: Database,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new BusyWaitingDriver(super.createDriver(), this.sqlite);
  }
}

class BusyWaitingDriver implements Driver {
  #connection: DatabaseConnection | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly sqlite: Database,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    // SQLite's driver has one connection: wrap it once.
    if (!this.#connection) {
      const sqlite = this.sqlite;
      this.#connection = {
        async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
          const deadline = performance.now() + LOCK_WAIT_MS;
          for (let attempt = 0; ; attempt++) {
            try {
              return await conn.executeQuery<R>(query);
            } catch (err) {
              if (!isSqliteBusy(err) || performance.now() >= deadline || !retryable(sqlite, query.sql)) throw err;
            }
            await sleep(lockRetryDelay(attempt));
          }
        },
        streamQuery: (query, chunkSize) => conn.streamQuery(query, chunkSize),
      };
    }
    return this.#connection;
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(conn, settings);
  }
  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(conn);
  }
  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(conn);
  }
  async savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!(conn, name, compile);
  }
  async rollbackToSavepoint(
    conn: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint!(conn, name, compile);
  }
  async releaseSavepoint(
    conn: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint!(conn, name, compile);
  }
  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(conn);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function retryable(sqlite: Database, text: string): boolean {
  if (/^\s*begin\s+immediate\b/i.test(text)) return false;
  if (!sqlite.inTransaction || /^\s*commit\b/i.test(text)) return true;
  try {
    return sqlite.prepare(text).reader;
  } catch {
    return false;
  }
}
