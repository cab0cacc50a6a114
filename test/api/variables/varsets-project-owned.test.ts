import { describe, expect, it } from 'vitest';
import type { TestApi } from '../../helpers/api.js';
import { eachWithAccessFixture, grantProject, teamMember, type AccessFixture } from '../../helpers/access.js';

/**
 * Project-owned variable sets (HCP Terraform's `relationships.parent` = a project; go-tfe's
 * `VariableSet.Parent`, the tfe provider's `parent_project_id`): created and read with their
 * parent, managed by the project's variable-set managers, applicable only within the project,
 * listed under it, and no longer applied to a workspace that moves out of it.
 */
const P = '/api/v2';
const refs = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });
const setBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
});
const ownedBy = (projectId: string) => ({ parent: { data: { type: 'projects', id: projectId } } });
const refusal = {
  status: '404',
  title: 'not found',
  detail: 'not found, or you are not authorized to manage variable sets',
};

describe('project-owned variable sets', () => {
  let api: TestApi;
  let f: AccessFixture;
  eachWithAccessFixture((a, fixture) => {
    api = a;
    f = fixture;
  });
  const owner = () => ({ token: f.owner.token });
  const create = (
    attributes: Record<string, unknown>,
    relationships?: Record<string, unknown>,
    token = f.owner.token,
  ) => api.post(`${P}/organizations/acme/varsets`, setBody(attributes, relationships), { token });
  const expect422 = (res: { status: number; text: string; body: any }, pointer: string, detail?: RegExp) => {
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].source).toEqual({ pointer });
    if (detail) expect(res.body.errors[0].detail).toMatch(detail);
  };
  const workspace = async (name: string, projectId: string) => {
    const res = await api.post(
      `${P}/organizations/acme/workspaces`,
      {
        data: {
          type: 'workspaces',
          attributes: { name },
          relationships: { project: { data: { type: 'projects', id: projectId } } },
        },
      },
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  it('create with parent = a project answers parent on create, read and lists; an organization-owned set answers its organization', async () => {
    // go-tfe sends the whole project object as the parent's data.
    const res = await create(
      { name: 'alpha-creds', global: false },
      { parent: { data: { type: 'projects', id: f.alpha, attributes: { name: 'Alpha' } } } },
    );
    expect(res.status, res.text).toBe(201);
    const parent = {
      data: { type: 'projects', id: f.alpha },
      links: { related: `${P}/projects/${f.alpha}` },
    };
    expect(res.body.data.relationships.parent).toEqual(parent);
    const id = res.body.data.id;
    expect((await api.get(`${P}/varsets/${id}`, owner())).body.data.relationships.parent).toEqual(parent);

    const orgSet = await create({ name: 'org-set' });
    expect(orgSet.status, orgSet.text).toBe(201);
    const orgParent = { data: { type: 'organizations', id: 'acme' }, links: { related: `${P}/organizations/acme` } };
    expect(orgSet.body.data.relationships.parent).toEqual(orgParent);
    // Naming the organization as the parent is the same as naming none.
    const explicit = await create(
      { name: 'org-explicit' },
      { parent: { data: { type: 'organizations', id: 'acme' } } },
    );
    expect(explicit.status, explicit.text).toBe(201);
    expect(explicit.body.data.relationships.parent).toEqual(orgParent);

    const list = await api.get(`${P}/organizations/acme/varsets`, owner());
    const parents = Object.fromEntries(
      list.body.data.map((s: any) => [s.attributes.name, s.relationships.parent.data]),
    );
    expect(parents).toEqual({
      'alpha-creds': { type: 'projects', id: f.alpha },
      'org-explicit': { type: 'organizations', id: 'acme' },
      'org-set': { type: 'organizations', id: 'acme' },
    });
  });

  it('refuses a global project-owned set, an unknown project, another organization, and changing the parent', async () => {
    expect422(
      await create({ name: 'g', global: true }, ownedBy(f.alpha)),
      '/data/attributes/global',
      /cannot be global/,
    );
    expect422(
      await create({ name: 'u' }, ownedBy('prj-AAAAAAAAAAAAAAAA')),
      '/data/relationships/parent/data/id',
      /project prj-AAAAAAAAAAAAAAAA not found/,
    );
    expect422(
      await create({ name: 'o' }, { parent: { data: { type: 'organizations', id: 'other' } } }),
      '/data/relationships/parent/data/id',
    );
    expect422(
      await create({ name: 't' }, { parent: { data: { type: 'teams', id: 'team-x' } } }),
      '/data/relationships/parent/data/type',
    );
    const id = (await create({ name: 'owned' }, ownedBy(f.alpha))).body.data.id;
    expect422(await api.patch(`${P}/varsets/${id}`, setBody({ global: true }), owner()), '/data/attributes/global');
    expect422(
      await api.patch(`${P}/varsets/${id}`, setBody({}, ownedBy(f.beta)), owner()),
      '/data/relationships/parent',
    );
    expect422(
      await api.patch(
        `${P}/varsets/${id}`,
        setBody({}, { parent: { data: { type: 'organizations', id: 'acme' } } }),
        owner(),
      ),
      '/data/relationships/parent',
    );
    // The same parent again changes nothing.
    const same = await api.patch(`${P}/varsets/${id}`, setBody({ description: 'd' }, ownedBy(f.alpha)), owner());
    expect(same.status, same.text).toBe(200);
    expect(same.body.data.relationships.parent.data).toEqual({ type: 'projects', id: f.alpha });
    // An organization-owned set does not become a project's.
    const org = (await create({ name: 'orgs' })).body.data.id;
    expect422(
      await api.patch(`${P}/varsets/${org}`, setBody({}, ownedBy(f.alpha)), owner()),
      '/data/relationships/parent',
    );
  });

  it('applies only to its project and the workspaces in it (422 elsewhere)', async () => {
    const betaWs = await workspace('api', f.beta);
    expect422(
      await create({ name: 'c1' }, { ...ownedBy(f.alpha), workspaces: refs('workspaces', [betaWs]) }),
      '/data/relationships/workspaces',
      /applies only to its workspaces/,
    );
    expect422(
      await create({ name: 'c2' }, { ...ownedBy(f.alpha), projects: refs('projects', [f.beta]) }),
      '/data/relationships/projects',
    );
    const made = await create(
      { name: 'c3' },
      { ...ownedBy(f.alpha), workspaces: refs('workspaces', [f.web]), projects: refs('projects', [f.alpha]) },
    );
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    expect422(
      await api.post(`${P}/varsets/${id}/relationships/workspaces`, refs('workspaces', [betaWs]), owner()),
      '/data',
    );
    expect422(
      await api.post(`${P}/varsets/${id}/relationships/projects`, refs('projects', [f.beta]), owner()),
      '/data',
    );
    expect422(
      await api.patch(`${P}/varsets/${id}`, setBody({}, { workspaces: refs('workspaces', [f.web, betaWs]) }), owner()),
      '/data/relationships/workspaces',
    );
    const read = await api.get(`${P}/varsets/${id}`, owner());
    expect(read.body.data.relationships.workspaces.data).toEqual([{ type: 'workspaces', id: f.web }]);
    expect(read.body.data.relationships.projects.data).toEqual([{ type: 'projects', id: f.alpha }]);
  });

  it('GET /projects/:id/varsets lists the sets the project owns, applied or not; other projects do not', async () => {
    const owned = (await create({ name: 'owned-unapplied' }, ownedBy(f.alpha))).body.data.id;
    await create({ name: 'everywhere', global: true });
    await create({ name: 'loose' });
    const names = async (projectId: string) =>
      (await api.get(`${P}/projects/${projectId}/varsets`, owner())).body.data.map((s: any) => s.attributes.name);
    expect(await names(f.alpha)).toEqual(['everywhere', 'owned-unapplied']);
    expect(await names(f.beta)).toEqual(['everywhere']);
    expect(owned).toMatch(/^varset-/);
  });

  it('project admins manage the sets their project owns, and only those', async () => {
    const admin = await teamMember(f, 'alpha-admins');
    await grantProject(f, admin.teamId, f.alpha, 'admin');
    const mine = await create({ name: 'by-admin' }, ownedBy(f.alpha), admin.token);
    expect(mine.status, mine.text).toBe(201);
    const id = mine.body.data.id;
    const t = { token: admin.token };
    expect((await api.patch(`${P}/varsets/${id}`, setBody({ description: 'x' }), t)).status).toBe(200);
    const v = await api.post(
      `${P}/varsets/${id}/relationships/vars`,
      { data: { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } } },
      t,
    );
    expect(v.status, v.text).toBe(201);
    expect((await api.post(`${P}/varsets/${id}/relationships/workspaces`, refs('workspaces', [f.web]), t)).status).toBe(
      204,
    );
    const listed = await api.get(`${P}/organizations/acme/varsets`, t);
    expect(listed.body.data.map((s: any) => s.attributes.name)).toContain('by-admin');
    // Not an organization-owned set, nor one of another project.
    for (const res of [
      await create({ name: 'org' }, undefined, admin.token),
      await create({ name: 'b' }, ownedBy(f.beta), admin.token),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors[0]).toMatchObject(refusal);
    }
    const orgSet = (await create({ name: 'org-owned', global: false }, { projects: refs('projects', [f.alpha]) })).body
      .data.id;
    const patched = await api.patch(`${P}/varsets/${orgSet}`, setBody({ description: 'no' }), t);
    expect(patched.status).toBe(404);
    expect(patched.body.errors[0]).toMatchObject(refusal);
    expect((await api.delete(`${P}/varsets/${id}`, t)).status).toBe(204);
  });

  it('custom project access: variable-sets write manages, read reads; project readers see an owned set once it reaches them', async () => {
    const owned = (await create({ name: 'owned' }, ownedBy(f.alpha))).body.data.id;
    const writer = await teamMember(f, 'vs-writers');
    await grantProject(f, writer.teamId, f.alpha, 'custom', { 'project-access': { 'variable-sets': 'write' } });
    expect(
      (await api.patch(`${P}/varsets/${owned}`, setBody({ description: 'w' }), { token: writer.token })).status,
    ).toBe(200);
    const reader = await teamMember(f, 'vs-readers');
    await grantProject(f, reader.teamId, f.alpha, 'custom', { 'project-access': { 'variable-sets': 'read' } });
    expect((await api.get(`${P}/varsets/${owned}`, { token: reader.token })).status).toBe(200);
    const names = async (token: string, path: string) =>
      (await api.get(`${P}${path}`, { token })).body.data.map((s: any) => s.attributes.name);
    expect(await names(reader.token, '/organizations/acme/varsets')).toEqual(['owned']);
    expect(await names(reader.token, `/projects/${f.alpha}/varsets`)).toEqual(['owned']);
    const refused = await api.patch(`${P}/varsets/${owned}`, setBody({ description: 'r' }), { token: reader.token });
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0]).toMatchObject(refusal);

    // A project reader (variables read, variable-sets none) does not see an owned set until it applies to the project.
    const plain = await teamMember(f, 'alpha-readers');
    await grantProject(f, plain.teamId, f.alpha, 'read');
    expect((await api.get(`${P}/varsets/${owned}`, { token: plain.token })).status).toBe(404);
    expect(await names(plain.token, `/projects/${f.alpha}/varsets`)).toEqual([]);
    expect(
      (await api.post(`${P}/varsets/${owned}/relationships/projects`, refs('projects', [f.alpha]), owner())).status,
    ).toBe(204);
    expect((await api.get(`${P}/varsets/${owned}`, { token: plain.token })).status).toBe(200);
    expect(await names(plain.token, `/projects/${f.alpha}/varsets`)).toEqual(['owned']);
  });

  it('a workspace moved out of the project no longer gets the set (taken off it), by either way of moving', async () => {
    const second = await workspace('worker', f.alpha);
    const made = await create(
      { name: 'alpha-only' },
      { ...ownedBy(f.alpha), workspaces: refs('workspaces', [f.web, second]) },
    );
    const id = made.body.data.id;
    const orgSet = (await create({ name: 'org-wide' }, { workspaces: refs('workspaces', [f.web]) })).body.data.id;
    const v = await api.post(
      `${P}/varsets/${id}/relationships/vars`,
      { data: { type: 'vars', attributes: { key: 'ALPHA_ONLY', value: 'yes', category: 'env' } } },
      owner(),
    );
    expect(v.status, v.text).toBe(201);
    const keys = async (ws: string) =>
      (await api.get(`${P}/workspaces/${ws}/all-vars`, owner())).body.data.map((x: any) => x.attributes.key);
    expect(await keys(f.web)).toEqual(['ALPHA_ONLY']);

    // PATCH /workspaces/:id with another project.
    const moved = await api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: f.beta } } } } },
      owner(),
    );
    expect(moved.status, moved.text).toBe(200);
    // POST /projects/:id/relationships/workspaces.
    const moved2 = await api.post(
      `${P}/projects/${f.beta}/relationships/workspaces`,
      refs('workspaces', [second]),
      owner(),
    );
    expect(moved2.status, moved2.text).toBe(204);

    const read = await api.get(`${P}/varsets/${id}`, owner());
    expect(read.body.data.relationships.workspaces.data).toEqual([]);
    expect(await keys(f.web)).toEqual([]);
    expect(await keys(second)).toEqual([]);
    const listed = await api.get(`${P}/workspaces/${f.web}/varsets`, owner());
    expect(listed.body.data.map((s: any) => s.attributes.name)).toEqual(['org-wide']);
    // An organization-owned set keeps the workspace it was applied to.
    const org = await api.get(`${P}/varsets/${orgSet}`, owner());
    expect(org.body.data.relationships.workspaces.data).toEqual([{ type: 'workspaces', id: f.web }]);
    // Moving back does not apply it again.
    await api.post(`${P}/projects/${f.alpha}/relationships/workspaces`, refs('workspaces', [f.web]), owner());
    expect(await keys(f.web)).toEqual([]);
  });

  it('deleting the project deletes the sets it owns', async () => {
    const gamma = await api.post(
      `${P}/organizations/acme/projects`,
      { data: { type: 'projects', attributes: { name: 'Gamma' } } },
      owner(),
    );
    const id = (await create({ name: 'gamma-set' }, ownedBy(gamma.body.data.id))).body.data.id;
    expect((await api.delete(`${P}/projects/${gamma.body.data.id}`, owner())).status).toBe(204);
    expect((await api.get(`${P}/varsets/${id}`, owner())).status).toBe(404);
  });
});
