import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, grantProject, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { createOrganizationToken } from '../../helpers/org-token.js';

const SECRET = 'sensitive-value-never-shown';
const setBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
});
const refs = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });
const refusal = (action: string) => ({
  status: '404',
  title: 'not found',
  detail: `not found, or you are not authorized to ${action}`,
});

describe('who may manage and read variable sets', () => {
  let api: TestApi;
  let f: AccessFixture;
  let sets: { global: string; alpha: string; web: string; beta: string; loose: string };
  let manageWorkspaces: string;
  let manageProjects: string;
  let readWorkspaces: string;
  let alphaReader: string; // project Alpha, access read (reads variables of its workspaces)
  let webNoVars: string; // workspace web, custom access without variables
  let bystander: string; // a member of a team without any access
  let stranger: string; // no member of acme
  let orgToken: string;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    manageWorkspaces = (await teamMember(f, 'mw', { 'manage-workspaces': true })).token;
    manageProjects = (await teamMember(f, 'mp', { 'manage-projects': true })).token;
    readWorkspaces = (await teamMember(f, 'rw', { 'read-workspaces': true })).token;
    const reader = await teamMember(f, 'ar');
    await grantProject(f, reader.teamId, f.alpha, 'read');
    alphaReader = reader.token;
    const noVars = await teamMember(f, 'nv');
    await grantWorkspace(f, noVars.teamId, f.web, 'custom', { runs: 'read', variables: 'none' });
    webNoVars = noVars.token;
    bystander = (await teamMember(f, 'by')).token;
    stranger = (await api.userToken('stranger')).token;
    orgToken = await createOrganizationToken(api, 'acme');
    const make = async (name: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => {
      const res = await api.post(
        '/api/v2/organizations/acme/varsets',
        setBody({ name, ...attributes }, relationships),
        {
          token: f.owner.token,
        },
      );
      expect(res.status, res.text).toBe(201);
      await api.post(
        `/api/v2/varsets/${res.body.data.id}/relationships/vars`,
        varBody({ key: 'SECRET', value: SECRET, category: 'env', sensitive: true }),
        { token: f.owner.token },
      );
      return res.body.data.id as string;
    };
    sets = {
      global: await make('global', { global: true }),
      alpha: await make('alpha', {}, { projects: refs('projects', [f.alpha]) }),
      web: await make('web', {}, { workspaces: refs('workspaces', [f.web]) }),
      beta: await make('beta', {}, { projects: refs('projects', [f.beta]) }),
      loose: await make('loose', {}),
    };
  });
  afterAll(() => api.close());

  const listed = async (token: string) => {
    const res = await api.get('/api/v2/organizations/acme/varsets?page[size]=100', { token });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(SECRET);
    return res.body.data.map((d: any) => d.attributes.name).sort();
  };

  it('owners, the organization token, "manage workspaces" and "manage projects" manage every set', async () => {
    for (const [who, token] of [
      ['owner', f.owner.token],
      ['org token', orgToken],
      ['manage-workspaces', manageWorkspaces],
      ['manage-projects', manageProjects],
    ] as const) {
      const created = await api.post('/api/v2/organizations/acme/varsets', setBody({ name: `by-${who}` }), { token });
      expect(created.status, `${who}: ${created.text}`).toBe(201);
      const id = created.body.data.id;
      expect((await api.patch(`/api/v2/varsets/${id}`, setBody({ description: 'x' }), { token })).status).toBe(200);
      expect(
        (await api.post(`/api/v2/varsets/${id}/relationships/workspaces`, refs('workspaces', [f.web]), { token }))
          .status,
      ).toBe(204);
      const v = await api.post(`/api/v2/varsets/${id}/relationships/vars`, varBody({ key: 'k', category: 'env' }), {
        token,
      });
      expect(v.status).toBe(201);
      expect((await api.delete(`/api/v2/varsets/${id}`, { token })).status).toBe(204);
      expect(await listed(token)).toEqual(['alpha', 'beta', 'global', 'loose', 'web']);
    }
  });

  it('"read workspaces" reads every set and its variables (sensitive values null) but changes nothing', async () => {
    expect(await listed(readWorkspaces)).toEqual(['alpha', 'beta', 'global', 'loose', 'web']);
    const vars = await api.get(`/api/v2/varsets/${sets.beta}/relationships/vars`, { token: readWorkspaces });
    expect(vars.body.data[0].attributes).toMatchObject({ key: 'SECRET', value: null, sensitive: true });
    const token = readWorkspaces;
    const tries = [
      api.post('/api/v2/organizations/acme/varsets', setBody({ name: 'nope' }), { token }),
      api.patch(`/api/v2/varsets/${sets.beta}`, setBody({ name: 'renamed' }), { token }),
      api.delete(`/api/v2/varsets/${sets.beta}`, { token }),
      api.post(`/api/v2/varsets/${sets.beta}/relationships/workspaces`, refs('workspaces', [f.web]), { token }),
      api.post(`/api/v2/varsets/${sets.beta}/relationships/vars`, varBody({ key: 'k', category: 'env' }), { token }),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors[0]).toMatchObject(refusal('manage variable sets'));
    }
    expect(await listed(f.owner.token)).toEqual(['alpha', 'beta', 'global', 'loose', 'web']);
  });

  it('a project grant reads the sets that reach its workspaces; others are 404', async () => {
    expect(await listed(alphaReader)).toEqual(['alpha', 'global', 'web']);
    for (const id of [sets.global, sets.alpha, sets.web])
      expect((await api.get(`/api/v2/varsets/${id}`, { token: alphaReader })).status).toBe(200);
    for (const id of [sets.beta, sets.loose]) {
      const res = await api.get(`/api/v2/varsets/${id}`, { token: alphaReader });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].detail).toBe(`variable set ${id} not found`);
      expect((await api.get(`/api/v2/varsets/${id}/relationships/vars`, { token: alphaReader })).status).toBe(404);
    }
    const ws = await api.get(`/api/v2/workspaces/${f.web}/varsets`, { token: alphaReader });
    expect(ws.body.data.map((d: any) => d.attributes.name).sort()).toEqual(['alpha', 'global', 'web']);
    const prj = await api.get(`/api/v2/projects/${f.alpha}/varsets`, { token: alphaReader });
    expect(prj.body.data.map((d: any) => d.attributes.name).sort()).toEqual(['alpha', 'global']);
    expect((await api.get(`/api/v2/projects/${f.beta}/varsets`, { token: alphaReader })).status).toBe(404);
    const edit = await api.patch(`/api/v2/varsets/${sets.alpha}`, setBody({ name: 'x' }), { token: alphaReader });
    expect(edit.body.errors[0]).toMatchObject(refusal('manage variable sets'));
  });

  it('a workspace reader without variable access sees no set', async () => {
    expect(await listed(webNoVars)).toEqual([]);
    expect((await api.get(`/api/v2/varsets/${sets.global}`, { token: webNoVars })).status).toBe(404);
    const ws = await api.get(`/api/v2/workspaces/${f.web}/varsets`, { token: webNoVars });
    expect(ws.status).toBe(404);
    expect(ws.body.errors[0]).toMatchObject(refusal('read variables'));
  });

  it('a member without access sees none; a stranger gets 404 everywhere', async () => {
    expect(await listed(bystander)).toEqual([]);
    expect((await api.get(`/api/v2/varsets/${sets.global}`, { token: bystander })).status).toBe(404);
    expect((await api.get(`/api/v2/workspaces/${f.web}/varsets`, { token: bystander })).status).toBe(404);
    for (const path of [
      '/api/v2/organizations/acme/varsets',
      `/api/v2/varsets/${sets.global}`,
      `/api/v2/varsets/${sets.global}/relationships/vars`,
      `/api/v2/workspaces/${f.web}/varsets`,
      `/api/v2/projects/${f.alpha}/varsets`,
    ]) {
      expect((await api.get(path, { token: stranger })).status, path).toBe(404);
    }
    const post = await api.post('/api/v2/organizations/acme/varsets', setBody({ name: 'z' }), { token: stranger });
    expect(post.status).toBe(404);
    expect((await api.delete(`/api/v2/varsets/${sets.global}`, { token: stranger })).status).toBe(404);
    expect(await listed(f.owner.token)).toContain('global');
  });
});
