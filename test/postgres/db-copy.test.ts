import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { EXIT } from '../../src/cli/common/exit-codes.js';
import { copyDatabase } from '../../src/store/copy.js';
import { openStore } from '../../src/store/open.js';
import { open } from '../../src/store/secrets/cipher.js';
import { readKeyFile } from '../../src/store/secrets/key-file.js';
import { runCli } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { freshPostgresSchema } from '../helpers/store.js';

/** Every row of every berth table, sorted, for comparing two databases. */
async function dump(db: Kysely<any>, tables: string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const rows = await db.selectFrom(t).selectAll().execute();
    out[t] = rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))))
      .sort();
  }
  return out;
}

const SECRET = 'copied-across-engines-5d2e';

describe('berth db copy: SQLite to PostgreSQL and back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-copy-'));
  const sqliteFile = join(dir, 'source.db');
  const backFile = join(dir, 'back.db');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  beforeAll(async () => {
    schema = await freshPostgresSchema();
    const db = ['--db', sqliteFile];
    const run = async (...args: string[]) => {
      const r = await runCli([...args, ...db]);
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    await run('org', 'create', 'acme', '--email', 'a@acme.test');
    await run('project', 'create', 'Platform', '--org', 'acme');
    for (const name of ['web', 'api', 'db'])
      await run('workspace', 'create', name, '--org', 'acme', '--project', 'Platform', '--tag', 'team=core');
    await run('workspace', 'lock', 'api', '--org', 'acme', '--reason', 'migration');
    await run('workspace', 'tags', 'add', 'web', 'prod', 'eu', '--org', 'acme');
    await run('user', 'create', 'alice', '--email', 'alice@acme.test');
    const secret = await runCli(
      ['var', 'set', 'web', 'TOKEN', '--env', '--sensitive', '--value-file', '-', '--org', 'acme', ...db],
      {},
      SECRET,
    );
    expect(secret.code, secret.stderr).toBe(0);
  });
  afterAll(async () => {
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row both ways, keeps keys working, and refuses a non-empty target', async () => {
    const toPg = await runCli(['db', 'copy', '--db', sqliteFile, '--to', schema.url, '--json']);
    expect(toPg.code, toPg.stderr).toBe(0);
    const summary = JSON.parse(toPg.stdout);
    expect(summary.rows).toBeGreaterThan(10);
    expect(summary.secretKeyId).toMatch(/^[0-9a-f]{16}$/);
    expect(toPg.stderr).toContain(`encrypted with key ${summary.secretKeyId}`);
    expect(summary.to).toMatch(/^postgres:\/\//);

    const back = await runCli(['db', 'copy', '--database', schema.url, '--to', backFile, '--json']);
    expect(back.code, back.stderr).toBe(0);

    const a = await openStore(sqliteFile);
    const p = await openStore(schema.url);
    const b = await openStore(backFile);
    try {
      // The data tables (not the name index's FTS5 tables, which each engine builds itself, nor
      // the security generation, each database's own: migration 022).
      const { rows } = await sql<{
        name: string;
      }>`select name from pragma_table_list where schema = 'main' and type = 'table'
        and name not like 'sqlite_%' and name <> 'berth_migrations' and name <> 'security_generation'`.execute(a.db);
      const tables = rows.map((r) => r.name);
      const original = await dump(a.db as Kysely<any>, tables);
      expect(original.workspaces).toHaveLength(3);
      expect(await dump(p.db as Kysely<any>, tables)).toEqual(original);
      expect(await dump(b.db as Kysely<any>, tables)).toEqual(original);
      // The sensitive value went across as its ciphertext (the dumps compare every column), never in clear.
      expect(original.workspace_variables).toHaveLength(1);
      expect(JSON.stringify([original.workspace_variables, original.settings])).not.toContain(SECRET);
      expect(original.workspace_variables[0]).toContain('"sealed":1');
      // The copy back filled its name index from its own triggers: FTS5 checks it against the rows.
      await sql`insert into workspace_name_trigrams (workspace_name_trigrams, rank) values ('integrity-check', 1)`.execute(
        b.db,
      );
    } finally {
      await a.close();
      await p.close();
      await b.close();
    }

    // New rows on PostgreSQL get keys past the copied ones, and the copied lock still holds.
    const created = await runCli([
      'workspace',
      'create',
      'queue',
      '--org',
      'acme',
      '--project',
      'Platform',
      '--database',
      schema.url,
    ]);
    expect(created.code, created.stderr).toBe(0);
    // The lock came across: the same admin locking again is told it already holds it.
    const lock = await runCli(['workspace', 'lock', 'api', '--org', 'acme', '--database', schema.url]);
    expect(lock.code, lock.stderr).toBe(0);
    expect(lock.stdout + lock.stderr).toContain('already locked by you');

    const again = await runCli(['db', 'copy', '--db', sqliteFile, '--to', schema.url]);
    expect(again.code).toBe(EXIT.conflict);
    expect(again.stderr).toMatch(/not empty/);
  });

  it("reads PostgreSQL in batches of each table's key: read two rows at a time, the copy is the same", async () => {
    const pg = await openStore(schema.url);
    const batched = await openStore(join(dir, 'batched.db'));
    const whole = await openStore(join(dir, 'whole.db'));
    try {
      const result = await copyDatabase(pg, batched, undefined, 2);
      await copyDatabase(pg, whole);
      expect(result.tables.find((t) => t.name === 'workspaces')!.rows).toBeGreaterThan(2);
      const tables = result.tables.map((t) => t.name);
      expect(await dump(batched.db, tables)).toEqual(await dump(whole.db, tables));
    } finally {
      await pg.close();
      await batched.close();
      await whole.close();
    }
  });

  it('serve on the copy needs the key of the source (named with --secret-key-file), and rotates it there', async () => {
    // No key named: serve says what PostgreSQL needs, and does not start.
    const bare = await runCli(['serve', '--database', schema.url, '--port', '0', '--no-execute-runs']);
    expect(bare.code).toBe(EXIT.usage);
    expect(bare.stderr).toContain('no secret key is named');
    // Another key (the tests' own): not this database's.
    await expect(startServe(schema.url, ['--no-execute-runs'])).rejects.toThrow(/it is not this database's key/);
    // The source's key file, copied for the PostgreSQL instances.
    const keyFile = join(dir, 'pg.key');
    copyFileSync(`${sqliteFile}.key`, keyFile);
    const server = await startServe(schema.url, ['--no-execute-runs'], {
      BERTH_SECRET_KEY: '',
      BERTH_SECRET_KEY_FILE: keyFile,
    });
    try {
      expect(server.stderr()).toMatch(
        new RegExp(`sensitive variable values encrypted with key [0-9a-f]{16} from ${keyFile}`),
      );
    } finally {
      await server.stop();
    }
    // The key rotates on PostgreSQL too: the value is sealed again, and opens with the new key.
    const before = await openStore(schema.url);
    const old = await before.db.selectFrom('workspace_variables').select(['id', 'value']).executeTakeFirstOrThrow();
    await before.close();
    const rotated = await runCli([
      'db',
      'rotate-key',
      '--database',
      schema.url,
      '--secret-key-file',
      keyFile,
      '--json',
    ]);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ keyFile, values: 1 });
    const after = await openStore(schema.url);
    try {
      const row = await after.db.selectFrom('workspace_variables').select(['id', 'value']).executeTakeFirstOrThrow();
      expect(row.value).not.toBe(old.value);
      const [key] = readKeyFile(keyFile)!;
      expect(key.id).toBe(JSON.parse(rotated.stdout).keyId);
      expect(open(key, row.value, `workspace_variables/${row.id}`)).toBe(SECRET);
    } finally {
      await after.close();
    }
  });
});
