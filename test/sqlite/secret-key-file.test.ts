import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '../../src/store/backup.js';
import { openStore, type Store } from '../../src/store/open.js';
import { attachSecretKey } from '../../src/store/secrets/attach.js';
import { newSecretKey, open } from '../../src/store/secrets/cipher.js';
import { createKeyFile, readKeyFile, writeKeyFile } from '../../src/store/secrets/key-file.js';
import { secretKeySource } from '../../src/store/secrets/key-source.js';
import { recordedKeyId } from '../../src/store/secrets/sealed-values.js';
import { effectiveVariables } from '../../src/services/variables/effective.js';
import { accessFixture } from '../helpers/access.js';
import { TestApi } from '../helpers/api.js';
import { seedSensitive, storedRows } from '../helpers/sealed.js';

/**
 * The key file beside a SQLite database (`<file>.key`): created at the first start of a new
 * database, named by its id in the database, checked at every start; backups and restores carry
 * the values encrypted and never the key.
 */

const SECRET = 'file-level-secret-0b7e';

describe('the key file beside a SQLite database', () => {
  let dir: string;
  let dbFile: string;
  let keyFile: string;
  const opened: Store[] = [];
  const openDb = async (file = dbFile) => {
    const store = await openStore(file);
    opened.push(store);
    return store;
  };
  const source = (file = dbFile) => secretKeySource(file, undefined, {});
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-keyfile-'));
    dbFile = join(dir, 'berth.db');
    keyFile = `${dbFile}.key`;
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A database with sensitive values, its key created beside it as serve creates it. */
  const seeded = async () => {
    const store = await openDb();
    expect((await attachSecretKey(store, source(), { create: true })).created).toBe(keyFile);
    const api = await TestApi.on(store, { secretKey: source() });
    const f = await accessFixture(api);
    const ids = await seedSensitive(f, SECRET);
    return { store, f, ids };
  };

  it('a new database gets a key file (mode 0600) whose id it records; later starts read the same key', async () => {
    const store = await openDb();
    const first = await attachSecretKey(store, source(), { create: true });
    expect(first).toMatchObject({ created: keyFile, problem: null, warnings: [] });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const text = readFileSync(keyFile, 'utf8');
    expect(text).toMatch(/^# berth secret key/);
    const [key] = readKeyFile(keyFile)!;
    expect(first.keyId).toBe(key.id);
    expect(await recordedKeyId(store.db)).toBe(key.id);
    // Nothing of the key is in the database file.
    expect(readFileSync(dbFile).includes(key.bytes)).toBe(false);
    expect(readFileSync(dbFile).includes(Buffer.from(key.bytes.toString('base64')))).toBe(false);

    const again = await attachSecretKey(await openDb(), source(), { create: true });
    expect(again).toMatchObject({ created: null, problem: null, keyId: key.id });
    expect(readFileSync(keyFile, 'utf8')).toBe(text);
  });

  it('a missing key file is a problem naming it and the key id, and no new key is made in its place', async () => {
    const { store } = await seeded();
    const keyId = await recordedKeyId(store.db);
    const before = await storedRows(store.db);
    const kept = readFileSync(keyFile);
    rmSync(keyFile);
    const start = await attachSecretKey(await openDb(), source(), { create: true });
    expect(start.problem).toContain(`encrypted with key ${keyId}`);
    expect(start.problem).toContain(`${keyFile} does not exist`);
    expect(start.created).toBeNull();
    expect(() => statSync(keyFile)).toThrow();
    expect(await storedRows(store.db)).toEqual(before);
    // Put back, it works again.
    writeFileSync(keyFile, kept, { mode: 0o600 });
    expect((await attachSecretKey(await openDb(), source(), { create: true })).problem).toBeNull();
  });

  it('a copied database that never sealed a value gets a new key beside it; one named elsewhere stays an error', async () => {
    const store = await openDb();
    const first = await attachSecretKey(store, source(), { create: true });
    await store.close();
    opened.splice(opened.indexOf(store), 1);
    const copy = join(dir, 'copy.db');
    copyFileSync(dbFile, copy);
    // Named elsewhere (a PostgreSQL instance's file may just be missing on this host): an error.
    const named = join(dir, 'named.key');
    const strict = await attachSecretKey(await openDb(copy), secretKeySource(copy, named, {}), { create: true });
    expect(strict.problem).toContain(`encrypted with key ${first.keyId}`);
    expect(() => statSync(named)).toThrow();
    // Beside it: nothing needs the old key, so the copy gets one of its own.
    const start = await attachSecretKey(await openDb(copy), source(copy), { create: true });
    expect(start).toMatchObject({ problem: null, created: `${copy}.key`, replacedUnused: first.keyId });
    expect(start.keyId).not.toBe(first.keyId);
    expect(readKeyFile(`${copy}.key`)!.map((k) => k.id)).toEqual([start.keyId]);
  });

  it("another database's key file is a problem that says so", async () => {
    await seeded();
    const other = join(dir, 'other.key');
    writeKeyFile(other, [newSecretKey()]);
    const start = await attachSecretKey(await openDb(), secretKeySource(dbFile, other, {}), { create: true });
    expect(start.problem).toContain("it is not this database's key");
    expect(start.problem).toContain(other);
  });

  it('warns about a key file that others may read', async () => {
    await seeded();
    chmodSync(keyFile, 0o644);
    const start = await attachSecretKey(await openDb(), source(), { create: true });
    expect(start.problem).toBeNull();
    expect(start.warnings.join('\n')).toContain(`chmod 600 ${keyFile}`);
  });

  it('a database of an older berth (no key, values in clear) gets a key file and its values sealed at its first start', async () => {
    const { store, f, ids } = await seeded();
    // As berth before migration 041 left it: no key named, the values in clear, no key file.
    await store.db.deleteFrom('settings').where('key', '=', 'secret-key-id').execute();
    await store.db
      .updateTable('workspace_variables')
      .set({ value: 'clear-1', sealed: 0 })
      .where('id', '=', ids.wsVar)
      .execute();
    await store.db
      .updateTable('varset_variables')
      .set({ value: 'clear-2', sealed: 0 })
      .where('id', '=', ids.setVar)
      .execute();
    await store.db
      .updateTable('workspace_variables')
      .set({ value: 'clear-3', sealed: 0 })
      .where('id', '=', ids.wsEnv)
      .execute();
    await store.db
      .updateTable('varset_variables')
      .set({ value: 'clear-4', sealed: 0 })
      .where('id', '=', ids.setAdded)
      .execute();
    rmSync(keyFile);

    const later = await openDb();
    const start = await attachSecretKey(later, source(), { create: true });
    expect(start).toMatchObject({ created: keyFile, sealedClear: 4, problem: null });
    const [key] = readKeyFile(keyFile)!;
    for (const r of (await storedRows(later.db)).filter((x) => x.sensitive === 1)) {
      expect(r.sealed).toBe(1);
      expect(open(key, r.value, `${r.table}/${r.id}`)).toMatch(/^clear-\d$/);
    }
    const run = await effectiveVariables(later.db, f.web);
    expect(run.env.map((v) => v.value).sort()).toEqual(['clear-2', 'clear-3']);
  });

  it('backup and restore carry the ciphertext as it is, and name the key id they need', async () => {
    const { store } = await seeded();
    const keyId = await recordedKeyId(store.db);
    const before = await storedRows(store.db);
    const backup = join(dir, 'nightly.db');
    const taken = await backupDatabase(dbFile, backup);
    expect(taken.secretKeyId).toBe(keyId);
    const read = (file: string) => {
      const conn = new Database(file, { readonly: true });
      try {
        return conn
          .prepare(
            'select id, value from workspace_variables where sensitive = 1 union all select id, value from varset_variables where sensitive = 1 order by id',
          )
          .all();
      } finally {
        conn.close();
      }
    };
    const sealed = before.filter((r) => r.sensitive === 1).map(({ id, value }) => ({ id, value }));
    expect(read(backup)).toEqual(sealed.sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(readFileSync(backup).includes(Buffer.from(SECRET))).toBe(false);

    const restored = join(dir, 'restored.db');
    expect((await restoreDatabase(backup, restored)).secretKeyId).toBe(keyId);
    expect(read(restored)).toEqual(read(backup));
    // Restored beside no key file: the start says which key it needs; with the key copied beside it, it opens them.
    expect((await attachSecretKey(await openDb(restored), source(restored), { create: true })).problem).toContain(
      `encrypted with key ${keyId}`,
    );
    writeFileSync(`${restored}.key`, readFileSync(keyFile), { mode: 0o600 });
    expect((await attachSecretKey(await openDb(restored), source(restored), { create: true })).problem).toBeNull();
  });

  it('two starts creating the key file at once end with one whole file', () => {
    const a = newSecretKey();
    const b = newSecretKey();
    expect(createKeyFile(keyFile, a)).toBe(true);
    expect(createKeyFile(keyFile, b)).toBe(false);
    expect(readKeyFile(keyFile)!.map((k) => k.id)).toEqual([a.id]);
  });
});
