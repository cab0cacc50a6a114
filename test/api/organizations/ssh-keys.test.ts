import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';
import { goTfeAssignSshKey, goTfeUnassignSshKey } from '../../fixtures/go-tfe.js';

const SECRET = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
const keyBody = (attributes: Record<string, unknown>) => ({ data: { type: 'ssh-keys', attributes } });

describe('SSH keys and their assignment to workspaces', () => {
  let api: TestApi;
  let wsId: string;
  let keyId: string;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    wsId = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
  });
  afterAll(() => api.close());

  it('creates a key: 201, name only, the key text never comes back', async () => {
    const res = await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: 'deploy', value: SECRET }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'ssh-keys',
      attributes: { name: 'deploy' },
      links: { self: `/api/v2/ssh-keys/${res.body.data.id}` },
    });
    expect(res.body.data.id).toMatch(/^sshkey-[A-Za-z0-9]{16}$/);
    expect(res.text).not.toContain('OPENSSH');
    expect(res.body.data.attributes).not.toHaveProperty('value');
    keyId = res.body.data.id;
    for (const path of [`/api/v2/ssh-keys/${keyId}`, '/api/v2/organizations/acme/ssh-keys']) {
      const got = await api.get(path);
      expect(got.status).toBe(200);
      expect(got.text).not.toContain('OPENSSH');
    }
  });

  it('lists (paginated) and reads keys; another organization sees none of them', async () => {
    const list = await api.get('/api/v2/organizations/acme/ssh-keys');
    expect(list.body.data.map((k: any) => k.id)).toEqual([keyId]);
    expect(list.body.meta.pagination['total-count']).toBe(1);
    expect((await api.get('/api/v2/organizations/other/ssh-keys')).body.data).toEqual([]);
  });

  it('validates name and value (422 with pointers, nothing stored)', async () => {
    const before = await api.store.db.selectFrom('ssh_keys').selectAll().execute();
    const res = await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: '' }));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/name',
      '/data/attributes/value',
    ]);
    expect(await api.store.db.selectFrom('ssh_keys').selectAll().execute()).toEqual(before);
  });

  it('renames a key and replaces its text without returning it', async () => {
    const res = await api.patch(`/api/v2/ssh-keys/${keyId}`, keyBody({ name: 'deploy-2', value: `${SECRET}x` }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.name).toBe('deploy-2');
    expect(res.text).not.toContain('OPENSSH');
    const row = await api.store.db
      .selectFrom('ssh_keys')
      .select('value')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(row.value).toBe(`${SECRET}x`);
  });

  it('assigns with the go-tfe body: 200 with the workspace document showing the key', async () => {
    const res = await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeAssignSshKey(keyId));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(wsId);
    expect(res.body.data.relationships['ssh-key']).toEqual({
      data: { id: keyId, type: 'ssh-keys' },
      links: { related: `/api/v2/ssh-keys/${keyId}` },
    });
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.relationships['ssh-key'].data.id).toBe(keyId);
  });

  it('unassigns with the go-tfe body (attributes.id null)', async () => {
    const res = await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeUnassignSshKey);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships['ssh-key']).toEqual({ data: null });
  });

  it('accepts the spec body form too: {type: ssh-keys, id} and data null; by name as well', async () => {
    let res = await api.patch('/api/v2/organizations/acme/workspaces/app/relationships/ssh-key', {
      data: { type: 'ssh-keys', id: keyId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships['ssh-key'].data).toEqual({ id: keyId, type: 'ssh-keys' });
    res = await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, { data: null });
    expect(res.status).toBe(200);
    expect(res.body.data.relationships['ssh-key']).toEqual({ data: null });
  });

  it('an unknown key or a key of another organization is a 404, nothing changes', async () => {
    const foreign = (await api.post('/api/v2/organizations/other/ssh-keys', keyBody({ name: 'theirs', value: SECRET })))
      .body.data.id;
    for (const id of [foreign, 'sshkey-AAAAAAAAAAAAAAAA']) {
      const res = await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeAssignSshKey(id));
      expect(res.status).toBe(404);
    }
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.relationships['ssh-key']).toEqual({ data: null });
  });

  it('malformed bodies are 422; unknown workspace 404', async () => {
    expect(
      (await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, { data: { type: 'projects', id: 'x' } }))
        .status,
    ).toBe(422);
    expect(
      (
        await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, {
          data: { type: 'workspaces', attributes: {} },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, {
          data: { type: 'workspaces', attributes: { id: 5 } },
        })
      ).status,
    ).toBe(422);
    expect((await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, {})).status).toBe(422);
    expect(
      (await api.patch('/api/v2/workspaces/ws-AAAAAAAAAAAAAAAA/relationships/ssh-key', goTfeAssignSshKey(keyId)))
        .status,
    ).toBe(404);
  });

  it('admin permission on the workspace is required: readers 404, outsiders 404', async () => {
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const admin = await teamUser(api, 'acme', 'wsadmin', { manage_workspaces: 1 });
    expect(
      (await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeAssignSshKey(keyId), { token: reader }))
        .status,
    ).toBe(404);
    const outsider = (await api.userToken('outsider')).token;
    expect(
      (
        await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeAssignSshKey(keyId), {
          token: outsider,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.patch(`/api/v2/workspaces/${wsId}/relationships/ssh-key`, goTfeAssignSshKey(keyId), { token: admin }))
        .status,
    ).toBe(200);
    // Members read keys but only owners manage them.
    expect((await api.get(`/api/v2/ssh-keys/${keyId}`, { token: reader })).status).toBe(200);
    expect(
      (await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: 'x', value: 'y' }), { token: admin }))
        .status,
    ).toBe(404);
    expect((await api.delete(`/api/v2/ssh-keys/${keyId}`, { token: admin })).status).toBe(404);
    expect((await api.get(`/api/v2/ssh-keys/${keyId}`, { token: outsider })).status).toBe(404);
  });

  it('deleting a key unassigns it from its workspaces', async () => {
    const ws2 = (await createWorkspace(api, 'acme', { name: 'app2' })).body.data.id;
    await api.patch(`/api/v2/workspaces/${ws2}/relationships/ssh-key`, goTfeAssignSshKey(keyId));
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.relationships['ssh-key'].data.id).toBe(keyId);
    expect((await api.delete(`/api/v2/ssh-keys/${keyId}`)).status).toBe(204);
    for (const id of [wsId, ws2])
      expect((await api.get(`/api/v2/workspaces/${id}`)).body.data.relationships['ssh-key']).toEqual({ data: null });
    expect((await api.get(`/api/v2/ssh-keys/${keyId}`)).status).toBe(404);
  });
});
