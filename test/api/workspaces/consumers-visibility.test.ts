import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import { joinOrganization } from '../../helpers/members.js';

/** Remote state consumer lists never show workspaces the caller cannot read (per-workspace access). */
describe('remote state consumers and per-workspace read access', () => {
  let api: TestApi;
  const ids: Record<string, string> = {};
  let reader: { userId: string; token: string };

  beforeAll(async () => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    reader = await api.userToken('rita');
    expect((await api.createOrg('acme')).status).toBe(201);
    for (const name of ['subject', 'visible', 'hidden']) {
      const res = await api.post('/api/v2/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name, 'global-remote-state': name === 'subject' } },
      });
      expect(res.status).toBe(201);
      ids[name] = res.body.data.id;
    }
    const team = await api.post('/api/v2/organizations/acme/teams', {
      data: { type: 'teams', attributes: { name: 'readers' } },
    });
    expect(team.status).toBe(201);
    await joinOrganization(api, 'acme', 'rita', reader.token);
    expect(
      (
        await api.post(`/api/v2/teams/${team.body.data.id}/relationships/users`, {
          data: [{ type: 'users', id: 'rita' }],
        })
      ).status,
    ).toBe(204);
    for (const name of ['subject', 'visible']) {
      const grant = await api.post('/api/v2/team-workspaces', {
        data: {
          type: 'team-workspaces',
          attributes: { access: 'read' },
          relationships: {
            team: { data: { type: 'teams', id: team.body.data.id } },
            workspace: { data: { type: 'workspaces', id: ids[name] } },
          },
        },
      });
      expect(grant.status).toBeLessThan(300);
    }
  });
  afterAll(() => api.close());

  it('with global-remote-state, lists every other workspace the caller can read, and only those', async () => {
    const asAdmin = await api.get(`/api/v2/workspaces/${ids.subject}/relationships/remote-state-consumers`);
    expect(asAdmin.body.data.map((w: any) => w.attributes.name).sort()).toEqual(['hidden', 'visible']);
    const asReader = await api.get(`/api/v2/workspaces/${ids.subject}/relationships/remote-state-consumers`, {
      token: reader.token,
    });
    expect(asReader.status).toBe(200);
    expect(asReader.body.data.map((w: any) => w.attributes.name)).toEqual(['visible']);
    expect(asReader.body.meta.pagination['total-count']).toBe(1);
    expect(asReader.text).not.toContain(ids.hidden);
  });

  it('a reader may not change the list (404)', async () => {
    const res = await api.post(
      `/api/v2/workspaces/${ids.visible}/relationships/remote-state-consumers`,
      { data: [{ type: 'workspaces', id: ids.subject }] },
      { token: reader.token },
    );
    expect(res.status).toBe(404);
  });
});

/**
 * "Consumers must be readable by the token": a workspace admin who cannot read a workspace can
 * neither add nor remove it as a consumer, and the answer is the one for an id that does not exist.
 */
describe('remote state consumers the caller cannot read', () => {
  let api: TestApi;
  const ids: Record<string, string> = {};
  let admin: { userId: string; token: string };
  const consumers = async () =>
    (await api.get(`/api/v2/workspaces/${ids.subject}/relationships/remote-state-consumers`)).body.data
      .map((w: any) => w.attributes.name)
      .sort();
  const change = (method: 'post' | 'delete', id: string) =>
    api.request(method.toUpperCase(), `/api/v2/workspaces/${ids.subject}/relationships/remote-state-consumers`, {
      body: { data: [{ type: 'workspaces', id }] },
      token: admin.token,
    });

  beforeAll(async () => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    admin = await api.userToken('wanda');
    expect((await api.createOrg('acme')).status).toBe(201);
    for (const name of ['subject', 'hidden', 'hidden-consumer']) {
      const res = await api.post('/api/v2/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name } },
      });
      ids[name] = res.body.data.id;
    }
    // hidden-consumer is already a consumer (added by the owner).
    const owner = await api.post(`/api/v2/workspaces/${ids.subject}/relationships/remote-state-consumers`, {
      data: [{ type: 'workspaces', id: ids['hidden-consumer'] }],
    });
    expect(owner.status).toBe(204);
    const team = await api.post('/api/v2/organizations/acme/teams', {
      data: { type: 'teams', attributes: { name: 'subject-admins' } },
    });
    await joinOrganization(api, 'acme', 'wanda', admin.token);
    const joined = await api.post(`/api/v2/teams/${team.body.data.id}/relationships/users`, {
      data: [{ type: 'users', id: 'wanda' }],
    });
    expect(joined.status, joined.text).toBe(204);
    const grant = await api.post('/api/v2/team-workspaces', {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'admin' },
        relationships: {
          team: { data: { type: 'teams', id: team.body.data.id } },
          workspace: { data: { type: 'workspaces', id: ids.subject } },
        },
      },
    });
    expect(grant.status).toBeLessThan(300);
    expect((await api.get(`/api/v2/workspaces/${ids.hidden}`, { token: admin.token })).status).toBe(404);
  });
  afterAll(() => api.close());

  it('adding or removing an unreadable workspace answers exactly as an unknown id, and changes nothing', async () => {
    const unknown = 'ws-AAAAAAAAAAAAAAAA';
    for (const method of ['post', 'delete'] as const) {
      const none = await change(method, unknown);
      expect(none.status, method).toBe(422);
      for (const id of [ids.hidden, ids['hidden-consumer']]) {
        const res = await change(method, id);
        expect(res.status, `${method} ${id}`).toBe(422);
        // The same error, but for the id itself.
        expect(JSON.stringify(res.body).replaceAll(id, unknown)).toBe(JSON.stringify(none.body));
      }
    }
    expect(await consumers()).toEqual(['hidden-consumer']);
  });
});
