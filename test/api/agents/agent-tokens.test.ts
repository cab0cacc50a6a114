import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { createAgentPool } from '../../helpers/workspaces.js';

/** HCP Terraform's Agent Tokens and Agents APIs: who may see and manage a pool's tokens and agents. */

const P = '/api/v2';
const tokenBody = (description?: unknown) => ({
  data: { type: 'authentication-tokens', attributes: description === undefined ? {} : { description } },
});

describe('agent tokens', () => {
  let f: AccessFixture;
  let pool: string;
  let manager: { token: string };
  let member: { token: string };
  let stranger: string;

  beforeAll(async () => {
    f = await accessFixture(await TestApi.create());
    pool = await createAgentPool(f.api, 'acme', 'builders');
    manager = await teamMember(f, 'pool-managers', { 'manage-agent-pools': true });
    member = await teamMember(f, 'devs', { 'manage-workspaces': true });
    await f.api.createOrg('other');
    stranger = (await f.api.userToken('stranger')).token;
  });
  afterAll(() => f.api.close());

  it('creates a token shown once, lists, reads and deletes it', async () => {
    const created = await f.api.post(`${P}/agent-pools/${pool}/authentication-tokens`, tokenBody('rack 4'), {
      token: f.owner.token,
    });
    expect(created.status, created.text).toBe(201);
    const t = created.body.data;
    expect(t).toMatchObject({
      id: expect.stringMatching(/^at-[A-Za-z0-9]{16}$/),
      type: 'authentication-tokens',
      attributes: { description: 'rack 4', 'last-used-at': null, token: expect.stringMatching(/\S{20,}/) },
      relationships: {
        'created-by': { data: { type: 'users', id: f.owner.userId } },
        'agent-pool': { data: { type: 'agent-pools', id: pool } },
      },
      links: { self: `${P}/authentication-tokens/${t.id}` },
    });
    expect(t.attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const list = await f.api.get(`${P}/agent-pools/${pool}/authentication-tokens`, { token: f.owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: any) => [x.id, x.attributes.token])).toEqual([[t.id, null]]);
    expect(list.body.meta.pagination['total-count']).toBe(1);

    const read = await f.api.get(`${P}/authentication-tokens/${t.id}`, { token: f.owner.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual({ ...t, attributes: { ...t.attributes, token: null } });

    // The secret works on the agent protocol until the token is deleted.
    const register = () =>
      f.api.app.fetch(
        new Request('http://berth.test/api/agent/register', {
          method: 'POST',
          headers: { Authorization: `Bearer ${t.attributes.token}`, 'Content-Type': 'application/json' },
          body: '{}',
        }),
      );
    expect((await register()).status).toBe(201);
    expect((await f.api.delete(`${P}/authentication-tokens/${t.id}`, { token: f.owner.token })).status).toBe(204);
    // Both ends are in the organization's audit trail, naming the token by its description.
    const trail = await f.api.store.db
      .selectFrom('audit_events')
      .select(['action', 'target_type', 'target_id', 'target_name', 'organization_name'])
      .where('target_id', '=', t.id)
      .orderBy('seq')
      .execute();
    expect(trail).toEqual([
      {
        action: 'agent-token.create',
        target_type: 'authentication-tokens',
        target_id: t.id,
        target_name: 'rack 4',
        organization_name: 'acme',
      },
      {
        action: 'token.revoke',
        target_type: 'authentication-tokens',
        target_id: t.id,
        target_name: 'rack 4',
        organization_name: 'acme',
      },
    ]);
    expect((await f.api.get(`${P}/authentication-tokens/${t.id}`, { token: f.owner.token })).status).toBe(404);
    expect((await register()).status).toBe(401);
  });

  it('requires a description', async () => {
    for (const body of [tokenBody(), tokenBody(''), tokenBody(7)]) {
      const res = await f.api.post(`${P}/agent-pools/${pool}/authentication-tokens`, body, { token: f.owner.token });
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/description');
    }
    const long = await f.api.post(`${P}/agent-pools/${pool}/authentication-tokens`, tokenBody('x'.repeat(256)), {
      token: f.owner.token,
    });
    expect(long.status).toBe(422);
    const list = await f.api.get(`${P}/agent-pools/${pool}/authentication-tokens`, { token: f.owner.token });
    expect(list.body.data).toEqual([]);
  });

  it('lets those who manage agent pools in, and answers everyone else 404', async () => {
    const made = await f.api.post(`${P}/agent-pools/${pool}/authentication-tokens`, tokenBody('by manager'), {
      token: manager.token,
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    expect((await f.api.get(`${P}/agent-pools/${pool}/authentication-tokens`, { token: manager.token })).status).toBe(
      200,
    );
    expect((await f.api.get(`${P}/agent-pools/${pool}/agents`, { token: manager.token })).status).toBe(200);
    for (const token of [member.token, stranger]) {
      expect((await f.api.get(`${P}/agent-pools/${pool}/authentication-tokens`, { token })).status).toBe(404);
      expect(
        (await f.api.post(`${P}/agent-pools/${pool}/authentication-tokens`, tokenBody('no'), { token })).status,
      ).toBe(404);
      expect((await f.api.get(`${P}/authentication-tokens/${id}`, { token })).status).toBe(404);
      expect((await f.api.delete(`${P}/authentication-tokens/${id}`, { token })).status).toBe(404);
      expect((await f.api.get(`${P}/agent-pools/${pool}/agents`, { token })).status).toBe(404);
    }
    // Refused attempts changed nothing.
    const list = await f.api.get(`${P}/agent-pools/${pool}/authentication-tokens`, { token: manager.token });
    expect(list.body.data.map((x: any) => x.attributes.description)).toEqual(['by manager']);
    expect((await f.api.delete(`${P}/authentication-tokens/${id}`, { token: manager.token })).status).toBe(204);
  });

  it('answers 404 for an unknown pool, token or agent', async () => {
    const missing = 'apool-AAAAAAAAAAAAAAAA';
    expect((await f.api.get(`${P}/agent-pools/${missing}/authentication-tokens`)).status).toBe(404);
    expect((await f.api.post(`${P}/agent-pools/${missing}/authentication-tokens`, tokenBody('x'))).status).toBe(404);
    expect((await f.api.get(`${P}/agent-pools/${missing}/agents`)).status).toBe(404);
    expect((await f.api.get(`${P}/agents/agent-AAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await f.api.delete(`${P}/authentication-tokens/at-AAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('refuses a bad filter[last-ping-since]', async () => {
    const res = await f.api.get(`${P}/agent-pools/${pool}/agents?filter%5Blast-ping-since%5D=yesterday`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.parameter).toBe('filter[last-ping-since]');
  });

  it("deletes a pool's tokens and agents with it", async () => {
    const doomed = await createAgentPool(f.api, 'acme', 'doomed');
    const made = await f.api.post(`${P}/agent-pools/${doomed}/authentication-tokens`, tokenBody('t'), {
      token: f.owner.token,
    });
    const secret = made.body.data.attributes.token as string;
    const reg = await f.api.app.fetch(
      new Request('http://berth.test/api/agent/register', {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: '{"name":"x"}',
      }),
    );
    const agent = ((await reg.json()) as { id: string }).id;
    expect((await f.api.get(`${P}/agent-pools/${doomed}`)).body.data.attributes['agent-count']).toBe(1);
    expect((await f.api.delete(`${P}/agent-pools/${doomed}`, { token: f.owner.token })).status).toBe(204);
    expect((await f.api.get(`${P}/authentication-tokens/${made.body.data.id}`)).status).toBe(404);
    expect((await f.api.get(`${P}/agents/${agent}`)).status).toBe(404);
    const db = f.api.store.db;
    expect(await db.selectFrom('agents').select('id').where('id', '=', agent).execute()).toEqual([]);
  });

  it('leaves user tokens readable and revocable by id', async () => {
    const mine = await f.api.post(`${P}/users/${f.owner.userId}/authentication-tokens`, tokenBody('laptop'), {
      token: f.owner.token,
    });
    expect(mine.status, mine.text).toBe(201);
    const id = mine.body.data.id;
    expect(
      (await f.api.get(`${P}/authentication-tokens/${id}`, { token: f.owner.token })).body.data.attributes,
    ).toMatchObject({ description: 'laptop' });
    expect((await f.api.delete(`${P}/authentication-tokens/${id}`, { token: f.owner.token })).status).toBe(204);
  });
});
