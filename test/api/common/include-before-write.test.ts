import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/**
 * A write whose `include` parameter is invalid is a 400 that changes nothing: the parameter is
 * checked before the write, not when the answer is rendered after it (the fuzz test found a
 * PATCH that answered 400 with its change committed).
 */
describe('an invalid include refuses a write before it is made', () => {
  let api: TestApi;
  let wsId: string;
  const P = '/api/v2';

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('inc-org')).status).toBe(201);
    const made = await api.post(`${P}/organizations/inc-org/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'kept', description: 'before' } },
    });
    expect(made.status, made.text).toBe(201);
    wsId = made.body.data.id;
  });
  afterAll(() => api.close());

  const expectBadInclude = (res: { status: number; body: unknown; text: string }) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ status: '400', source: { parameter: 'include' } }] });
  };

  it('PATCH /workspaces/:id and by organization and name', async () => {
    for (const path of [`${P}/workspaces/${wsId}`, `${P}/organizations/inc-org/workspaces/kept`]) {
      const res = await api.patch(`${path}?include=bogus`, {
        data: { type: 'workspaces', attributes: { description: 'after' } },
      });
      expectBadInclude(res);
    }
    const shown = await api.get(`${P}/workspaces/${wsId}`);
    expect(shown.body.data.attributes.description).toBe('before');
  });

  it('POST /organizations/:org/workspaces', async () => {
    const res = await api.post(`${P}/organizations/inc-org/workspaces?include=bogus`, {
      data: { type: 'workspaces', attributes: { name: 'never-made' } },
    });
    expectBadInclude(res);
    expect((await api.get(`${P}/organizations/inc-org/workspaces/never-made`)).status).toBe(404);
  });

  it('a valid include is still answered after the write', async () => {
    const res = await api.patch(`${P}/workspaces/${wsId}?include=organization`, {
      data: { type: 'workspaces', attributes: { description: 'after' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.description).toBe('after');
    expect(res.body.included?.[0]?.type).toBe('organizations');
  });
});
