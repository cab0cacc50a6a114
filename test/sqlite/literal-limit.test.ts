import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteDialect,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { inPage, LIMIT_ONE, literalLimit } from '../../src/store/literal-limit.js';
import { ROOT } from '../helpers/cli.js';

interface Rows {
  t: { n: number };
}

const postgres = new Kysely<Rows>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('literal limits', () => {
  it('are written into the SQL of both engines, not bound as parameters', () => {
    const sqlite = new Kysely<Rows>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    for (const db of [sqlite, postgres]) {
      const page = db.selectFrom('t').select('n').where('n', '>', 5).limit(literalLimit(20)).offset(40).compile();
      expect(page.sql).toMatch(/ limit 20 offset (\?|\$2)$/);
      expect(page.parameters).toEqual([5, 40]);
      const third = db
        .selectFrom('t')
        .select('n')
        .where('n', '>', 5)
        .$call(inPage({ number: 3, size: 20 }))
        .compile();
      expect(third.sql).toEqual(page.sql);
      expect(third.parameters).toEqual([5, 40]);
      const one = db.selectFrom('t').select('n').limit(LIMIT_ONE).compile();
      expect(one.sql).toMatch(/ limit 1$/);
      expect(one.parameters).toEqual([]);
    }
  });

  it('limit what SQLite answers', async () => {
    const sqlite = new Database(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3), (4)');
    const db = new Kysely<Rows>({ dialect: new SqliteDialect({ database: sqlite }) });
    expect(await db.selectFrom('t').select('n').orderBy('n').limit(literalLimit(3)).execute()).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    expect(await db.selectFrom('t').select('n').orderBy('n', 'desc').limit(LIMIT_ONE).execute()).toEqual([{ n: 4 }]);
    expect(await db.selectFrom('t').select('n').limit(literalLimit(0)).execute()).toEqual([]);
  });

  it('refuse anything but a whole number, which would be written into the SQL', () => {
    for (const bad of [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, '3; drop table t' as unknown as number]) {
      expect(() => literalLimit(bad)).toThrow(/whole number/);
    }
  });

  it('are the only limits the services give kysely (a bound limit makes SQLite prepare the statement again on every run)', () => {
    const dir = join(ROOT, 'src', 'services');
    const bound: string[] = [];
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/\.limit\(([^)]*)\)/g)) {
        if (!/^(literalLimit\(|LIMIT_ONE$)/.test(m[1].trim())) bound.push(`${file}: ${m[0]}`);
      }
    }
    expect(bound).toEqual([]);
  });
});
