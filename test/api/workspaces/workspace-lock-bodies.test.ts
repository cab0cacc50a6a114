import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

// A lock body is one of the shapes clients send; anything else is a 422 that locks nothing.
describe('lock request bodies', () => {
  let api: TestApi;
  let token: string;
  let count = 0;

  const workspace = async () => {
    const res = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: `lock-body-${++count}` } } },
      { token },
    );
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const locked = async (id: string) =>
    (await api.get(`/api/v2/workspaces/${id}`, { token })).body.data.attributes.locked as boolean;

  beforeAll(async () => {
    api = await TestApi.create();
    token = (await api.userToken('alice')).token;
    expect((await api.createOrg('acme', token)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('accepts no body, {reason}, and data of type "" or workspaces', async () => {
    for (const body of [
      undefined,
      { reason: 'docs' },
      { data: null },
      { data: { type: '' } },
      { data: { type: 'workspaces', attributes: { reason: 'typed' } } },
      { data: { type: '', attributes: { reason: 'go-tfe' } } },
    ]) {
      const id = await workspace();
      const res = await api.post(`/api/v2/workspaces/${id}/actions/lock`, body, { token });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await locked(id)).toBe(true);
    }
  });

  it('refuses a malformed data member with a 422 and leaves the workspace unlocked', async () => {
    const cases: [unknown, string][] = [
      [{ data: 5 }, '/data'],
      [{ data: 'x' }, '/data'],
      [{ data: [null] }, '/data'],
      [{ data: [] }, '/data'],
      [{ data: { type: 'projects' } }, '/data/type'],
      [{ data: { type: 5 } }, '/data/type'],
      [{ data: { type: '', attributes: 'x' } }, '/data/attributes'],
      [{ data: { type: '', attributes: { reason: 5 } } }, '/data/attributes/reason'],
    ];
    const id = await workspace();
    for (const [body, pointer] of cases) {
      const res = await api.post(`/api/v2/workspaces/${id}/actions/lock`, body, { token });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].source, JSON.stringify(body)).toEqual({ pointer });
    }
    expect(await locked(id)).toBe(false);
  });
});
