import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openStore, type Store } from '../../src/store/open.js';
import { GroupCommit, groupCommitOf } from '../../src/store/group-commit.js';
import type { DB } from '../../src/store/schema.js';
import type { WalSync } from '../../src/store/wal-sync.js';
import { writeTransaction, type CommitHook } from '../../src/store/transaction.js';
import { memoQuery } from '../../src/store/memo-query.js';
import { createApp } from '../../src/api/app.js';
import { loadSettings } from '../../src/services/instance/settings.js';
import { LOCAL_SITE_ADMIN } from '../../src/domain/permissions/actor.js';
import { tempDb } from '../helpers/cli.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Gives the event loop a turn (a batch stops taking transactions after 10 ms: no long sleeps inside one). */
const aTurn = () => new Promise((r) => setImmediate(r));

/** A WAL database at `path` with one table `t (k text)`, for the group commits over a fake flush. */
function walTable(path: string): Database.Database {
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.exec('create table t (k text)');
  return raw;
}

/** A group commit on `raw` whose WAL flushes are `walSync`'s (a test's fake). */
function groupOver(raw: Database.Database, walSync: Pick<WalSync, 'sync' | 'close'>): GroupCommit {
  return new GroupCommit(new Kysely<DB>({ dialect: new SqliteDialect({ database: raw }) }), raw, walSync as WalSync);
}

/**
 * Group commit (src/store/group-commit.ts): on a SQLite file, the write transactions of
 * concurrent requests share one SQLite transaction, each in its own savepoint, and one COMMIT.
 * SQLite files only: PostgreSQL commits each transaction on its own.
 */
describe('group commit of SQLite write transactions', () => {
  let tmp: ReturnType<typeof tempDb>;
  let store: Store;
  /** Another connection to the file: it sees only what was committed. */
  let outside: Database.Database;

  beforeEach(async () => {
    tmp = tempDb();
    store = await openStore(tmp.db, { durability: 'normal' });
    await sql`create table t (k text primary key)`.execute(store.db);
    outside = new Database(tmp.db, { readonly: true });
  });
  afterEach(async () => {
    outside.close();
    await store.close();
    tmp.cleanup();
  });

  const committed = (k: string) => outside.prepare('select count(*) as n from t where k = ?').get(k) as { n: number };
  const insert = (k: string) => (tx: typeof store.db) => sql`insert into t (k) values (${k})`.execute(tx);

  it('runs concurrent writes in one transaction: one fails alone, the other commits, and neither is answered before the commit', async () => {
    const settled: string[] = [];
    const seenInB: { aSettled: boolean; aCommitted: number; aVisibleToB: number; aVisibleToReads: number }[] = [];
    const a = writeTransaction(store.db, async (tx) => {
      await insert('a')(tx);
      await aTurn(); // b is queued meanwhile
      return 'a done';
    }).then((v) => {
      settled.push('a');
      // Answered only once committed: another connection sees its row.
      expect(committed('a').n).toBe(1);
      return v;
    });
    const b = writeTransaction(store.db, async (tx) => {
      const count = async (db: typeof tx) =>
        (await sql<{ n: number }>`select count(*) as n from t where k = 'a'`.execute(db)).rows[0].n;
      seenInB.push({
        aSettled: settled.includes('a'),
        aCommitted: committed('a').n,
        aVisibleToB: await count(tx),
        // The store's reads (its main connection) see only committed rows, and do not wait for the batch.
        aVisibleToReads: await count(store.db),
      });
      await insert('b')(tx);
      throw new Error('b fails');
    }).catch((err: Error) => {
      settled.push('b');
      return err.message;
    });
    expect(await a).toBe('a done');
    expect(await b).toBe('b fails');
    // b ran after a's work, in the same SQLite transaction: a's row visible to b, not yet committed
    // (and a not yet answered).
    expect(seenInB).toEqual([{ aSettled: false, aCommitted: 0, aVisibleToB: 1, aVisibleToReads: 0 }]);
    expect(committed('a').n).toBe(1);
    expect(committed('b').n).toBe(0);
  });

  it("keeps each transaction's statements together (savepoints never interleave) and answers in order", async () => {
    const order: string[] = [];
    const job = (k: string) =>
      writeTransaction(store.db, async (tx) => {
        order.push(`${k} start`);
        await insert(`${k}1`)(tx);
        await aTurn();
        await insert(`${k}2`)(tx);
        order.push(`${k} end`);
        return k;
      });
    expect(await Promise.all([job('x'), job('y'), job('z')])).toEqual(['x', 'y', 'z']);
    expect(order).toEqual(['x start', 'x end', 'y start', 'y end', 'z start', 'z end']);
    for (const k of ['x1', 'x2', 'y1', 'y2', 'z1', 'z2']) expect(committed(k).n).toBe(1);
  });

  it("runs each request's commit hook (the audit record) inside its savepoint: a failed write leaves no record", async () => {
    const calls: string[] = [];
    const hook = (name: string): CommitHook => ({
      async beforeCommit(tx) {
        calls.push(`${name} before`);
        await insert(`record of ${name}`)(tx);
      },
      afterCommit() {
        calls.push(`${name} after`);
      },
    });
    const ok = writeTransaction({ db: store.db, commitHook: hook('ok') }, insert('ok'));
    const bad = writeTransaction({ db: store.db, commitHook: hook('bad') }, async (tx) => {
      await insert('bad')(tx);
      throw new Error('refused');
    }).catch((e: Error) => e.message);
    await ok;
    expect(await bad).toBe('refused');
    expect(calls).toEqual(['ok before', 'ok after']);
    expect(committed('record of ok').n).toBe(1);
    expect(committed('record of bad').n).toBe(0);
    expect(committed('bad').n).toBe(0);
  });

  it("runs memoized statements straight on the writer: a transaction sees its own rows, a constraint error fails it alone, with SQLite's error", async () => {
    const t = (db: Kysely<DB>) => db as unknown as Kysely<{ t: { k: string } }>;
    const put = memoQuery((db, p: { k: string }) => t(db).insertInto('t').values({ k: p.k }));
    const get = memoQuery((db, p: { k: string }) => t(db).selectFrom('t').select('k').where('k', '=', p.k));
    const a = writeTransaction(store.db, async (tx) => {
      await put.execute(tx, { k: 'm' });
      const seen = await get.execute(tx, { k: 'm' });
      await aTurn(); // b is queued meanwhile, and runs in the same batch
      return seen;
    });
    const b = writeTransaction(store.db, async (tx) => {
      await put.execute(tx, { k: 'n' });
      await put.execute(tx, { k: 'm' });
    });
    expect(await a).toEqual([{ k: 'm' }]);
    await expect(b).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(committed('m').n).toBe(1);
    // b's first insert went with it.
    expect(committed('n').n).toBe(0);
  });

  it('fails every write of the batch when the batch is lost before its commit, and commits none of them', async () => {
    const first = writeTransaction(store.db, async (tx) => {
      await insert('first')(tx);
      await aTurn();
    }).then(
      () => 'committed',
      () => 'failed',
    );
    // As SQLite does on some errors (a full disk): the whole transaction is rolled back.
    const breaker = writeTransaction(store.db, async (tx) => {
      await sql`rollback`.execute(tx);
      throw new Error('disk full');
    }).then(
      () => 'committed',
      (e: Error) => e.message,
    );
    expect(await first).toBe('failed');
    expect(await breaker).toBe('disk full');
    expect(committed('first').n).toBe(0);
    // The next write works.
    await writeTransaction(store.db, insert('after'));
    expect(committed('after').n).toBe(1);
  });

  it('shares the commit between concurrent API requests: each lock answers after the commit, one 200 and one 409 for the same workspace', async () => {
    const settings = await loadSettings(store.db);
    const app = createApp({ db: store.db, settings, localActor: LOCAL_SITE_ADMIN });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`http://berth.test${path}`, {
          method,
          headers: { 'content-type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: res.status, json: (await res.json()) as { data: { id: string } } };
    };
    expect(
      (
        await call('POST', '/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
        })
      ).status,
    ).toBe(201);
    const ws = await call('POST', '/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'app' } },
    });
    expect(ws.status).toBe(201);
    const id = ws.json.data.id;
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const r = await call('POST', `/api/v2/workspaces/${id}/actions/lock`, { reason: 'race' });
        // Answered after the commit: another connection sees the lock.
        const row = outside.prepare('select locked from workspaces where id = ?').get(id) as { locked: number };
        return { status: r.status, locked: row.locked };
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(answers.every((a) => a.locked === 1)).toBe(true);
    const records = outside
      .prepare("select count(*) as n from audit_events where action = 'workspace.lock' and target_id = ?")
      .get(id) as { n: number };
    expect(records.n).toBe(1);
  });
});

describe('durability of a SQLite file', () => {
  let tmp: ReturnType<typeof tempDb>;
  beforeEach(() => {
    tmp = tempDb();
  });
  afterEach(() => tmp.cleanup());

  const synchronous = async (store: Store) =>
    (await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db)).rows[0].synchronous;

  it('full (the default): synchronous=FULL on the main connection, and every commit flushed before it is answered', async () => {
    const store = await openStore(tmp.db);
    try {
      expect(store.durability).toBe('full');
      expect(await synchronous(store)).toBe(2);
      await writeTransaction(store.db, async (tx) => {
        await sql`create table t (k text)`.execute(tx);
      });
      expect(groupCommitOf(store.db)!.flushesCommits).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('normal: synchronous=NORMAL, no flush', async () => {
    const store = await openStore(tmp.db, { durability: 'normal' });
    try {
      expect(store.durability).toBe('normal');
      expect(await synchronous(store)).toBe(1);
      expect(groupCommitOf(store.db)!.flushesCommits).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('refuses an unknown durability', async () => {
    await expect(openStore(tmp.db, { durability: 'sometimes' as never })).rejects.toThrow(
      /durability must be one of full, normal/,
    );
  });
});

describe('durability full: a write is answered only after the WAL is flushed', () => {
  it('holds the answers of a committed batch until the flush ends, and fails them if it fails', async () => {
    const tmp = tempDb();
    const raw = walTable(tmp.db);
    let release: (err?: Error) => void = () => undefined;
    const flushes: string[] = [];
    const walSync = {
      sync: () =>
        new Promise<void>((resolve, reject) => {
          flushes.push('asked');
          release = (err) => (err ? reject(err) : resolve());
        }),
      close: () => Promise.resolve(),
    };
    const group = groupOver(raw, walSync);
    const reader = new Database(tmp.db, { readonly: true });
    try {
      let answered = false;
      const write = group
        .run(undefined, (tx) => sql`insert into t (k) values ('x')`.execute(tx))
        .then(() => {
          answered = true;
        });
      while (flushes.length === 0) await sleep(1);
      // Committed (another connection sees it), not answered until the flush ends.
      expect((reader.prepare('select count(*) as n from t').get() as { n: number }).n).toBe(1);
      await sleep(20);
      expect(answered).toBe(false);
      release();
      await write;
      expect(answered).toBe(true);

      const failing = group.run(undefined, (tx) => sql`insert into t (k) values ('y')`.execute(tx));
      while (flushes.length === 1) await sleep(1);
      release(new Error('EIO'));
      await expect(failing).rejects.toThrow('EIO');
    } finally {
      reader.close();
      await group.close();
      tmp.cleanup();
    }
  });

  it('keeps a batch open while the previous flush is under way: the writes that arrive meanwhile share one commit and one flush', async () => {
    const tmp = tempDb();
    const raw = walTable(tmp.db);
    const releases: (() => void)[] = [];
    const walSync = {
      sync: () => new Promise<void>((resolve) => releases.push(resolve)),
      close: () => Promise.resolve(),
    };
    const group = groupOver(raw, walSync);
    const reader = new Database(tmp.db, { readonly: true });
    const count = () => (reader.prepare('select count(*) as n from t').get() as { n: number }).n;
    const put = (k: string) => group.run(undefined, (tx) => sql`insert into t (k) values (${k})`.execute(tx));
    try {
      const answered: string[] = [];
      const first = put('a').then(() => answered.push('a'));
      while (releases.length === 0) await aTurn();
      expect(count()).toBe(1);
      // While a's flush runs, b and c join one open batch: not committed yet, no flush asked.
      const rest = [put('b'), put('c')].map((w, i) => w.then(() => answered.push(['b', 'c'][i])));
      for (let i = 0; i < 3; i++) await aTurn();
      expect(count()).toBe(1);
      expect(releases).toHaveLength(1);
      // a's flush ends: a is answered, then b and c commit together and their one flush is asked.
      releases[0]();
      await first;
      while (releases.length === 1) await aTurn();
      expect(count()).toBe(3);
      expect(answered).toEqual(['a']);
      releases[1]();
      await Promise.all(rest);
      expect(answered).toEqual(['a', 'b', 'c']);
      expect(releases).toHaveLength(2);
    } finally {
      reader.close();
      await group.close();
      tmp.cleanup();
    }
  });
});
