import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/common/ids.js';
import { TestApi } from '../../helpers/api.js';
import { bindings, createWorkspace, orgId, teamUser } from '../../helpers/workspaces.js';
import { workspaceSeq } from '../../../src/services/workspaces/workspace-seq.js';

const LOCKED = 'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted';
const MANAGING = 'workspace cannot be safely deleted because it is still managing resources';

describe('workspace delete: safe and force, by id and by name', () => {
  let api: TestApi;
  const forms = [
    ['by id', (ws: any) => `/api/v2/workspaces/${ws.id}`],
    ['by name', (ws: any) => `/api/v2/organizations/acme/workspaces/${ws.attributes.name}`],
  ] as const;
  let counter = 0;
  const fresh = async (extra: Record<string, unknown> = {}) =>
    (
      await createWorkspace(
        api,
        'acme',
        { name: `del-${counter++}`, ...extra },
        { 'tag-bindings': bindings({ a: '1' }) },
      )
    ).body.data;
  const exists = async (id: string) =>
    (await api.store.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
  });
  afterAll(() => api.close());

  describe.each(forms)('%s', (_, path) => {
    it('safe delete: 204 without a body, and everything belonging to it is gone', async () => {
      const ws = await fresh();
      const tag = await api.store.db
        .insertInto('tags')
        .values({
          id: newId('tag'),
          organization_id: await orgId(api, 'acme'),
          name: `t${counter}`,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await api.store.db
        .insertInto('workspace_tags')
        .values({ workspace_id: ws.id, workspace_seq: workspaceSeq(api.store.db, ws.id), tag_id: tag.id })
        .execute();
      const res = await api.post(`${path(ws)}/actions/safe-delete`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await exists(ws.id)).toBe(false);
      expect(
        await api.store.db.selectFrom('workspace_tag_bindings').selectAll().where('workspace_id', '=', ws.id).execute(),
      ).toEqual([]);
      expect(
        await api.store.db.selectFrom('workspace_tags').selectAll().where('workspace_id', '=', ws.id).execute(),
      ).toEqual([]);
      expect((await api.get(path(ws))).status).toBe(404);
      expect((await api.post(`${path(ws)}/actions/safe-delete`)).status).toBe(404);
    });

    it('safe delete: 409 while locked, with the go-tfe detail', async () => {
      const ws = await fresh();
      await api.store.db
        .updateTable('workspaces')
        .set({
          locked: 1,
          locked_reason: 'deploying',
          locked_by_kind: 'users',
          locked_by_id: 'user-AAAAAAAAAAAAAAAA',
          locked_at: new Date().toISOString(),
        })
        .where('id', '=', ws.id)
        .execute();
      const read = await api.get(path(ws));
      expect(read.body.data.attributes).toMatchObject({
        locked: true,
        'locked-reason': 'deploying',
        actions: { 'is-destroyable': false },
      });
      expect(read.body.data.relationships['locked-by']).toEqual({
        data: { id: 'user-AAAAAAAAAAAAAAAA', type: 'users' },
        links: { related: '/api/v2/users/user-AAAAAAAAAAAAAAAA' },
      });
      const res = await api.post(`${path(ws)}/actions/safe-delete`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ errors: [{ status: '409', title: 'conflict', detail: LOCKED }] });
      expect(await exists(ws.id)).toBe(true);
    });

    it('safe delete: 409 while it manages resources; force delete removes it anyway', async () => {
      const ws = await fresh();
      await api.store.db.updateTable('workspaces').set({ resource_count: 3 }).where('id', '=', ws.id).execute();
      expect((await api.get(path(ws))).body.data.attributes).toMatchObject({
        'resource-count': 3,
        actions: { 'is-destroyable': false },
      });
      const res = await api.post(`${path(ws)}/actions/safe-delete`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ errors: [{ status: '409', title: 'conflict', detail: MANAGING }] });
      expect(res.body.errors[0].detail).not.toContain('locked');
      expect(await exists(ws.id)).toBe(true);
      const force = await api.delete(path(ws));
      expect(force.status).toBe(204);
      expect(force.text).toBe('');
      expect(await exists(ws.id)).toBe(false);
      expect((await api.delete(path(ws))).status).toBe(404);
    });
  });

  describe('who may', () => {
    let owner: string;
    let admin: string;
    let reader: string;
    let outsider: string;
    let orgToken: string;
    beforeAll(async () => {
      owner = await teamUser(api, 'acme', 'owner', { is_owners: 1 });
      admin = await teamUser(api, 'acme', 'wsadmin', { manage_workspaces: 1 });
      reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
      outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
      const { createOrganizationToken } = await import('../../helpers/org-token.js');
      orgToken = await createOrganizationToken(api, 'acme');
    });
    const setAllow = (allow: boolean) =>
      api.patch('/api/v2/organizations/acme', {
        data: { type: 'organizations', attributes: { 'allow-force-delete-workspaces': allow } },
      });

    it('force delete: owners and organization tokens always', async () => {
      await setAllow(false);
      for (const token of [owner, orgToken]) {
        const ws = await fresh();
        expect(
          (await api.get(`/api/v2/workspaces/${ws.id}`, { token })).body.data.attributes.permissions[
            'can-force-delete'
          ],
        ).toBe(true);
        expect((await api.delete(`/api/v2/workspaces/${ws.id}`, { token })).status).toBe(204);
      }
    });

    it('force delete: workspace admins only when the organization allows it (403 otherwise, nothing deleted)', async () => {
      await setAllow(false);
      const ws = await fresh();
      expect(
        (await api.get(`/api/v2/workspaces/${ws.id}`, { token: admin })).body.data.attributes.permissions[
          'can-force-delete'
        ],
      ).toBe(false);
      const denied = await api.delete(`/api/v2/organizations/acme/workspaces/${ws.attributes.name}`, { token: admin });
      expect(denied.status).toBe(403);
      expect(denied.body.errors[0]).toMatchObject({ status: '403', title: 'forbidden' });
      expect(await exists(ws.id)).toBe(true);
      await setAllow(true);
      expect(
        (await api.get(`/api/v2/workspaces/${ws.id}`, { token: admin })).body.data.attributes.permissions[
          'can-force-delete'
        ],
      ).toBe(true);
      expect((await api.delete(`/api/v2/workspaces/${ws.id}`, { token: admin })).status).toBe(204);
      await setAllow(false);
    });

    it('force delete: readers get 403 even when allowed; non-members 404', async () => {
      await setAllow(true);
      const ws = await fresh();
      expect((await api.delete(`/api/v2/workspaces/${ws.id}`, { token: reader })).status).toBe(403);
      expect((await api.delete(`/api/v2/workspaces/${ws.id}`, { token: outsider })).status).toBe(404);
      expect(await exists(ws.id)).toBe(true);
      await setAllow(false);
    });

    it('safe delete: workspace admins may; readers and non-members get 404', async () => {
      const ws = await fresh();
      expect(
        (await api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`, undefined, { token: reader })).status,
      ).toBe(404);
      expect(
        (await api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`, undefined, { token: outsider })).status,
      ).toBe(404);
      expect(await exists(ws.id)).toBe(true);
      expect(
        (await api.post(`/api/v2/workspaces/${ws.id}/actions/safe-delete`, undefined, { token: admin })).status,
      ).toBe(204);
    });
  });
});
