import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, grantProject, teamMember, type AccessFixture } from '../../helpers/access.js';

/** What go-tfe and the tfe provider ask of variable sets beyond the basics (varsets.test.ts). */

const setBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
});
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });
const refs = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

describe('variable sets: go-tfe and provider compatibility', () => {
  let api: TestApi;
  let f: AccessFixture;
  let n = 0;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterAll(() => api.close());

  const create = async (relationships?: Record<string, unknown>) => {
    const res = await api.post('/api/v2/organizations/acme/varsets', setBody({ name: `set-${++n}` }, relationships), {
      token: f.owner.token,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const workspace = async (name: string) => {
    const res = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  it('accepts include=stacks (the provider reads with workspaces,stacks) and includes nothing for it', async () => {
    const id = await create({ workspaces: refs('workspaces', [f.web]) });
    for (const include of ['workspaces,stacks', 'workspaces,vars,stacks', 'stacks']) {
      const res = await api.get(`/api/v2/varsets/${id}?include=${include}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.relationships.stacks).toEqual({ data: [] });
      expect((res.body.included ?? []).filter((r: any) => r.type === 'stacks')).toEqual([]);
    }
    const list = await api.get('/api/v2/organizations/acme/varsets?include=workspaces,stacks');
    expect(list.status, list.text).toBe(200);
    expect((await api.get(`/api/v2/varsets/${id}?include=stackz`)).status).toBe(400);
  });

  it('gives each variable a version-id that changes on every update, even one that changes nothing', async () => {
    const id = await create();
    const made = await api.post(
      `/api/v2/varsets/${id}/relationships/vars`,
      varBody({ key: 'region', value: 'eu', category: 'terraform' }),
    );
    expect(made.status, made.text).toBe(201);
    const v1 = made.body.data.attributes['version-id'];
    expect(v1).toEqual(expect.stringMatching(/^[0-9a-f]{36}$/));
    const path = `/api/v2/varsets/${id}/relationships/vars/${made.body.data.id}`;
    expect((await api.get(path)).body.data.attributes['version-id']).toBe(v1);

    const changed = await api.patch(path, varBody({ value: 'us' }));
    expect(changed.status, changed.text).toBe(200);
    const v2 = changed.body.data.attributes['version-id'];
    expect(v2).toEqual(expect.stringMatching(/^[0-9a-f]{36}$/));
    expect(v2).not.toBe(v1);

    const same = await api.patch(path, varBody({}));
    expect(same.status, same.text).toBe(200);
    const v3 = same.body.data.attributes['version-id'];
    expect(v3).not.toBe(v2);
    expect(v3).not.toBe(v1);

    const listed = await api.get(`/api/v2/varsets/${id}/relationships/vars`);
    expect(listed.body.data[0].attributes['version-id']).toBe(v3);
    const included = await api.get(`/api/v2/varsets/${id}?include=vars`);
    expect(included.body.included[0].attributes['version-id']).toBe(v3);

    // Two variables made together get versions of their own.
    const both = await api.post(
      '/api/v2/organizations/acme/varsets',
      setBody(
        { name: `set-${++n}` },
        {
          vars: {
            data: [
              { type: 'vars', attributes: { key: 'a', value: '1', category: 'terraform' } },
              { type: 'vars', attributes: { key: 'b', value: '2', category: 'terraform' } },
            ],
          },
        },
      ),
    );
    const vars = (await api.get(`/api/v2/varsets/${both.body.data.id}/relationships/vars`)).body.data;
    expect(new Set(vars.map((v: any) => v.attributes['version-id'])).size).toBe(2);
  });

  it('includes the whole workspaces and projects a set applies to (the importer matches the workspace name)', async () => {
    const id = await create({ workspaces: refs('workspaces', [f.web]), projects: refs('projects', [f.beta]) });
    const shown = await api.get(`/api/v2/varsets/${id}?include=workspaces,projects`);
    expect(shown.status, shown.text).toBe(200);
    const ws = shown.body.included.filter((r: any) => r.type === 'workspaces');
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({
      id: f.web,
      attributes: { name: 'web' },
      links: { self: '/api/v2/organizations/acme/workspaces/web' },
    });
    expect(ws[0].relationships.project.data).toEqual({ id: f.alpha, type: 'projects' });
    const prj = shown.body.included.filter((r: any) => r.type === 'projects');
    expect(prj).toHaveLength(1);
    expect(prj[0]).toMatchObject({ id: f.beta, attributes: { name: 'Beta', 'is-default': false } });

    // In a list, a workspace that two sets apply to is included once.
    await create({ workspaces: refs('workspaces', [f.web]) });
    const list = await api.get(`/api/v2/organizations/acme/varsets?include=workspaces&page[size]=100`);
    expect(list.status, list.text).toBe(200);
    const listed = list.body.included.filter((r: any) => r.type === 'workspaces');
    expect(listed.map((r: any) => r.id)).toEqual([f.web]);
    expect(listed[0].attributes.name).toBe('web');
  });

  it('includes only the workspaces and projects the caller may read', async () => {
    const hidden = await workspace('hidden');
    const id = await create({
      workspaces: refs('workspaces', [f.web, hidden]),
      projects: refs('projects', [f.alpha, f.beta]),
    });
    // A reader of project Alpha reads the set (it applies to web, in Alpha), not Beta nor `hidden`.
    const reader = await teamMember(f, 'alpha-reader');
    await grantProject(f, reader.teamId, f.alpha, 'read');
    const res = await api.get(`/api/v2/varsets/${id}?include=workspaces,projects`, { token: reader.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.included.map((r: any) => [r.type, r.id])).toEqual([
      ['workspaces', f.web],
      ['projects', f.alpha],
    ]);
    // The owner sees them all.
    const all = await api.get(`/api/v2/varsets/${id}?include=workspaces,projects`, { token: f.owner.token });
    expect(all.body.included.map((r: any) => r.id).sort()).toEqual([f.web, hidden, f.alpha, f.beta].sort());
  });

  it('lists a set’s workspaces and projects in the order they were added', async () => {
    const ids = [await workspace('order-1'), await workspace('order-2'), await workspace('order-3')];
    const byId = [...ids].sort();
    // Added in reverse order of their ids: first in the create body, then one more.
    const reversed = [...byId].reverse();
    const id = await create({
      workspaces: refs('workspaces', reversed.slice(0, 2)),
      projects: refs('projects', [f.alpha, f.beta].sort().reverse()),
    });
    const added = await api.post(`/api/v2/varsets/${id}/relationships/workspaces`, refs('workspaces', [reversed[2]]));
    expect(added.status, added.text).toBe(204);
    const shown = await api.get(`/api/v2/varsets/${id}?include=workspaces`);
    expect(shown.body.data.relationships.workspaces.data.map((r: any) => r.id)).toEqual(reversed);
    expect(shown.body.included.map((r: any) => r.id)).toEqual(reversed);
    expect(shown.body.data.relationships.projects.data.map((r: any) => r.id)).toEqual(
      [f.alpha, f.beta].sort().reverse(),
    );
    // Removing one and adding it back puts it last.
    await api.delete(`/api/v2/varsets/${id}/relationships/workspaces`, { body: refs('workspaces', [reversed[0]]) });
    await api.post(`/api/v2/varsets/${id}/relationships/workspaces`, refs('workspaces', [reversed[0]]));
    const again = await api.get(`/api/v2/varsets/${id}`);
    expect(again.body.data.relationships.workspaces.data.map((r: any) => r.id)).toEqual([
      reversed[1],
      reversed[2],
      reversed[0],
    ]);
  });
});
