import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedVarsets } from '../../../src/services/variables/varsets-applied.js';
import { runValue } from '../../../src/services/variables/sealed-value.js';
import { attachSecretKey } from '../../../src/store/secrets/attach.js';
import { TEST_KEY_SOURCE } from '../../helpers/secret-key.js';
import { copyDatabase } from '../../../src/store/copy.js';
import { openStore } from '../../../src/store/open.js';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { ISO_MS } from '../../helpers/projects.js';

const VARSET_ID = /^varset-[A-Za-z0-9]{16}$/;
const VAR_ID = /^var-[A-Za-z0-9]{16}$/;
const SECRET = 'hunter2-do-not-leak';

const setBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
});
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });
const refs = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

describe('variable sets API', () => {
  let api: TestApi;
  let f: AccessFixture;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterAll(() => api.close());

  const create = async (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => {
    const res = await api.post('/api/v2/organizations/acme/varsets', setBody(attributes, relationships));
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };

  it('creates a set with workspaces, projects and variables, and shows it', async () => {
    const data = await create(
      { name: 'Cloud creds', description: 'shared', priority: true },
      {
        workspaces: refs('workspaces', [f.web]),
        projects: refs('projects', [f.beta]),
        vars: {
          data: [
            { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } },
            { type: 'vars', attributes: { key: 'TOKEN', value: SECRET, category: 'env', sensitive: true } },
          ],
        },
      },
    );
    expect(data.id).toMatch(VARSET_ID);
    expect(data.attributes).toEqual({
      name: 'Cloud creds',
      description: 'shared',
      global: false,
      priority: true,
      'updated-at': expect.stringMatching(ISO_MS),
      'var-count': 2,
      'workspace-count': 1,
      'project-count': 1,
    });
    expect(data.relationships.organization.data).toEqual({ id: 'acme', type: 'organizations' });
    expect(data.relationships.workspaces.data).toEqual([{ id: f.web, type: 'workspaces' }]);
    expect(data.relationships.projects.data).toEqual([{ id: f.beta, type: 'projects' }]);
    expect(data.relationships.vars.data).toHaveLength(2);

    const shown = await api.get(`/api/v2/varsets/${data.id}?include=vars,workspaces,projects`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes.name).toBe('Cloud creds');
    const vars = shown.body.included.filter((r: any) => r.type === 'vars');
    expect(vars.map((v: any) => [v.attributes.key, v.attributes.value, v.attributes.sensitive])).toEqual([
      ['region', 'eu', false],
      ['TOKEN', null, true],
    ]);
    expect(shown.body.included.filter((r: any) => r.type === 'workspaces').map((r: any) => r.id)).toEqual([f.web]);
    expect(shown.text).not.toContain(SECRET);
  });

  it('defaults description to "" and global and priority to false', async () => {
    const data = await create({ name: 'Bare' });
    expect(data.attributes).toMatchObject({ description: '', global: false, priority: false, 'var-count': 0 });
  });

  it('refuses a missing or blank name, a taken name (any case), bad types and strangers, changing nothing', async () => {
    const before = await api.get('/api/v2/organizations/acme/varsets?page[size]=100');
    const bad: [unknown, string][] = [
      [setBody({}), '/data/attributes/name'],
      [setBody({ name: '  ' }), '/data/attributes/name'],
      [setBody({ name: 'cloud CREDS' }), '/data/attributes/name'],
      [setBody({ name: 'X', global: 'yes' }), '/data/attributes/global'],
      [setBody({ name: 'X', priority: 1 }), '/data/attributes/priority'],
      [setBody({ name: 'X' }, { workspaces: refs('workspaces', ['ws-nope']) }), '/data/relationships/workspaces'],
      [setBody({ name: 'X' }, { projects: refs('projects', ['prj-nope']) }), '/data/relationships/projects'],
      [
        setBody({ name: 'X', global: true }, { workspaces: refs('workspaces', [f.web]) }),
        '/data/relationships/workspaces',
      ],
      [
        setBody(
          { name: 'X' },
          { vars: { data: [{ type: 'vars', attributes: { key: 'a\nline break', category: 'terraform' } }] } },
        ),
        '/data/relationships/vars/data/0/attributes/key',
      ],
      [
        setBody({ name: 'X' }, { vars: { data: [{ type: 'vars', attributes: { key: 'k', category: 'shell' } }] } }),
        '/data/relationships/vars/data/0/attributes/category',
      ],
      [
        setBody(
          { name: 'X' },
          {
            vars: {
              data: [
                { type: 'vars', attributes: { key: 'k', category: 'env' } },
                { type: 'vars', attributes: { key: 'k', category: 'env' } },
              ],
            },
          },
        ),
        '/data/relationships/vars/data/1/attributes/key',
      ],
    ];
    for (const [body, pointer] of bad) {
      const res = await api.post('/api/v2/organizations/acme/varsets', body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    }
    const wrongType = await api.post('/api/v2/organizations/acme/varsets', {
      data: { type: 'projects', attributes: { name: 'Y' } },
    });
    expect(wrongType.status).toBe(422);
    const after = await api.get('/api/v2/organizations/acme/varsets?page[size]=100');
    expect(after.body.data).toEqual(before.body.data);
  });

  it('answers hostile bodies with a 4xx, never a 500', async () => {
    const s = await create({ name: 'hostile' });
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v2/organizations/acme/varsets', { data: null }],
      ['POST', '/api/v2/organizations/acme/varsets', { data: [] }],
      ['POST', '/api/v2/organizations/acme/varsets', setBody({ name: 'h' }, { vars: { data: {} } })],
      ['POST', '/api/v2/organizations/acme/varsets', setBody({ name: 'h' }, { vars: { data: [null, 3] } })],
      ['POST', '/api/v2/organizations/acme/varsets', setBody({ name: 'h' }, { workspaces: 'ws' })],
      ['POST', '/api/v2/organizations/acme/varsets', setBody({ name: ['h'] })],
      ['PATCH', `/api/v2/varsets/${s.id}`, setBody({ description: 7 })],
      ['POST', `/api/v2/varsets/${s.id}/relationships/workspaces`, { data: { type: 'workspaces', id: f.web } }],
      ['POST', `/api/v2/varsets/${s.id}/relationships/projects`, { data: [null] }],
      ['DELETE', `/api/v2/varsets/${s.id}/relationships/workspaces`, undefined],
      ['POST', `/api/v2/varsets/${s.id}/relationships/vars`, { data: { type: 'vars', attributes: 'k' } }],
      ['POST', `/api/v2/varsets/${s.id}/relationships/vars`, varBody({ key: 7, category: 'env' })],
      ['POST', `/api/v2/varsets/${s.id}/relationships/vars`, varBody({ key: 'k', category: 'env', value: { a: 1 } })],
    ];
    for (const [method, path, body] of cases) {
      const res = await api.request(method, path, { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors).toBeDefined();
    }
    const raw = await api.request('POST', '/api/v2/organizations/acme/varsets', { raw: '{"data":' });
    expect(raw.status).toBe(400);
    const after = await api.get(`/api/v2/varsets/${s.id}`);
    expect(after.body.data.attributes).toMatchObject({ description: '', 'var-count': 0, 'workspace-count': 0 });
  });

  it('lists with paging and q (case-insensitive substring), sorted by name', async () => {
    await create({ name: 'list-alpha' });
    await create({ name: 'LIST-beta' });
    await create({ name: 'list-gamma' });
    const page = await api.get('/api/v2/organizations/acme/varsets?q=list-&page[size]=2');
    expect(page.status).toBe(200);
    expect(page.body.data.map((d: any) => d.attributes.name)).toEqual(['list-alpha', 'LIST-beta']);
    expect(page.body.meta.pagination).toMatchObject({ 'total-count': 3, 'total-pages': 2, 'next-page': 2 });
    const second = await api.get('/api/v2/organizations/acme/varsets?q=list-&page[size]=2&page[number]=2');
    expect(second.body.data.map((d: any) => d.attributes.name)).toEqual(['list-gamma']);
    expect((await api.get('/api/v2/organizations/nope/varsets')).status).toBe(404);
    expect((await api.get('/api/v2/organizations/acme/varsets?include=bogus')).status).toBe(400);
  });

  it('updates attributes, replaces workspaces and projects, adds variables', async () => {
    const s = await create({ name: 'upd' }, { workspaces: refs('workspaces', [f.web]) });
    const res = await api.patch(
      `/api/v2/varsets/${s.id}`,
      setBody(
        { name: 'upd2', description: 'd', priority: true },
        {
          workspaces: { data: [] },
          projects: refs('projects', [f.alpha]),
          vars: { data: [{ type: 'vars', attributes: { key: 'k', value: 'v', category: 'terraform' } }] },
        },
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'upd2', description: 'd', priority: true, 'var-count': 1 });
    expect(res.body.data.relationships.workspaces.data).toEqual([]);
    expect(res.body.data.relationships.projects.data).toEqual([{ id: f.alpha, type: 'projects' }]);
    // Omitted relationships stay; becoming global drops the set's own workspaces and projects.
    const keep = await api.patch(`/api/v2/varsets/${s.id}`, setBody({ description: 'e' }));
    expect(keep.body.data.relationships.projects.data).toHaveLength(1);
    const global = await api.patch(`/api/v2/varsets/${s.id}`, setBody({ global: true }));
    expect(global.body.data.attributes).toMatchObject({ global: true, 'project-count': 0, 'workspace-count': 0 });
    // The go-tfe UpdateWorkspaces form: global false and a workspace list.
    const back = await api.patch(`/api/v2/varsets/${s.id}?include=workspaces`, {
      data: {
        type: 'varsets',
        attributes: { global: false },
        relationships: { workspaces: refs('workspaces', [f.web]) },
      },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.data.relationships.workspaces.data).toEqual([{ id: f.web, type: 'workspaces' }]);
    const taken = await api.patch(`/api/v2/varsets/${s.id}`, setBody({ name: 'BARE' }));
    expect(taken.status).toBe(422);
    expect((await api.patch('/api/v2/varsets/varset-nope', setBody({ name: 'z' }))).status).toBe(404);
  });

  it('applies to and removes from workspaces and projects (additive, idempotent, 422 for strangers)', async () => {
    const s = await create({ name: 'links' });
    const path = `/api/v2/varsets/${s.id}/relationships`;
    expect((await api.post(`${path}/workspaces`, refs('workspaces', [f.web]))).status).toBe(204);
    expect((await api.post(`${path}/workspaces`, refs('workspaces', [f.web]))).status).toBe(204);
    expect((await api.post(`${path}/projects`, refs('projects', [f.alpha, f.beta]))).status).toBe(204);
    let shown = await api.get(`/api/v2/varsets/${s.id}`);
    expect(shown.body.data.attributes).toMatchObject({ 'workspace-count': 1, 'project-count': 2 });
    expect((await api.request('DELETE', `${path}/projects`, { body: refs('projects', [f.beta]) })).status).toBe(204);
    expect((await api.request('DELETE', `${path}/workspaces`, { body: refs('workspaces', [f.web]) })).status).toBe(204);
    shown = await api.get(`/api/v2/varsets/${s.id}`);
    expect(shown.body.data.relationships.projects.data).toEqual([{ id: f.alpha, type: 'projects' }]);
    expect(shown.body.data.attributes['workspace-count']).toBe(0);
    const stranger = await api.post(`${path}/workspaces`, refs('workspaces', ['ws-AAAAAAAAAAAAAAAA']));
    expect(stranger.status).toBe(422);
    const wrong = await api.post(`${path}/workspaces`, refs('projects', [f.alpha]));
    expect(wrong.status).toBe(422);
    const global = await create({ name: 'links-global', global: true });
    expect(
      (await api.post(`/api/v2/varsets/${global.id}/relationships/workspaces`, refs('workspaces', [f.web]))).status,
    ).toBe(422);
    expect(
      (await api.post('/api/v2/varsets/varset-nope/relationships/workspaces', refs('workspaces', [f.web]))).status,
    ).toBe(404);
  });

  it('manages the variables of a set; a sensitive value is write-only', async () => {
    const s = await create({ name: 'vars' });
    const path = `/api/v2/varsets/${s.id}/relationships/vars`;
    const created = await api.post(
      path,
      varBody({ key: 'password', value: SECRET, category: 'terraform', sensitive: true, description: 'db' }),
    );
    expect(created.status, created.text).toBe(201);
    const v = created.body.data;
    expect(v.id).toMatch(VAR_ID);
    expect(v.attributes).toEqual({
      key: 'password',
      value: null,
      description: 'db',
      category: 'terraform',
      hcl: false,
      sensitive: true,
      'version-id': expect.stringMatching(/^[0-9a-f]{36}$/),
      'created-at': expect.stringMatching(ISO_MS),
    });
    expect(v.relationships.varset.data).toEqual({ id: s.id, type: 'varsets' });
    const plain = await api.post(path, varBody({ key: 'size', value: '3', category: 'terraform', hcl: true }));
    expect(plain.body.data.attributes).toMatchObject({ value: '3', hcl: true });

    const list = await api.get(path);
    expect(list.body.data.map((d: any) => d.attributes.key)).toEqual(['password', 'size']);
    const one = await api.get(`${path}/${v.id}`);
    expect(one.body.data.attributes.value).toBeNull();

    const upd = await api.patch(`${path}/${v.id}`, varBody({ value: 'new-secret', description: 'rotated' }));
    expect(upd.status).toBe(200);
    expect(upd.body.data.attributes).toMatchObject({ value: null, description: 'rotated', sensitive: true });
    // Stored sealed: the ciphertext of the new value, which the key opens.
    const stored = await api.store.db
      .selectFrom('varset_variables')
      .select(['id', 'value', 'sealed'])
      .where('id', '=', v.id)
      .executeTakeFirstOrThrow();
    expect(stored.value).not.toContain('new-secret');
    expect(runValue(api.store.db, 'varset_variables', stored)).toBe('new-secret');

    // Rules (those of workspace variables): one key per category, no way back from sensitive, valid keys.
    expect((await api.post(path, varBody({ key: 'size', value: '4', category: 'terraform' }))).status).toBe(422);
    expect((await api.post(path, varBody({ key: 'size', value: '4', category: 'env' }))).status).toBe(201);
    expect((await api.patch(`${path}/${v.id}`, varBody({ sensitive: false }))).status).toBe(422);
    expect((await api.patch(`${path}/${v.id}`, varBody({ key: 'size', category: 'env' }))).status).toBe(422);
    expect((await api.patch(`${path}/${v.id}`, varBody({ key: 'size' }))).status).toBe(422);
    expect((await api.post(path, varBody({ value: 'x', category: 'env' }))).status).toBe(422);
    expect((await api.post(path, varBody({ key: 'A=B', category: 'env' }))).status).toBe(422);
    expect((await api.post(path, varBody({ key: 'ok', category: 'env', hcl: 'yes' }))).status).toBe(422);
    expect((await api.get(`${path}/var-AAAAAAAAAAAAAAAA`)).status).toBe(404);

    expect((await api.delete(`${path}/${plain.body.data.id}`)).status).toBe(204);
    expect((await api.get(`${path}/${plain.body.data.id}`)).status).toBe(404);
    expect((await api.get(`/api/v2/varsets/${s.id}`)).body.data.attributes['var-count']).toBe(2);
  });

  it('lists the sets of a workspace (own, its project, global) and of a project (its own, global)', async () => {
    const own = await create({ name: 'scope-own' }, { workspaces: refs('workspaces', [f.web]) });
    const viaProject = await create({ name: 'scope-project' }, { projects: refs('projects', [f.alpha]) });
    const other = await create({ name: 'scope-other' }, { projects: refs('projects', [f.beta]) });
    const global = await create({ name: 'scope-global', global: true });
    const ws = await api.get(`/api/v2/workspaces/${f.web}/varsets?q=scope-`);
    expect(ws.status).toBe(200);
    expect(ws.body.data.map((d: any) => d.id).sort()).toEqual([own.id, viaProject.id, global.id].sort());
    const prj = await api.get(`/api/v2/projects/${f.alpha}/varsets?q=scope-`);
    expect(prj.body.data.map((d: any) => d.id).sort()).toEqual([viaProject.id, global.id].sort());
    const beta = await api.get(`/api/v2/projects/${f.beta}/varsets?q=scope-`);
    expect(beta.body.data.map((d: any) => d.id).sort()).toEqual([other.id, global.id].sort());
    expect((await api.get('/api/v2/workspaces/ws-AAAAAAAAAAAAAAAA/varsets')).status).toBe(404);
    expect((await api.get('/api/v2/projects/prj-AAAAAAAAAAAAAAAA/varsets')).status).toBe(404);
  });

  it('records every change in the audit trail, never a sensitive value', async () => {
    const s = await create(
      { name: 'audited' },
      { vars: { data: [{ type: 'vars', attributes: { key: 'S', value: SECRET, category: 'env', sensitive: true } }] } },
    );
    const v = await api.post(
      `/api/v2/varsets/${s.id}/relationships/vars`,
      varBody({ key: 'T', value: SECRET, category: 'env', sensitive: true }),
    );
    await api.patch(`/api/v2/varsets/${s.id}/relationships/vars/${v.body.data.id}`, varBody({ value: SECRET }));
    await api.delete(`/api/v2/varsets/${s.id}/relationships/vars/${v.body.data.id}`);
    await api.delete(`/api/v2/varsets/${s.id}`);
    const rows = await api.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', 'like', 'varset.%')
      .execute();
    const mine = rows.filter((r) => r.target_id === s.id);
    expect(mine.map((r) => r.action)).toEqual([
      'varset.create',
      'varset.variable.create',
      'varset.variable.update',
      'varset.variable.delete',
      'varset.delete',
    ]);
    expect(mine.every((r) => r.target_type === 'varsets' && r.organization_name === 'acme')).toBe(true);
    expect(mine[0].target_name).toBe('audited');
    const all = await api.store.db.selectFrom('audit_events').selectAll().execute();
    expect(JSON.stringify(all)).not.toContain(SECRET);
  });

  it('deletes a set with its variables and links', async () => {
    const s = await create(
      { name: 'doomed' },
      {
        workspaces: refs('workspaces', [f.web]),
        vars: { data: [{ type: 'vars', attributes: { key: 'k', category: 'env' } }] },
      },
    );
    expect((await api.delete(`/api/v2/varsets/${s.id}`)).status).toBe(204);
    expect((await api.get(`/api/v2/varsets/${s.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v2/varsets/${s.id}`)).status).toBe(404);
    const db = api.store.db;
    expect(await db.selectFrom('varset_variables').selectAll().where('varset_id', '=', s.id).execute()).toEqual([]);
    expect(await db.selectFrom('varset_workspaces').selectAll().where('varset_id', '=', s.id).execute()).toEqual([]);
  });
});

describe('variable sets: berth db copy', () => {
  it('carries the sets, their variables (sensitive values sealed, as they are) and where they apply', async () => {
    const api = await TestApi.create();
    const target = await openStore(':memory:');
    try {
      const f = await accessFixture(api);
      const res = await api.post(
        '/api/v2/organizations/acme/varsets',
        setBody(
          { name: 'copied', priority: true },
          {
            workspaces: refs('workspaces', [f.web]),
            projects: refs('projects', [f.alpha]),
            vars: {
              data: [{ type: 'vars', attributes: { key: 'K', value: SECRET, category: 'env', sensitive: true } }],
            },
          },
        ),
      );
      expect(res.status).toBe(201);
      const result = await copyDatabase(api.store, target);
      for (const [name, rows] of [
        ['varsets', 1],
        ['varset_variables', 1],
        ['varset_workspaces', 1],
        ['varset_projects', 1],
      ] as const)
        expect(result.tables).toContainEqual({ name, rows });
      // The copy holds the ciphertext, which the key of the source opens there.
      const stored = await target.db
        .selectFrom('varset_variables')
        .select(['value', 'sealed'])
        .executeTakeFirstOrThrow();
      expect(stored.sealed).toBe(1);
      expect(stored.value).not.toContain(SECRET);
      await attachSecretKey(target, TEST_KEY_SOURCE);
      expect(await appliedVarsets(target.db, f.web, (table, row) => runValue(target.db, table, row))).toEqual([
        {
          id: res.body.data.id,
          name: 'copied',
          priority: true,
          scope: 'workspace',
          variables: [{ key: 'K', value: SECRET, category: 'env', hcl: false, sensitive: true }],
        },
      ]);
    } finally {
      await target.close();
      await api.close();
    }
  });
});

describe('variable sets: cascades', () => {
  it('deleting a workspace, a project or the organization removes what refers to it', async () => {
    const api = await TestApi.create();
    try {
      const f = await accessFixture(api);
      const res = await api.post(
        '/api/v2/organizations/acme/varsets',
        setBody(
          { name: 'c' },
          {
            workspaces: refs('workspaces', [f.web]),
            projects: refs('projects', [f.beta]),
            vars: { data: [{ type: 'vars', attributes: { key: 'k', category: 'env' } }] },
          },
        ),
      );
      const id = res.body.data.id;
      expect((await api.delete(`/api/v2/workspaces/${f.web}`, { token: f.owner.token })).status).toBe(204);
      expect((await api.delete(`/api/v2/projects/${f.beta}`, { token: f.owner.token })).status).toBe(204);
      const shown = await api.get(`/api/v2/varsets/${id}`);
      expect(shown.body.data.attributes).toMatchObject({ 'workspace-count': 0, 'project-count': 0, 'var-count': 1 });
      expect((await api.request('DELETE', '/api/v2/organizations/acme', { token: f.owner.token })).status).toBe(204);
      const db = api.store.db;
      expect(await db.selectFrom('varsets').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('varset_variables').selectAll().execute()).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
