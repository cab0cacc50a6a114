import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/open.js';

/**
 * The store the API tests run on: a private in-memory SQLite database, or, when
 * `BERTH_TEST_DATABASE_URL` names a PostgreSQL database (scripts/test-postgres.mjs sets it), a
 * fresh schema of its own in that database, dropped again on close. One variable switches the
 * whole API suite from one engine to the other.
 */
export const TEST_DATABASE_URL = process.env.BERTH_TEST_DATABASE_URL || undefined;

let admin: pg.Pool | undefined;
function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  return admin;
}

/** The URL of a PostgreSQL schema: every connection of the pool starts with it on its search path. */
export function schemaUrl(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A new, empty PostgreSQL schema in the test database, and its URL. */
export async function freshPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('BERTH_TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(8).toString('hex')}`;
  await adminPool().query(`create schema ${schema}`);
  return {
    url: schemaUrl(TEST_DATABASE_URL, schema),
    drop: async () => {
      await adminPool().query(`drop schema if exists ${schema} cascade`);
    },
  };
}

export async function openTestStore(): Promise<Store> {
  if (!TEST_DATABASE_URL) return openStore(':memory:');
  const { url, drop } = await freshPostgresSchema();
  const u = new URL(url);
  u.searchParams.set('pool_max', '4');
  const store = await openStore(u.toString());
  const close = store.close.bind(store);
  return {
    ...store,
    async close() {
      await close();
      await drop();
    },
  };
}

/**
 * A database that several processes share (`berth serve` instances, CLI runs), for their
 * `--database`: a temporary SQLite file, or, under BERTH_TEST_DATABASE_URL, a fresh PostgreSQL
 * schema.
 */
export async function sharedDatabase(): Promise<{ location: string; cleanup: () => Promise<void> }> {
  if (TEST_DATABASE_URL) {
    const { url, drop } = await freshPostgresSchema();
    return { location: url, cleanup: drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'berth-test-'));
  return {
    location: join(dir, 'berth.db'),
    cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}
