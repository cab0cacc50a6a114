import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { effectiveVariables } from '../../../src/services/variables/effective.js';
import { copyDatabase } from '../../../src/store/copy.js';
import { openStore } from '../../../src/store/open.js';
import { attachSecretKey } from '../../../src/store/secrets/attach.js';
import { TEST_KEY_SOURCE } from '../../helpers/secret-key.js';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';

/**
 * Workspace variables, as HCP Terraform's Workspace Variables API documents them:
 * `/workspaces/:id/vars` and the older `/vars`, their rules (keys per category, uniqueness per
 * workspace and category, limits), sensitive values that are written once and never answered,
 * `version-id` changing on each update, the audit trail, and cascade with the workspace.
 */

const P = '/api/v2';
const SECRET = 'hunter2-very-secret-value-8f3a';
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

describe('workspace variables', () => {
  let f: AccessFixture;
  let api: TestApi;
  beforeEach(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterEach(() => api.close());
  const t = () => ({ token: f.owner.token });
  const vars = () => `${P}/workspaces/${f.web}/vars`;
  const create = async (attributes: Record<string, unknown>) => {
    const res = await api.post(vars(), varBody(attributes), t());
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const count = async () => (await api.get(vars(), t())).body.data.length;

  it('creates, lists, reads, updates and deletes, in HCP Terraform’s document shape', async () => {
    const created = await create({ key: 'region', value: 'eu-west-1', description: 'where', category: 'terraform' });
    expect(created.id).toMatch(/^var-[A-Za-z0-9]{16}$/);
    expect(created.type).toBe('vars');
    expect(created.attributes).toMatchObject({
      key: 'region',
      value: 'eu-west-1',
      description: 'where',
      category: 'terraform',
      hcl: false,
      sensitive: false,
    });
    expect(created.attributes['version-id']).toMatch(/^[0-9a-f]{36}$/);
    expect(created.relationships.configurable).toEqual({
      data: { id: f.web, type: 'workspaces' },
      links: { related: `${P}/organizations/acme/workspaces/web` },
    });
    expect(created.links.self).toBe(`${P}/workspaces/${f.web}/vars/${created.id}`);

    const env = await create({ key: 'AWS_REGION', value: 'eu', category: 'env' });
    const list = await api.get(vars(), t());
    expect(list.status).toBe(200);
    expect(list.body.data.map((v: any) => v.id)).toEqual([created.id, env.id]);

    const one = await api.get(`${vars()}/${created.id}`, t());
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(created);

    const patched = await api.patch(
      `${vars()}/${created.id}`,
      { data: { type: 'vars', id: created.id, attributes: { value: 'us-east-1', hcl: false } } },
      t(),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ key: 'region', value: 'us-east-1', description: 'where' });
    expect(patched.body.data.attributes['version-id']).not.toBe(created.attributes['version-id']);
    // Every update changes the version, even one that changes nothing else.
    const again = await api.patch(`${vars()}/${created.id}`, varBody({}), t());
    expect(again.body.data.attributes['version-id']).not.toBe(patched.body.data.attributes['version-id']);
    // A null description clears it.
    const cleared = await api.patch(`${vars()}/${created.id}`, varBody({ description: null }), t());
    expect(cleared.body.data.attributes.description).toBeNull();

    expect((await api.delete(`${vars()}/${created.id}`, t())).status).toBe(204);
    expect((await api.get(`${vars()}/${created.id}`, t())).status).toBe(404);
    expect(await count()).toBe(1);
  });

  it('defaults: value "", hcl and sensitive false, no description', async () => {
    const v = await create({ key: 'empty', category: 'terraform' });
    expect(v.attributes).toMatchObject({ value: '', hcl: false, sensitive: false, description: null });
  });

  it('the older /vars endpoints: list by organization and workspace names, create with the workspace relationship, update, delete', async () => {
    const body = {
      data: {
        type: 'vars',
        attributes: { key: 'a', value: '1', category: 'terraform' },
        relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
      },
    };
    const made = await api.post(`${P}/vars`, body, t());
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    // The deprecated body filter names the workspace too.
    const byFilter = await api.post(
      `${P}/vars`,
      {
        data: { type: 'vars', attributes: { key: 'B', value: '2', category: 'env' } },
        filter: { organization: { name: 'acme' }, workspace: { name: 'web' } },
      },
      t(),
    );
    expect(byFilter.status, byFilter.text).toBe(201);
    const list = await api.get(
      `${P}/vars?filter%5Borganization%5D%5Bname%5D=acme&filter%5Bworkspace%5D%5Bname%5D=web`,
      t(),
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((v: any) => v.attributes.key)).toEqual(['a', 'B']);
    const missing = await api.get(`${P}/vars?filter[organization][name]=acme`, t());
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].source.parameter).toBe('filter[workspace][name]');
    expect((await api.get(`${P}/vars?filter[organization][name]=acme&filter[workspace][name]=nope`, t())).status).toBe(
      404,
    );
    const noWorkspace = await api.post(`${P}/vars`, varBody({ key: 'c', category: 'terraform' }), t());
    expect(noWorkspace.status).toBe(422);
    expect(noWorkspace.body.errors[0].source.pointer).toBe('/data/relationships/workspace');

    const patched = await api.patch(`${P}/vars/${id}`, varBody({ value: '3' }), t());
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.attributes.value).toBe('3');
    expect((await api.delete(`${P}/vars/${id}`, t())).status).toBe(204);
    expect((await api.patch(`${P}/vars/${id}`, varBody({ value: '4' }), t())).status).toBe(404);
    expect(await count()).toBe(1);
  });

  it('a variable is reached only through its own workspace', async () => {
    const v = await create({ key: 'a', category: 'terraform' });
    const other = await api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name: 'other' } } },
      t(),
    );
    const path = `${P}/workspaces/${other.body.data.id}/vars/${v.id}`;
    expect((await api.get(path, t())).status).toBe(404);
    expect((await api.patch(path, varBody({ value: 'x' }), t())).status).toBe(404);
    expect((await api.delete(path, t())).status).toBe(404);
    expect((await api.get(`${vars()}/var-AAAAAAAAAAAAAAAA`, t())).status).toBe(404);
    expect((await api.get(`${P}/workspaces/ws-AAAAAAAAAAAAAAAA/vars`, t())).status).toBe(404);
  });

  describe('rules: a 422 at the attribute, nothing stored', () => {
    const refused = async (attributes: Record<string, unknown>, pointer: string, detail?: RegExp) => {
      const res = await api.post(vars(), varBody(attributes), t());
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
      if (detail) expect(res.text).toMatch(detail);
      expect(await count()).toBe(0);
    };

    it('key and category are required; category is terraform or env; types are checked', async () => {
      await refused({ category: 'terraform' }, '/data/attributes/key', /key is required/);
      await refused({ key: 'a' }, '/data/attributes/category', /category is required/);
      await refused({ key: 'a', category: 'policy-set' }, '/data/attributes/category');
      await refused({ key: 'a', category: 'terraform', hcl: 'yes' }, '/data/attributes/hcl');
      await refused({ key: 'a', category: 'terraform', sensitive: 1 }, '/data/attributes/sensitive');
      await refused({ key: 'a', category: 'terraform', value: 3 }, '/data/attributes/value');
      await refused({ key: 7, category: 'terraform' }, '/data/attributes/key');
      const wrongType = await api.post(vars(), { data: { type: 'variables', attributes: { key: 'a' } } }, t());
      expect(wrongType.status).toBe(422);
      expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
      const malformed = await api.request('POST', vars(), { raw: '{"data":', token: f.owner.token });
      expect(malformed.status).toBe(400);
    });

    it('keys: any plain text, as HCP takes them (go-tfe uses UUIDs); no controls, tabs or line breaks', async () => {
      for (const key of ['my_var', 'my-var', '_x', 'X1', '3f1e8c2a-1b2c-4d5e-8f90-123456789abc', 'a.b', 'ä']) {
        const v = await create({ key, category: 'terraform' });
        expect(v.attributes.key).toBe(key);
        expect((await api.delete(`${vars()}/${v.id}`, t())).status).toBe(204);
      }
      for (const key of ['', 'a\nb', 'a\tb', 'a\u0000b', 'a\ud800'])
        await refused({ key, category: 'terraform' }, '/data/attributes/key');
    });

    it('environment keys: any plain text without "="; no value holds NUL or an unpaired surrogate', async () => {
      for (const key of ['AWS_REGION', '_X', 'tf_log', 'my-var', '1X']) {
        const v = await create({ key, category: 'env' });
        expect((await api.delete(`${vars()}/${v.id}`, t())).status).toBe(204);
      }
      await refused({ key: 'A=B', category: 'env' }, '/data/attributes/key', /must not contain/);
      await refused({ key: 'NUL', category: 'env', value: 'a\u0000b' }, '/data/attributes/value', /NUL/);
      await refused({ key: 'nul', category: 'terraform', value: 'a\u0000b' }, '/data/attributes/value', /NUL/);
      await refused({ key: 'half', category: 'terraform', value: 'x\ud800' }, '/data/attributes/value', /surrogate/);
      await refused(
        { key: 'd', category: 'terraform', description: 'd\u0000' },
        '/data/attributes/description',
        /control characters/,
      );
    });

    it('limits: key 128 characters, description 512, value 256 KiB', async () => {
      await create({ key: 'k'.repeat(128), category: 'terraform', description: 'd'.repeat(512) });
      await api.delete(`${vars()}/${(await api.get(vars(), t())).body.data[0].id}`, t());
      await refused({ key: 'k'.repeat(129), category: 'terraform' }, '/data/attributes/key', /128/);
      await refused({ key: 'a', category: 'terraform', description: 'd'.repeat(513) }, '/data/attributes/description');
      await refused({ key: 'a', category: 'terraform', value: 'v'.repeat(256 * 1024 + 1) }, '/data/attributes/value');
      const big = await create({ key: 'big', category: 'terraform', value: 'v'.repeat(256 * 1024) });
      expect(big.attributes.value).toHaveLength(256 * 1024);
    });

    it('a key is unique per workspace and category, on create and on update', async () => {
      await create({ key: 'a', category: 'terraform' });
      const dup = await api.post(vars(), varBody({ key: 'a', category: 'terraform' }), t());
      expect(dup.status).toBe(422);
      expect(dup.body.errors[0].source.pointer).toBe('/data/attributes/key');
      expect(dup.body.errors[0].detail).toMatch(/already has a Terraform variable with key "a"/);
      // The same key in the other category, or in another workspace, is another variable.
      const env = await create({ key: 'a', category: 'env' });
      const other = await api.post(
        `${P}/organizations/acme/workspaces`,
        { data: { type: 'workspaces', attributes: { name: 'other' } } },
        t(),
      );
      const elsewhere = await api.post(
        `${P}/workspaces/${other.body.data.id}/vars`,
        varBody({ key: 'a', category: 'terraform' }),
        t(),
      );
      expect(elsewhere.status).toBe(201);
      // Moving the env variable into the terraform category where `a` exists is refused too.
      const move = await api.patch(`${vars()}/${env.id}`, varBody({ category: 'terraform' }), t());
      expect(move.status).toBe(422);
      expect(move.body.errors[0].source.pointer).toBe('/data/attributes/key');
      expect((await api.get(`${vars()}/${env.id}`, t())).body.data.attributes.category).toBe('env');
      expect(await count()).toBe(2);
    });

    it('an update is checked whole: a key that the new category does not allow is refused, nothing changes', async () => {
      const v = await create({ key: 'A=B', category: 'terraform', value: 'x' });
      const res = await api.patch(`${vars()}/${v.id}`, varBody({ category: 'env', value: 'changed' }), t());
      expect(res.status).toBe(422);
      const now = (await api.get(`${vars()}/${v.id}`, t())).body.data;
      expect(now.attributes).toMatchObject({ category: 'terraform', value: 'x' });
      expect(now.attributes['version-id']).toBe(v.attributes['version-id']);
    });
  });

  describe('sensitive values are write-only', () => {
    it('never in any answer nor in the audit trail; written once; new values accepted; never made readable again', async () => {
      const create1 = await api.post(
        vars(),
        varBody({ key: 'password', value: SECRET, category: 'terraform', sensitive: true }),
        t(),
      );
      expect(create1.status).toBe(201);
      const v = create1.body.data;
      expect(v.attributes.value).toBeNull();
      expect(v.attributes.sensitive).toBe(true);
      const env = await create({ key: 'TOKEN', value: `${SECRET}-env`, category: 'env', sensitive: true });
      const answers = [
        create1,
        await api.get(vars(), t()),
        await api.get(`${vars()}/${v.id}`, t()),
        await api.get(`${P}/vars?filter[organization][name]=acme&filter[workspace][name]=web`, t()),
        await api.patch(`${vars()}/${v.id}`, varBody({ description: 'db password' }), t()),
        await api.patch(`${vars()}/${env.id}`, varBody({ value: `${SECRET}-rotated` }), t()),
      ];
      for (const res of answers) {
        expect(res.status, res.text).toBeLessThan(300);
        expect(res.text).not.toContain(SECRET);
      }
      // Making it non-sensitive is refused (HCP: delete and create it again), and changes nothing.
      const reveal = await api.patch(`${vars()}/${v.id}`, varBody({ sensitive: false }), t());
      expect(reveal.status).toBe(422);
      expect(reveal.body.errors[0].source.pointer).toBe('/data/attributes/sensitive');
      expect(reveal.text).not.toContain(SECRET);
      // A refused request does not echo a sensitive value either.
      const bad = await api.patch(`${vars()}/${env.id}`, varBody({ value: `${SECRET}\u0000` }), t());
      expect(bad.status).toBe(422);
      expect(bad.text).not.toContain(SECRET);
      // A non-sensitive variable may become sensitive.
      const plain = await create({ key: 'plain', value: 'visible', category: 'terraform' });
      const hidden = await api.patch(`${vars()}/${plain.id}`, varBody({ sensitive: true }), t());
      expect(hidden.body.data.attributes).toMatchObject({ sensitive: true, value: null });

      // Runs get the values (the executor's side only).
      const effective = await effectiveVariables(api.store.db, f.web);
      expect(effective.terraform).toContainEqual({ key: 'password', value: SECRET, hcl: false, sensitive: true });
      expect(effective.env).toContainEqual({ key: 'TOKEN', value: `${SECRET}-rotated`, sensitive: true });

      // The audit trail names the variables by key, never with a value.
      const trail = await api.get(`${P}/organizations/acme/audit-trail?page[size]=100`, t());
      expect(trail.status, trail.text).toBe(200);
      expect(trail.text).not.toContain(SECRET);
      const rows = await api.store.db.selectFrom('audit_events').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      const actions = rows.map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['variable.create', 'variable.update']));
    });
  });

  it('the audit trail records create, update and delete with the variable and its workspace', async () => {
    const v = await create({ key: 'region', value: 'eu', category: 'terraform' });
    await api.patch(`${vars()}/${v.id}`, varBody({ value: 'us' }), t());
    await api.delete(`${vars()}/${v.id}`, t());
    const rows = await api.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', 'like', 'variable.%')
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['variable.create', 'variable.update', 'variable.delete']);
    for (const r of rows) {
      expect(r).toMatchObject({ target_type: 'vars', target_id: v.id, target_name: 'region', workspace_id: f.web });
    }
    // A refused request leaves no record.
    await api.post(vars(), varBody({ key: 'bad\nkey', category: 'terraform' }), t());
    expect(
      await api.store.db.selectFrom('audit_events').select('seq').where('action', 'like', 'variable.%').execute(),
    ).toHaveLength(3);
  });

  it('go with their workspace when it is deleted', async () => {
    await create({ key: 'a', category: 'terraform' });
    await create({ key: 'B', category: 'env', sensitive: true, value: SECRET });
    expect((await api.delete(`${P}/workspaces/${f.web}`, t())).status).toBe(204);
    const left = await api.store.db.selectFrom('workspace_variables').selectAll().execute();
    expect(left).toEqual([]);
  });

  it('berth db copy carries them, sensitive values as their ciphertext, which the same key opens there', async () => {
    await create({ key: 'a', value: '1', category: 'terraform', hcl: true });
    const b = await create({ key: 'B', category: 'env', sensitive: true, value: SECRET });
    const target = await openStore(':memory:');
    try {
      const result = await copyDatabase(api.store, target);
      expect(result.tables).toContainEqual({ name: 'workspace_variables', rows: 2 });
      const stored = (db: typeof target.db) =>
        db
          .selectFrom('workspace_variables')
          .select(['value', 'sealed'])
          .where('id', '=', b.id)
          .executeTakeFirstOrThrow();
      const copied = await stored(target.db);
      expect(copied).toEqual(await stored(api.store.db));
      expect(copied.sealed).toBe(1);
      expect(copied.value).not.toContain(SECRET);
      await attachSecretKey(target, TEST_KEY_SOURCE);
      expect(await effectiveVariables(target.db, f.web)).toEqual({
        terraform: [{ key: 'a', value: '1', hcl: true, sensitive: false }],
        env: [{ key: 'B', value: SECRET, sensitive: true }],
        runVariables: [],
        overriddenRunVariables: [],
      });
    } finally {
      await target.close();
    }
  });

  it("the workspace's vars relationship names its variables in creation order, to those who may read them", async () => {
    const first = await create({ key: 'region', category: 'terraform' });
    const second = await create({ key: 'TOKEN', category: 'env', sensitive: true, value: SECRET });
    const expected = [first.id, second.id].map((id) => ({ type: 'vars', id }));
    const ws = await api.get(`${P}/workspaces/${f.web}`, t());
    expect(ws.body.data.relationships.vars.data).toEqual(expected);
    const listed = await api.get(`${P}/organizations/acme/workspaces`, t());
    expect(listed.body.data.find((w: any) => w.id === f.web).relationships.vars.data).toEqual(expected);
    // A member who may read the workspace but not its variables sees none.
    const blind = await teamMember(f, 'blind');
    await grantWorkspace(f, blind.teamId, f.web, 'custom', { runs: 'read', variables: 'none' });
    const seen = await api.get(`${P}/workspaces/${f.web}`, { token: blind.token });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data.attributes.permissions['can-read-variable']).toBe(false);
    expect(seen.body.data.relationships.vars.data).toEqual([]);
  });

  it('the workspace tells whether the caller may read and update its variables', async () => {
    const ws = await api.get(`${P}/workspaces/${f.web}`, t());
    expect(ws.body.data.attributes.permissions).toMatchObject({
      'can-read-variable': true,
      'can-update-variable': true,
    });
  });
});
