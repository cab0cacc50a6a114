import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoQuery, queryByIds } from '../../../src/store/memo-query.js';
import { directRows, readRows } from '../../../src/store/direct-reads.js';
import { writeTransaction } from '../../../src/store/transaction.js';
import type { Store } from '../../../src/store/open.js';
import { openTestStore } from '../../helpers/store.js';

// Runs on the engine of the API suite: on PostgreSQL nothing is read directly (directRows is
// null) and every assertion holds through kysely.
let store: Store;
beforeEach(async () => {
  store = await openTestStore();
  await store.db
    .insertInto('settings')
    .values([
      { key: 'direct-a', value: 'one' },
      { key: 'direct-b', value: 'two' },
    ])
    .execute();
});
afterEach(() => store.close());

const byKey = memoQuery((db, p: { key: string }) =>
  db.selectFrom('settings').select(['key', 'value', 'key as again']).where('key', '=', p.key),
);
const byKeys = queryByIds((db, keys) =>
  db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).orderBy('key'),
);

describe('direct reads (store/direct-reads.ts)', () => {
  it('give the rows kysely gives, with the same names, for memoized and listed queries', async () => {
    const query = store.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'like', 'direct-%')
      .orderBy('key');
    const viaKysely = await query.execute();
    expect(await readRows(store.db, query)).toEqual(viaKysely);
    expect(viaKysely).toEqual([
      { key: 'direct-a', value: 'one' },
      { key: 'direct-b', value: 'two' },
    ]);
    expect(await byKey.first(store.db, { key: 'direct-b' })).toEqual({
      key: 'direct-b',
      value: 'two',
      again: 'direct-b',
    });
    expect(await byKeys(store.db, ['direct-b', 'direct-a'])).toEqual(viaKysely);
    expect(await byKeys(store.db, ['direct-a'])).toEqual([{ key: 'direct-a', value: 'one' }]);
  });

  it('never run inside a transaction of the connection, nor for a transaction, nor for a write', async () => {
    const select = store.db.selectFrom('settings').select('value').where('key', '=', 'direct-a').compile();
    const update = store.db.updateTable('settings').set({ value: 'x' }).where('key', '=', 'direct-a').compile();
    expect(directRows(store.db, update)).toBeNull();
    await writeTransaction(store.db, async (tx) => {
      await tx.updateTable('settings').set({ value: 'one' }).where('key', '=', 'direct-a').execute();
      expect(directRows(tx, select)).toBeNull();
      // The connection is in the transaction: another request's read must wait for its end.
      expect(directRows(store.db, select)).toBeNull();
    });
    expect(await byKey.first(store.db, { key: 'direct-a' })).toMatchObject({ value: 'one' });
  });

  it('a read while another request holds a write transaction open sees only committed data', async () => {
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writer = writeTransaction(store.db, async (tx) => {
      await tx.updateTable('settings').set({ value: 'uncommitted' }).where('key', '=', 'direct-a').execute();
      written();
      await paused;
    });
    await wrote;
    // Started while the write is open: it waits for the commit, then sees it (never the write
    // half-done, never a value the transaction might still roll back).
    const read = byKey.first(store.db, { key: 'direct-a' });
    release();
    await writer;
    expect((await read)?.value).toBe('uncommitted');
    expect((await byKey.first(store.db, { key: 'direct-a' }))?.value).toBe('uncommitted');
  });

  it('a read while a write transaction rolls back never sees the rolled-back value', async () => {
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writer = writeTransaction(store.db, async (tx) => {
      await tx.updateTable('settings').set({ value: 'rolled back' }).where('key', '=', 'direct-a').execute();
      written();
      await paused;
      throw new Error('roll back');
    }).catch((err: Error) => err.message);
    await wrote;
    const read = byKey.first(store.db, { key: 'direct-a' });
    release();
    expect(await writer).toBe('roll back');
    expect((await read)?.value).toBe('one');
  });
});
