import { describe, expect, it } from 'vitest';
import { eachWithAccessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import type { TestApi } from '../../helpers/api.js';

/**
 * Who may read and change a workspace's variables (HCP Terraform's workspace permissions): team
 * access `read` and `plan` read them, `write` and `admin` change them, custom `variables`
 * none/read/write says so; owners and the organization token do anything. A caller that cannot
 * read the workspace gets the 404 of an unknown one; one that may read it but not its variables
 * (or not change them) gets berth's not-authorized 404. Nothing changes on a refusal.
 */

const P = '/api/v2';
const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

describe('workspace variable permissions', () => {
  let api: TestApi;
  let f: AccessFixture;
  eachWithAccessFixture((a, fixture) => {
    api = a;
    f = fixture;
  });
  const vars = () => `${P}/workspaces/${f.web}/vars`;

  /** A variable made by the owner, and what a caller with `token` may do with it. */
  async function abilities(token: string) {
    const made = await api.post(vars(), varBody({ key: 'k', value: 'v', category: 'terraform' }), {
      token: f.owner.token,
    });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    const list = await api.get(vars(), { token });
    const one = await api.get(`${vars()}/${id}`, { token });
    const old = await api.get(`${P}/vars?filter[organization][name]=acme&filter[workspace][name]=web`, { token });
    const create = await api.post(vars(), varBody({ key: 'new', category: 'env' }), { token });
    const update = await api.patch(`${vars()}/${id}`, varBody({ value: 'changed' }), { token });
    const updateOld = await api.patch(`${P}/vars/${id}`, varBody({ value: 'changed-again' }), { token });
    const ws = await api.get(`${P}/workspaces/${f.web}`, { token });
    const remove = await api.delete(`${vars()}/${id}`, { token });
    const left = await api.store.db.selectFrom('workspace_variables').selectAll().execute();
    await api.store.db.deleteFrom('workspace_variables').execute();
    return {
      read: [list.status, one.status, old.status],
      write: [create.status, update.status, updateOld.status, remove.status],
      left: left.map((r) => `${r.key}=${r.value}`),
      canRead: ws.body?.data?.attributes?.permissions?.['can-read-variable'],
      canUpdate: ws.body?.data?.attributes?.permissions?.['can-update-variable'],
      detail: update.body?.errors?.[0]?.detail as string | undefined,
    };
  }

  const READ_ONLY = {
    read: [200, 200, 200],
    write: [404, 404, 404, 404],
    left: ['k=v'],
    canRead: true,
    canUpdate: false,
  };
  const WRITE = { read: [200, 200, 200], write: [201, 200, 200, 204], left: ['new='], canRead: true, canUpdate: true };
  const NONE = { read: [404, 404, 404], write: [404, 404, 404, 404], left: ['k=v'], canRead: false, canUpdate: false };

  it('owners and the organization token read and change them', async () => {
    expect(await abilities(f.owner.token)).toMatchObject(WRITE);
    const orgToken = await api.post(`${P}/organizations/acme/authentication-token`, undefined, {
      token: f.owner.token,
    });
    expect(orgToken.status, orgToken.text).toBe(201);
    expect(await abilities(orgToken.body.data.attributes.token)).toMatchObject(WRITE);
  });

  it.each([
    ['read', READ_ONLY],
    ['plan', READ_ONLY],
    ['write', WRITE],
    ['admin', WRITE],
  ])('team access %s', async (access, expected) => {
    const m = await teamMember(f, `t-${access}`);
    await grantWorkspace(f, m.teamId, f.web, access);
    expect(await abilities(m.token)).toMatchObject(expected);
  });

  it.each([
    ['none', { ...NONE, read: [404, 404, 404] }],
    ['read', READ_ONLY],
    ['write', WRITE],
  ])('custom variables %s', async (variables, expected) => {
    const m = await teamMember(f, `c-${variables}`);
    await grantWorkspace(f, m.teamId, f.web, 'custom', { variables });
    const got = await abilities(m.token);
    expect(got).toMatchObject({ ...expected, canRead: variables !== 'none' });
    if (variables === 'none')
      expect(got.detail).toMatch(/not authorized to (read|change) the variables of workspace web/);
  });

  it('organization-level "read workspaces" reads them; "manage workspaces" changes them', async () => {
    const reader = await teamMember(f, 'readers', { 'read-workspaces': true });
    expect(await abilities(reader.token)).toMatchObject(READ_ONLY);
    const manager = await teamMember(f, 'managers', { 'manage-workspaces': true });
    expect(await abilities(manager.token)).toMatchObject(WRITE);
  });

  it('a member without access to the workspace, and a user of another organization, get the 404 of an unknown workspace', async () => {
    const m = await teamMember(f, 'nobody');
    const got = await abilities(m.token);
    expect(got).toMatchObject({ read: [404, 404, 404], write: [404, 404, 404, 404], left: ['k=v'] });
    const stranger = await api.userToken('stranger');
    expect((await api.createOrg('other', stranger.token)).status).toBe(201);
    const s = await abilities(stranger.token);
    expect(s).toMatchObject({ read: [404, 404, 404], write: [404, 404, 404, 404], left: ['k=v'] });
    // The 404 names the workspace as unknown, not the variables as forbidden.
    const res = await api.get(vars(), { token: stranger.token });
    expect(res.body.errors[0].detail).toMatch(/workspace .* not found/);
  });
});
