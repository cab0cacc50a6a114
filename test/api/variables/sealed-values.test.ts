import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BerthError } from '../../../src/domain/common/errors.js';
import { effectiveVariables } from '../../../src/services/variables/effective.js';
import { attachSecretKey } from '../../../src/store/secrets/attach.js';
import { newSecretKey, open } from '../../../src/store/secrets/cipher.js';
import { Keyring, useKeyring } from '../../../src/store/secrets/keyring.js';
import { KEY_ID_SETTING } from '../../../src/store/secrets/sealed-values.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { seedSensitive, storedRow, storedRows } from '../../helpers/sealed.js';
import { TEST_KEY_SOURCE, TEST_SECRET_KEY } from '../../helpers/secret-key.js';

/**
 * Sensitive variable values encrypted at rest (issue 42): what the database holds (read straight
 * from its tables), what a run is given, and what happens without the key or with a wrong one.
 */

const P = '/api/v2';
const SECRET = 'correct-horse-battery-staple-51c2';
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

describe('sensitive values at rest', () => {
  let api: TestApi;
  let f: AccessFixture;
  beforeEach(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterEach(() => api.close());
  const t = () => ({ token: f.owner.token });
  const run = () => effectiveVariables(api.store.db, f.web);
  const runValues = async () => {
    const v = await run();
    return Object.fromEntries([...v.terraform, ...v.env].map((x) => [x.key, x.value]));
  };
  /** The 503 an operation gets when the key cannot give (or take) a value. */
  const keyError = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BerthError);
    expect((err as BerthError).status).toBe(503);
    return (err as BerthError).detail ?? '';
  };

  it('stores every sensitive value sealed with the key, none in clear, and a run gets them in clear', async () => {
    const ids = await seedSensitive(f, SECRET);
    const rows = await storedRows(api.store.db);
    expect(rows).toHaveLength(5);
    for (const r of rows.filter((x) => x.sensitive === 1)) {
      expect(r.sealed).toBe(1);
      expect(r.value.startsWith(`v1:${TEST_SECRET_KEY.id}:`)).toBe(true);
      expect(r.value).not.toContain(SECRET);
    }
    expect(await storedRow(api.store.db, ids.plain)).toMatchObject({ value: 'eu-west-1', sealed: 0 });
    // The database names the key by its id; nothing of the key itself is in it.
    const settings = await api.store.db.selectFrom('settings').selectAll().execute();
    expect(settings).toContainEqual({ key: KEY_ID_SETTING, value: TEST_SECRET_KEY.id });
    expect(JSON.stringify(settings)).not.toContain(TEST_SECRET_KEY.bytes.toString('base64'));

    expect(await runValues()).toEqual({
      db_password: `${SECRET}-tf`,
      API_TOKEN: `${SECRET}-env`,
      region: 'eu-west-1',
      SET_TOKEN: `${SECRET}-set`,
      set_secret: `${SECRET}-added`,
    });
    // The answers still withhold them, all-vars included (which needs no key).
    const all = await api.get(`${P}/workspaces/${f.web}/all-vars`, t());
    expect(all.status, all.text).toBe(200);
    expect(all.text).not.toContain(SECRET);
    expect(all.text).not.toContain('v1:');
  });

  it('an update keeps the ciphertext unless it gives a value; making a variable sensitive seals it', async () => {
    const ids = await seedSensitive(f, SECRET);
    const before = await storedRow(api.store.db, ids.wsVar);
    const described = await api.patch(
      `${P}/workspaces/${f.web}/vars/${ids.wsVar}`,
      varBody({ description: 'the database password', key: 'db_pass' }),
      t(),
    );
    expect(described.status, described.text).toBe(200);
    // Renamed and described: the same ciphertext (bound to the row, not to the key name), which still opens.
    expect((await storedRow(api.store.db, ids.wsVar)).value).toBe(before.value);
    expect((await runValues()).db_pass).toBe(`${SECRET}-tf`);

    const changed = await api.patch(`${P}/workspaces/${f.web}/vars/${ids.wsVar}`, varBody({ value: 'rotated' }), t());
    expect(changed.status, changed.text).toBe(200);
    const after = await storedRow(api.store.db, ids.wsVar);
    expect(after.value).not.toBe(before.value);
    expect(after.value).not.toContain('rotated');
    expect((await runValues()).db_pass).toBe('rotated');

    const setVar = await api.patch(
      `${P}/varsets/${ids.varset}/relationships/vars/${ids.setAdded}`,
      varBody({ value: 'v2' }),
      t(),
    );
    expect(setVar.status, setVar.text).toBe(200);
    expect((await storedRow(api.store.db, ids.setAdded)).value).not.toContain('v2');
    expect((await runValues()).set_secret).toBe('v2');

    // A plain variable made sensitive: its value is sealed then, and a run still gets it.
    const made = await api.patch(`${P}/workspaces/${f.web}/vars/${ids.plain}`, varBody({ sensitive: true }), t());
    expect(made.status, made.text).toBe(200);
    expect(made.body.data.attributes.value).toBeNull();
    const sealed = await storedRow(api.store.db, ids.plain);
    expect(sealed).toMatchObject({ sealed: 1, sensitive: 1 });
    expect(sealed.value).not.toContain('eu-west-1');
    expect((await runValues()).region).toBe('eu-west-1');
  });

  it('a ciphertext moved into another row does not open there: a clear 503, never another value', async () => {
    const ids = await seedSensitive(f, SECRET);
    const moved = await storedRow(api.store.db, ids.wsEnv);
    await api.store.db
      .updateTable('workspace_variables')
      .set({ value: moved.value })
      .where('id', '=', ids.wsVar)
      .execute();
    expect(await keyError(run())).toContain(`variable ${ids.wsVar} does not decrypt`);
  });

  describe('without the key', () => {
    const missing = () => new Keyring({ kind: 'file', path: '/nonexistent/berth-test/berth.db.key' });

    it('everything that needs no value works, a description update included', async () => {
      const ids = await seedSensitive(f, SECRET);
      const before = await storedRows(api.store.db);
      useKeyring(api.store.db, missing());
      for (const path of [
        `${P}/workspaces/${f.web}/vars`,
        `${P}/workspaces/${f.web}/vars/${ids.wsVar}`,
        `${P}/workspaces/${f.web}/all-vars`,
        `${P}/workspaces/${f.web}`,
        `${P}/organizations/acme/workspaces`,
        `${P}/organizations/acme/varsets`,
        `${P}/varsets/${ids.varset}/relationships/vars`,
      ]) {
        const res = await api.get(path, t());
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
      const described = await api.patch(
        `${P}/workspaces/${f.web}/vars/${ids.wsVar}`,
        varBody({ description: 'd' }),
        t(),
      );
      expect(described.status, described.text).toBe(200);
      const setDescribed = await api.patch(
        `${P}/varsets/${ids.varset}/relationships/vars/${ids.setVar}`,
        varBody({ description: 'd' }),
        t(),
      );
      expect(setDescribed.status, setDescribed.text).toBe(200);
      const plain = await api.post(
        `${P}/workspaces/${f.web}/vars`,
        varBody({ key: 'zone', value: 'a', category: 'terraform' }),
        t(),
      );
      expect(plain.status, plain.text).toBe(201);
      // The sealed values are untouched.
      const after = await storedRows(api.store.db);
      for (const r of before) expect(after.find((x) => x.id === r.id)?.value).toBe(r.value);
      expect(await api.delete(`${P}/workspaces/${f.web}/vars/${plain.body.data.id}`, t())).toMatchObject({
        status: 204,
      });
    });

    it('what needs a value is a 503 naming the key and the file, and changes nothing', async () => {
      const ids = await seedSensitive(f, SECRET);
      const before = await storedRows(api.store.db);
      useKeyring(api.store.db, missing());
      const refused = [
        await api.post(
          `${P}/workspaces/${f.web}/vars`,
          varBody({ key: 'k', value: 'v', category: 'env', sensitive: true }),
          t(),
        ),
        await api.patch(`${P}/workspaces/${f.web}/vars/${ids.wsVar}`, varBody({ value: 'new' }), t()),
        await api.patch(`${P}/workspaces/${f.web}/vars/${ids.plain}`, varBody({ sensitive: true }), t()),
        await api.post(
          `${P}/varsets/${ids.varset}/relationships/vars`,
          varBody({ key: 'k', value: 'v', category: 'env', sensitive: true }),
          t(),
        ),
      ];
      for (const res of refused) {
        expect(res.status, res.text).toBe(503);
        expect(res.body.errors[0].title).toBe('secret key unavailable');
        expect(res.body.errors[0].detail).toContain(`encrypted with key ${TEST_SECRET_KEY.id}`);
        expect(res.body.errors[0].detail).toContain('/nonexistent/berth-test/berth.db.key does not exist');
      }
      expect(await storedRows(api.store.db)).toEqual(before);
      const why = await keyError(run());
      expect(why).toContain(`encrypted with key ${TEST_SECRET_KEY.id}`);
      expect(why).not.toContain(SECRET);
    });
  });

  it('with a wrong key: the same 503, saying it is not this database key, and nothing decrypted or changed', async () => {
    const ids = await seedSensitive(f, SECRET);
    const before = await storedRows(api.store.db);
    const other = newSecretKey();
    useKeyring(api.store.db, new Keyring({ kind: 'memory', keys: [other] }));
    const res = await api.post(
      `${P}/workspaces/${f.web}/vars`,
      varBody({ key: 'k', value: 'v', category: 'env', sensitive: true }),
      t(),
    );
    expect(res.status, res.text).toBe(503);
    expect(res.body.errors[0].detail).toContain(`holds ${other.id}: it is not this database's key`);
    expect(await keyError(run())).toContain(`encrypted with key ${TEST_SECRET_KEY.id}`);
    expect((await api.patch(`${P}/workspaces/${f.web}/vars/${ids.wsVar}`, varBody({ value: 'x' }), t())).status).toBe(
      503,
    );
    expect(await storedRows(api.store.db)).toEqual(before);
    // A start with the wrong key says so too, and seals nothing.
    const start = await attachSecretKey(api.store, { kind: 'memory', keys: [other] });
    expect(start.problem).toContain(`encrypted with key ${TEST_SECRET_KEY.id}`);
    expect(start.sealedClear).toBe(0);
  });

  it('sensitive values an older berth stored in clear are sealed at the next start with the key, once', async () => {
    const ids = await seedSensitive(f, SECRET);
    // As berth before migration 041 left them: the value itself, sealed = 0.
    await api.store.db
      .updateTable('workspace_variables')
      .set({ value: 'old-clear', sealed: 0 })
      .where('id', '=', ids.wsEnv)
      .execute();
    await api.store.db
      .updateTable('varset_variables')
      .set({ value: 'old-set', sealed: 0 })
      .where('id', '=', ids.setVar)
      .execute();
    const start = await attachSecretKey(api.store, TEST_KEY_SOURCE);
    expect(start).toMatchObject({ problem: null, sealedClear: 2, keyId: TEST_SECRET_KEY.id });
    for (const [id, clear] of [
      [ids.wsEnv, 'old-clear'],
      [ids.setVar, 'old-set'],
    ]) {
      const row = await storedRow(api.store.db, id);
      expect(row.sealed).toBe(1);
      expect(open(TEST_SECRET_KEY, row.value, `${row.table}/${id}`)).toBe(clear);
    }
    expect(await runValues()).toMatchObject({ API_TOKEN: 'old-clear', SET_TOKEN: 'old-set' });
    expect((await attachSecretKey(api.store, TEST_KEY_SOURCE)).sealedClear).toBe(0);
  });
});
