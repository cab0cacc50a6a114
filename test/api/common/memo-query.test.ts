import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoQuery, MemoQueryRuleError } from '../../../src/store/memo-query.js';
import { writeTransaction } from '../../../src/store/transaction.js';
import type { Store } from '../../../src/store/open.js';
import { openTestStore } from '../../helpers/store.js';

// Runs on the engine of the API suite (SQLite, or PostgreSQL under scripts/test-postgres.mjs).
let store: Store;
beforeEach(async () => {
  store = await openTestStore();
  await store.db
    .insertInto('settings')
    .values([
      { key: 'memo-a', value: 'one' },
      { key: 'memo-b', value: 'two' },
    ])
    .execute();
});
afterEach(() => store.close());

const byKey = memoQuery((db, p: { key: string }) =>
  db.selectFrom('settings').select(['key', 'value']).where('key', '=', p.key),
);
const byKeys = memoQuery((db, p: { a: string; b: string }) =>
  db.selectFrom('settings').select('value').where('key', 'in', [p.a, p.b]).orderBy('key'),
);
const setValue = memoQuery((db, p: { key: string; value: string }) =>
  db.updateTable('settings').set({ value: p.value }).where('key', '=', p.key),
);

describe('memoQuery', () => {
  it('runs the one compiled query with each call’s own parameters', async () => {
    expect(await byKey.first(store.db, { key: 'memo-a' })).toEqual({ key: 'memo-a', value: 'one' });
    expect(await byKey.first(store.db, { key: 'memo-b' })).toEqual({ key: 'memo-b', value: 'two' });
    expect(await byKey.first(store.db, { key: 'none' })).toBeUndefined();
    expect(await byKeys.execute(store.db, { a: 'memo-b', b: 'memo-a' })).toEqual([{ value: 'one' }, { value: 'two' }]);
  });

  it('works inside transactions, and writes the values given', async () => {
    await writeTransaction(store.db, (tx) => setValue.execute(tx, { key: 'memo-a', value: 'uno' }));
    await setValue.execute(store.db, { key: 'memo-b', value: 'dos' });
    expect(await byKeys.execute(store.db, { a: 'memo-a', b: 'memo-b' })).toEqual([{ value: 'uno' }, { value: 'dos' }]);
  });

  it('builds as usual when a parameter is undefined or the names differ', async () => {
    const partial = memoQuery((db, p: { key: string; value?: string }) =>
      db.updateTable('settings').set({ key: p.key, value: p.value }).where('key', '=', p.key),
    );
    await partial.execute(store.db, { key: 'memo-a', value: 'first' });
    // `value` undefined: kysely leaves it out of the update, so the value stays.
    await partial.execute(store.db, { key: 'memo-a', value: undefined });
    expect(await byKey.first(store.db, { key: 'memo-a' })).toEqual({ key: 'memo-a', value: 'first' });
    await partial.execute(store.db, { key: 'memo-b' });
    expect(await byKey.first(store.db, { key: 'memo-b' })).toEqual({ key: 'memo-b', value: 'two' });
  });

  it('refuses, while the tests run, a query whose shape depends on its values or that compares a null', async () => {
    expect(process.env.BERTH_CHECK_MEMO_QUERIES).toBe('1');
    const lowered = memoQuery((db, p: { key: string }) =>
      db.selectFrom('settings').select('value').where('key', '=', String(p.key).toLowerCase()),
    );
    await expect(lowered.first(store.db, { key: 'MEMO-A' })).rejects.toBeInstanceOf(MemoQueryRuleError);
    // kysely writes `is null` for a null, `is ?` for a placeholder (which PostgreSQL refuses).
    const nullable = memoQuery((db, p: { value: string | null }) =>
      db.selectFrom('settings').select('key').where('value', 'is', p.value),
    );
    await expect(nullable.first(store.db, { value: null })).rejects.toBeInstanceOf(MemoQueryRuleError);
  });
});
