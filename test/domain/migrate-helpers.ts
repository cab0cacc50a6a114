import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

/** An in-memory SQLite database with berth's migrations applied up to `version` only. */
export async function sqliteFreshUpTo(version: number): Promise<Kysely<any>> {
  const sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= version),
  );
  return db;
}
