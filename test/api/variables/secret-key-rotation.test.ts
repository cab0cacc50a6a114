import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BerthError } from '../../../src/domain/common/errors.js';
import { effectiveVariables } from '../../../src/services/variables/effective.js';
import { attachSecretKey } from '../../../src/store/secrets/attach.js';
import { keyLine, newSecretKey, open, type SecretKey } from '../../../src/store/secrets/cipher.js';
import { readKeyFile, writeKeyFile } from '../../../src/store/secrets/key-file.js';
import type { SecretKeySource } from '../../../src/store/secrets/keyring.js';
import { replaceLostKey } from '../../../src/store/secrets/lost-key.js';
import { rotateSecretKey } from '../../../src/store/secrets/rotation.js';
import { recordedKeyId } from '../../../src/store/secrets/sealed-values.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { seedSensitive, storedRows, type StoredRow } from '../../helpers/sealed.js';
import { TEST_SECRET_KEY } from '../../helpers/secret-key.js';

/**
 * `berth db rotate-key` (store/secrets/rotation.ts): every sensitive value sealed again with a new
 * key in one transaction, the old key kept in the file until that committed; a wrong key changes
 * nothing; a crash at any point leaves every value readable.
 */

const SECRET = 'rotate-me-7c1d09';
const P = '/api/v2';

describe('rotating the secret key', () => {
  let api: TestApi;
  let f: AccessFixture;
  let dir: string;
  let keyFile: string;
  let source: SecretKeySource;
  beforeEach(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    dir = mkdtempSync(join(tmpdir(), 'berth-rotate-'));
    keyFile = join(dir, 'berth.db.key');
    writeKeyFile(keyFile, [TEST_SECRET_KEY]);
    source = { kind: 'file', path: keyFile };
    // As serve starts on it: the key from the file (the one the tests' database already names).
    expect((await attachSecretKey(api.store, source)).problem).toBeNull();
  });
  afterEach(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runValues = async () => {
    const v = await effectiveVariables(api.store.db, f.web);
    return Object.fromEntries([...v.terraform, ...v.env].map((x) => [x.key, x.value]));
  };
  const sensitiveRows = async () => (await storedRows(api.store.db)).filter((r) => r.sensitive === 1);
  const expectSealedWith = (rows: StoredRow[], key: SecretKey) => {
    for (const r of rows) {
      expect(r.value.startsWith(`v1:${key.id}:`)).toBe(true);
      expect(open(key, r.value, `${r.table}/${r.id}`)).not.toBeNull();
    }
  };
  const expected = {
    db_password: `${SECRET}-tf`,
    API_TOKEN: `${SECRET}-env`,
    region: 'eu-west-1',
    SET_TOKEN: `${SECRET}-set`,
    set_secret: `${SECRET}-added`,
  };

  it('seals every value with a new key, names it in the database, and leaves the file holding it alone', async () => {
    await seedSensitive(f, SECRET);
    // One value as an older berth stored it (in clear): the rotation seals it too.
    await api.store.db
      .updateTable('workspace_variables')
      .set({ value: `${SECRET}-env`, sealed: 0 })
      .where('key', '=', 'API_TOKEN')
      .execute();
    const before = await sensitiveRows();
    const result = await rotateSecretKey(api.store, source);
    expect(result).toMatchObject({ keyFile, previousKeyId: TEST_SECRET_KEY.id, values: 4 });
    expect(result.keyId).not.toBe(TEST_SECRET_KEY.id);
    expect(await recordedKeyId(api.store.db)).toBe(result.keyId);

    const [fresh, ...others] = readKeyFile(keyFile)!;
    expect(others).toEqual([]);
    expect(fresh.id).toBe(result.keyId);
    const after = await sensitiveRows();
    expect(after).toHaveLength(4);
    expectSealedWith(after, fresh);
    // No old ciphertext is left, and the old key opens none of the new ones.
    for (const r of after) {
      expect(before.map((b) => b.value)).not.toContain(r.value);
      expect(open(TEST_SECRET_KEY, r.value, `${r.table}/${r.id}`)).toBeNull();
      expect(r.value).not.toContain(SECRET);
    }
    // The berth that read the old key before the rotation (as a running serve) reads the file
    // again when it meets the new key: its runs get the values, its writes seal with the new key.
    expect(await runValues()).toEqual(expected);
    const res = await api.post(
      `${P}/workspaces/${f.web}/vars`,
      { data: { type: 'vars', attributes: { key: 'later', value: 'x', category: 'env', sensitive: true } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(201);
    expectSealedWith(
      (await sensitiveRows()).filter((r) => r.id === res.body.data.id),
      fresh,
    );
  });

  it('with a wrong key: a 503 and nothing changed, neither the values nor the database key nor the file', async () => {
    await seedSensitive(f, SECRET);
    const before = await storedRows(api.store.db);
    const wrong = join(dir, 'wrong.key');
    writeKeyFile(wrong, [newSecretKey()]);
    const fileBefore = readFileSync(wrong, 'utf8');
    const err = await rotateSecretKey(api.store, { kind: 'file', path: wrong }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BerthError);
    expect((err as BerthError).status).toBe(503);
    expect((err as BerthError).detail).toContain(`encrypted with key ${TEST_SECRET_KEY.id}`);
    expect((err as BerthError).detail).toContain(wrong);
    expect(await storedRows(api.store.db)).toEqual(before);
    expect(await recordedKeyId(api.store.db)).toBe(TEST_SECRET_KEY.id);
    expect(readFileSync(wrong, 'utf8')).toBe(fileBefore);
    // A missing key file, likewise.
    const gone = await rotateSecretKey(api.store, { kind: 'file', path: join(dir, 'none.key') }).catch(
      (e: unknown) => e,
    );
    expect((gone as BerthError).detail).toContain('none.key does not exist');
    expect(await storedRows(api.store.db)).toEqual(before);
  });

  it('a value that does not open stops the rotation before anything changed', async () => {
    const ids = await seedSensitive(f, SECRET);
    const rows = await storedRows(api.store.db);
    const other = rows.find((r) => r.id === ids.wsEnv)!;
    await api.store.db
      .updateTable('workspace_variables')
      .set({ value: other.value })
      .where('id', '=', ids.wsVar)
      .execute();
    const before = await storedRows(api.store.db);
    const fileBefore = readFileSync(keyFile, 'utf8');
    const err = await rotateSecretKey(api.store, source).catch((e: unknown) => e);
    expect((err as BerthError).detail).toContain(`variable ${ids.wsVar} does not decrypt`);
    expect((err as BerthError).detail).toContain('nothing was changed');
    expect(await storedRows(api.store.db)).toEqual(before);
    expect(readFileSync(keyFile, 'utf8')).toBe(fileBefore);
  });

  it('a key from BERTH_SECRET_KEY goes to a new file (--new-key-file), never over an existing one', async () => {
    await seedSensitive(f, SECRET);
    const env: SecretKeySource = { kind: 'environment', text: keyLine(TEST_SECRET_KEY) };
    const refused = await rotateSecretKey(api.store, env).catch((e: unknown) => e);
    expect((refused as BerthError).status).toBe(409);
    expect((refused as BerthError).detail).toContain('--new-key-file');
    const exists = await rotateSecretKey(api.store, env, { newKeyFile: keyFile }).catch((e: unknown) => e);
    expect((exists as BerthError).status).toBe(409);
    expect(await recordedKeyId(api.store.db)).toBe(TEST_SECRET_KEY.id);

    const target = join(dir, 'next.key');
    const result = await rotateSecretKey(api.store, env, { newKeyFile: target });
    expect(result.keyFile).toBe(target);
    const [fresh] = readKeyFile(target)!;
    expect(fresh.id).toBe(result.keyId);
    expectSealedWith(await sensitiveRows(), fresh);
    // The old key's file is left as it was; the database now needs the new one.
    expect(readKeyFile(keyFile)!.map((k) => k.id)).toEqual([TEST_SECRET_KEY.id]);
    expect((await attachSecretKey(api.store, env)).problem).toContain(`encrypted with key ${fresh.id}`);
    expect((await attachSecretKey(api.store, { kind: 'file', path: target })).problem).toBeNull();
    expect(await runValues()).toEqual(expected);
  });

  it('a crash midway leaves every value readable: before the commit on the old key, after it with both in the file', async () => {
    await seedSensitive(f, SECRET);
    const fresh = newSecretKey();
    // Before the commit: the file already holds both keys, the database still names the old one.
    writeKeyFile(keyFile, [TEST_SECRET_KEY, fresh]);
    expect((await attachSecretKey(api.store, source)).problem).toBeNull();
    expect(await runValues()).toEqual(expected);

    // After the commit, before the old key left the file: the database names the new key.
    const result = await rotateSecretKey(api.store, source);
    const [current] = readKeyFile(keyFile)!;
    writeKeyFile(keyFile, [TEST_SECRET_KEY, current]);
    const start = await attachSecretKey(api.store, source);
    expect(start).toMatchObject({ problem: null, keyId: result.keyId });
    expect(await runValues()).toEqual(expected);
    // The next rotation retires both.
    const next = await rotateSecretKey(api.store, source);
    expect(readKeyFile(keyFile)!.map((k) => k.id)).toEqual([next.keyId]);
    expect(await runValues()).toEqual(expected);
  });

  it('a lost key: --replace-lost-key deletes the variables only it opened, lists them, and sets up a new key', async () => {
    const ids = await seedSensitive(f, SECRET);
    // One value as an older berth stored it: still readable, so it is kept and sealed with the new key.
    await api.store.db
      .updateTable('workspace_variables')
      .set({ value: 'still-clear', sealed: 0 })
      .where('id', '=', ids.wsEnv)
      .execute();
    // While the key is at hand, it is not lost: refused.
    expect(((await replaceLostKey(api.store, source).catch((e: unknown) => e)) as BerthError).status).toBe(409);
    rmSync(keyFile);
    const wrongFile = join(dir, 'other.key');
    writeKeyFile(wrongFile, [newSecretKey()]);
    // Never over an existing key file (it may be another database's).
    const over = await replaceLostKey(api.store, { kind: 'file', path: wrongFile }).catch((e: unknown) => e);
    expect((over as BerthError).detail).toContain('never overwrites a key file');
    expect(await recordedKeyId(api.store.db)).toBe(TEST_SECRET_KEY.id);

    const result = await replaceLostKey(api.store, source);
    expect(result).toMatchObject({ keyFile, lostKeyId: TEST_SECRET_KEY.id, values: 1 });
    expect(result.deleted.map((v) => [v.key, v.owner]).sort()).toEqual([
      ['SET_TOKEN', 'variable set acme/creds'],
      ['db_password', 'workspace acme/web'],
      ['set_secret', 'variable set acme/creds'],
    ]);
    const [fresh] = readKeyFile(keyFile)!;
    expect(fresh.id).toBe(result.keyId);
    expect(await recordedKeyId(api.store.db)).toBe(fresh.id);
    const left = await sensitiveRows();
    expect(left.map((r) => r.id)).toEqual([ids.wsEnv]);
    expectSealedWith(left, fresh);
    expect(await runValues()).toEqual({ API_TOKEN: 'still-clear', region: 'eu-west-1' });
    // The berth works on: a sensitive value can be set again.
    const again = await api.post(
      `${P}/workspaces/${f.web}/vars`,
      {
        data: {
          type: 'vars',
          attributes: { key: 'db_password', value: 'new', category: 'terraform', sensitive: true },
        },
      },
      { token: f.owner.token },
    );
    expect(again.status, again.text).toBe(201);
    expect((await runValues()).db_password).toBe('new');
  });
});
