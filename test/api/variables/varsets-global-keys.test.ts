import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';

/**
 * HCP Terraform does not allow two global variable sets to hold a variable of the same key, so
 * global sets never conflict: every write that would make such a pair (a variable created or
 * renamed in a global set, a global set created with it, a set made global) is a 422 naming the
 * key and the other set, and changes nothing. Sets applied to workspaces or projects may share
 * keys (their order is the precedence's, varsets-precedence.test.ts).
 */

const P = '/api/v2';
const setBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
});
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });
const vars = (...items: Record<string, unknown>[]) => ({
  vars: { data: items.map((attributes) => ({ type: 'vars', attributes })) },
});
const tf = (key: string, value = 'v') => ({ key, value, category: 'terraform' });

describe('global variable sets may not share a key', () => {
  let api: TestApi;
  let f: AccessFixture;
  beforeEach(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterEach(() => api.close());

  const create = async (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => {
    const res = await api.post(`${P}/organizations/acme/varsets`, setBody(attributes, relationships));
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  /** What is stored of every set and variable, and how many audit records there are. */
  const snapshot = async () => ({
    sets: await api.store.db
      .selectFrom('varsets')
      .select(['id', 'name', 'global', 'priority', 'updated_at'])
      .orderBy('name')
      .execute(),
    variables: await api.store.db
      .selectFrom('varset_variables')
      .select(['id', 'varset_id', 'key', 'category', 'value'])
      .orderBy('id')
      .execute(),
    links: await api.store.db.selectFrom('varset_workspaces').selectAll().orderBy('varset_id').execute(),
    audit: (await api.store.db.selectFrom('audit_events').select('seq').execute()).length,
  });
  const expectRefused = (
    res: { status: number; body: any },
    pointer: string,
    key: string,
    other: string,
    kind = 'a Terraform',
  ) => {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].source).toEqual({ pointer });
    expect(res.body.errors[0].detail).toBe(
      `the global variable set "${other}" already has ${kind} variable with key "${key}": two global variable sets may not hold the same key`,
    );
  };

  it('creating a global set with a key another global set holds', async () => {
    await create({ name: 'creds', global: true }, vars(tf('region', 'eu')));
    const before = await snapshot();
    const res = await api.post(
      `${P}/organizations/acme/varsets`,
      setBody({ name: 'more', global: true }, vars(tf('zone'), tf('region', 'us'))),
    );
    expectRefused(res, '/data/relationships/vars/data/1/attributes/key', 'region', 'creds');
    expect(await snapshot()).toEqual(before);
    // A priority global set is global too.
    const prio = await api.post(
      `${P}/organizations/acme/varsets`,
      setBody({ name: 'prio', global: true, priority: true }, vars(tf('region'))),
    );
    expectRefused(prio, '/data/relationships/vars/data/0/attributes/key', 'region', 'creds');
    expect(await snapshot()).toEqual(before);
  });

  it('adding or renaming a variable of a global set to a key another global set holds', async () => {
    const creds = await create({ name: 'creds', global: true }, vars(tf('region')));
    const other = await create({ name: 'other', global: true }, vars(tf('zone')));
    const zone = (await api.get(`${P}/varsets/${other}/relationships/vars`)).body.data[0].id;
    const before = await snapshot();

    const add = await api.post(`${P}/varsets/${other}/relationships/vars`, varBody(tf('region', 'us')));
    expectRefused(add, '/data/attributes/key', 'region', 'creds');
    const rename = await api.patch(`${P}/varsets/${other}/relationships/vars/${zone}`, varBody({ key: 'region' }));
    expectRefused(rename, '/data/attributes/key', 'region', 'creds');
    // Through the set's update body, which adds variables.
    const viaSet = await api.patch(`${P}/varsets/${other}`, setBody({ description: 'x' }, vars(tf('region'))));
    expectRefused(viaSet, '/data/relationships/vars/data/0/attributes/key', 'region', 'creds');
    expect(await snapshot()).toEqual(before);

    // The same key in the other category is another variable; a global set's own key may change value.
    const env = await api.post(
      `${P}/varsets/${other}/relationships/vars`,
      varBody({ key: 'region', value: 'e', category: 'env' }),
    );
    expect(env.status, env.text).toBe(201);
    const value = await api.patch(`${P}/varsets/${other}/relationships/vars/${zone}`, varBody({ value: 'changed' }));
    expect(value.status, value.text).toBe(200);
    // Once creds no longer holds it, the key is free.
    const held = (await api.get(`${P}/varsets/${creds}/relationships/vars`)).body.data[0].id;
    expect((await api.delete(`${P}/varsets/${creds}/relationships/vars/${held}`)).status).toBe(204);
    expect(
      (await api.patch(`${P}/varsets/${other}/relationships/vars/${zone}`, varBody({ key: 'region' }))).status,
    ).toBe(200);
  });

  it('making a set global while it shares a key with a global set', async () => {
    await create({ name: 'creds', global: true }, vars({ key: 'TOKEN', value: 't', category: 'env' }));
    const local = await create(
      { name: 'local' },
      {
        ...vars({ key: 'TOKEN', value: 'l', category: 'env' }),
        workspaces: { data: [{ type: 'workspaces', id: f.web }] },
      },
    );
    const before = await snapshot();
    const res = await api.patch(`${P}/varsets/${local}`, setBody({ global: true }));
    expectRefused(res, '/data/attributes/global', 'TOKEN', 'creds', 'an environment');
    // Nothing changed: still applied to its workspace, not global.
    expect(await snapshot()).toEqual(before);
    const put = await api.request('PUT', `${P}/varsets/${local}`, { body: setBody({ name: 'local', global: true }) });
    expectRefused(put, '/data/attributes/global', 'TOKEN', 'creds', 'an environment');
    expect(await snapshot()).toEqual(before);
  });

  it('a clash stored before the rule (an older berth) does not stop unrelated changes', async () => {
    await create({ name: 'creds', global: true }, vars(tf('region')));
    const old = await create({ name: 'old', global: true }, vars(tf('zone')));
    await api.store.db.updateTable('varset_variables').set({ key: 'region' }).where('varset_id', '=', old).execute();
    const zone = (await api.get(`${P}/varsets/${old}/relationships/vars`)).body.data[0].id;
    expect((await api.patch(`${P}/varsets/${old}`, setBody({ description: 'still here' }))).status).toBe(200);
    expect((await api.post(`${P}/varsets/${old}/relationships/vars`, varBody(tf('other')))).status).toBe(201);
    expect((await api.patch(`${P}/varsets/${old}/relationships/vars/${zone}`, varBody({ value: 'v2' }))).status).toBe(
      200,
    );
  });

  it('sets applied to workspaces or projects, and global sets of another organization, may share keys', async () => {
    await create({ name: 'creds', global: true }, vars(tf('region')));
    await create(
      { name: 'ws', priority: true },
      { ...vars(tf('region')), workspaces: { data: [{ type: 'workspaces', id: f.web }] } },
    );
    await create({ name: 'prj' }, { ...vars(tf('region')), projects: { data: [{ type: 'projects', id: f.alpha }] } });
    await create({ name: 'loose' }, vars(tf('region')));
    expect((await api.createOrg('other')).status).toBe(201);
    const res = await api.post(
      `${P}/organizations/other/varsets`,
      setBody({ name: 'creds-too', global: true }, vars(tf('region'))),
    );
    expect(res.status, res.text).toBe(201);
  });
});
