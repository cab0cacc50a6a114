import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';

const P = '/api/v2';
const tokenBody = (attributes: Record<string, unknown>) => ({ data: { type: 'authentication-tokens', attributes } });

describe('organization and audit trail tokens', () => {
  let api: TestApi;
  let f: AccessFixture;
  let owner: string;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    owner = f.owner.token;
  });
  afterAll(() => api.close());

  it("creates, reads and deletes the organization token with go-tfe's shape (expired-at, created-by)", async () => {
    const expiry = new Date(Date.now() + 86_400_000);
    expiry.setUTCMilliseconds(0);
    const made = await api.post(
      `${P}/organizations/acme/authentication-token`,
      tokenBody({ 'expired-at': expiry.toISOString().replace('.000Z', 'Z') }),
      { token: owner },
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      type: 'authentication-tokens',
      attributes: { token: expect.stringMatching(/^berth\./), 'expired-at': expiry.toISOString() },
      relationships: {
        'created-by': { data: { type: 'users', id: f.owner.userId } },
        organization: { data: { type: 'organizations', id: 'acme' } },
      },
    });
    const read = await api.get(`${P}/organizations/acme/authentication-token`, { token: owner });
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(made.body.data.id);
    expect(read.body.data.attributes.token).toBeNull();
    expect(read.body.data.attributes['expired-at']).toBe(expiry.toISOString());
    // The organization token acts in its organization; it cannot read or replace itself.
    const secret = made.body.data.attributes.token;
    expect((await api.get(`${P}/organizations/acme/projects`, { token: secret })).status).toBe(200);
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: secret })).status).toBe(404);
    expect((await api.delete(`${P}/organizations/acme/authentication-token`, { token: owner })).status).toBe(204);
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: owner })).status).toBe(404);
    expect((await api.delete(`${P}/organizations/acme/authentication-token`, { token: owner })).status).toBe(404);
  });

  it("a site administrator's token is a user's: the admin user is recorded as the creator", async () => {
    const made = await api.post(`${P}/organizations/acme/authentication-token`);
    expect(made.status).toBe(201);
    const admin = await api.get(`${P}/account/details`);
    expect(made.body.data.relationships['created-by'].data).toEqual({ type: 'users', id: admin.body.data.id });
    expect((await api.delete(`${P}/organizations/acme/authentication-token`)).status).toBe(204);
  });

  it('keeps the audit trail token apart (?token=audit-trails); it reads the audit trail and nothing else', async () => {
    const org = (await api.post(`${P}/organizations/acme/authentication-token`, undefined, { token: owner })).body.data;
    const audit = await api.post(`${P}/organizations/acme/authentication-token?token=audit-trails`, undefined, {
      token: owner,
    });
    expect(audit.status).toBe(201);
    expect(audit.body.data.attributes.kind).toBe('audit-trails');
    expect(audit.body.data.id).not.toBe(org.id);
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: owner })).body.data.id).toBe(org.id);
    expect(
      (await api.get(`${P}/organizations/acme/authentication-token?token=audit-trails`, { token: owner })).body.data.id,
    ).toBe(audit.body.data.id);
    expect((await api.get(`${P}/organizations/acme/authentication-token?token=other`, { token: owner })).status).toBe(
      400,
    );

    const secret = audit.body.data.attributes.token;
    expect((await api.get(`${P}/organizations/acme/audit-trail`, { token: secret })).status).toBe(200);
    for (const path of [
      '/organizations/acme',
      '/organizations/acme/projects',
      '/organizations/acme/workspaces',
      '/organizations/acme/teams',
      `/workspaces/${f.web}`,
    ]) {
      expect((await api.get(`${P}${path}`, { token: secret })).status, path).toBe(404);
    }
    expect((await api.get(`${P}/organizations`, { token: secret })).body.data.map((o: any) => o.id)).toEqual(['acme']);
    const write = await api.post(
      `${P}/organizations/acme/projects`,
      { data: { type: 'projects', attributes: { name: 'Nope' } } },
      { token: secret },
    );
    expect(write.status).toBe(404);
    // Another organization's audit trail is unknown to it.
    const other = await api.userToken('elsewhere-owner');
    await api.createOrg('elsewhere', other.token);
    expect((await api.get(`${P}/organizations/elsewhere/audit-trail`, { token: secret })).status).toBe(404);

    // Deleting it by type leaves the organization token.
    expect(
      (await api.delete(`${P}/organizations/acme/authentication-token?token=audit-trails`, { token: owner })).status,
    ).toBe(204);
    expect((await api.get(`${P}/organizations/acme/audit-trail`, { token: secret })).status).toBe(401);
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: owner })).status).toBe(200);
  });

  it('only owners manage them: 404 for members, 404 for outsiders', async () => {
    const member = await teamMember(f, 'members');
    expect(
      (await api.post(`${P}/organizations/acme/authentication-token`, undefined, { token: member.token })).status,
    ).toBe(404);
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: member.token })).status).toBe(404);
    const outsider = await api.userToken('outsider');
    expect((await api.get(`${P}/organizations/acme/authentication-token`, { token: outsider.token })).status).toBe(404);
  });
});
