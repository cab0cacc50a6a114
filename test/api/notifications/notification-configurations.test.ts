import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { TestApi } from '../../helpers/api.js';
import { joinOrganization } from '../../helpers/members.js';
import { NotificationReceiver } from '../../helpers/notification-receiver.js';

/**
 * The Notification Configurations API as go-tfe's TestNotificationConfiguration* and the tfe
 * provider's tfe_notification_configuration tests use it: documents, lists (paged only when
 * asked), verification on enabling (to a receiving server, as TFC_RUN_TASK_URL), the 422s.
 */
describe('notification configurations', () => {
  let api: TestApi;
  let receiver: NotificationReceiver;
  let ws: string;
  let n = 0;
  let member: { userId: string; token: string };

  const body = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
    data: { type: 'notification-configurations', attributes, ...(relationships ? { relationships } : {}) },
  });
  const create = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>, on = ws) =>
    api.post(`/api/v2/workspaces/${on}/notification-configurations`, body(attributes, relationships));
  const generic = (extra: Record<string, unknown> = {}) => ({
    'destination-type': 'generic',
    enabled: false,
    name: `nc-${++n}`,
    token: 'secret',
    url: `${receiver.url}/hook`,
    triggers: ['run:created'],
    ...extra,
  });
  const count = async () =>
    Number(
      (
        await api.store.db
          .selectFrom('notification_configurations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    receiver = await NotificationReceiver.start();
    api = await TestApi.create({ settings: { ...DEFAULT_SETTINGS, notifications: { timeoutMs: 2000 } } });
    expect((await api.createOrg('acme')).status).toBe(201);
    const res = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'app' } },
    });
    ws = res.body.data.id;
    member = await api.userToken('mel');
    await joinOrganization(api, 'acme', 'mel', member.token);
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('creates, lists, reads, updates and deletes a configuration with the documents go-tfe reads', async () => {
    const made = await create(generic());
    expect(made.status, made.text).toBe(201);
    const nc = made.body.data;
    expect(nc.id).toMatch(/^nc-[A-Za-z0-9]{16}$/);
    expect(nc.attributes).toMatchObject({
      enabled: false,
      'destination-type': 'generic',
      token: null,
      triggers: ['run:created'],
      url: `${receiver.url}/hook`,
      'email-addresses': [],
      'delivery-responses': [],
    });
    expect(nc.relationships).toEqual({
      subscribable: { data: { id: ws, type: 'workspaces' } },
      users: { data: [] },
    });
    expect(nc.links.self).toBe(`/api/v2/notification-configurations/${nc.id}`);
    // A disabled configuration is not verified.
    expect(receiver.received).toHaveLength(0);

    const second = (await create(generic())).body.data;
    // Without page parameters: every configuration, no pagination (go-tfe: CurrentPage 0).
    const all = await api.get(`/api/v2/workspaces/${ws}/notification-configurations`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toBeUndefined();
    expect(all.body.data.map((d: any) => d.id)).toEqual([nc.id, second.id]);
    expect(all.body.data[0]).toEqual(nc);
    // With them: a page, and its meta (go-tfe: page 999 is empty, total-count 2).
    const far = await api.get(
      `/api/v2/workspaces/${ws}/notification-configurations?page%5Bnumber%5D=999&page%5Bsize%5D=100`,
    );
    expect(far.body.data).toEqual([]);
    expect(far.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 2 });

    expect((await api.get(`/api/v2/notification-configurations/${nc.id}`)).body.data).toEqual(nc);
    const renamed = await api.patch(`/api/v2/notification-configurations/${nc.id}`, body({ name: 'newName' }));
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data.attributes).toMatchObject({ name: 'newName', enabled: false, triggers: ['run:created'] });

    expect((await api.delete(`/api/v2/notification-configurations/${nc.id}`)).status).toBe(204);
    for (const [method, path] of [
      ['GET', `/api/v2/notification-configurations/${nc.id}`],
      ['PATCH', '/api/v2/notification-configurations/nonexisting'],
      ['DELETE', '/api/v2/notification-configurations/nonexisting'],
      ['POST', '/api/v2/notification-configurations/nonexisting/actions/verify'],
    ] as const)
      expect((await api.request(method, path, method === 'PATCH' ? { body: body({}) } : {})).status).toBe(404);
    await api.delete(`/api/v2/notification-configurations/${second.id}`);
  });

  it('verifies an enabled configuration before saving it, signed with HMAC-SHA512 of the body', async () => {
    const before = receiver.received.length;
    const made = await create(generic({ enabled: true, name: 'hooked', token: 'tok-123' }));
    expect(made.status, made.text).toBe(201);
    await receiver.next(before + 1);
    const got = receiver.received[before];
    expect(got.json).toEqual({
      payload_version: 1,
      notification_configuration_id: made.body.data.id,
      run_url: null,
      run_id: null,
      run_message: null,
      run_created_at: null,
      run_created_by: null,
      workspace_id: null,
      workspace_name: null,
      organization_name: null,
      notifications: [
        {
          message: 'Verification of hooked',
          trigger: 'verification',
          run_status: null,
          run_updated_at: null,
          run_updated_by: null,
        },
      ],
    });
    expect(got.headers['x-tfe-notification-signature']).toBe(
      createHmac('sha512', 'tok-123').update(got.body).digest('hex'),
    );
    const [response] = made.body.data.attributes['delivery-responses'];
    expect(response).toMatchObject({ url: `${receiver.url}/hook`, code: '200', successful: 'true' });
    expect(response.headers['x-receiver']).toEqual(['test']);
    expect(JSON.parse(response.body)).toEqual({ received: before + 1 });
    expect(Date.parse(response['sent-at'])).not.toBeNaN();

    // Verify again on demand: another request, its response kept.
    const verified = await api.post(`/api/v2/notification-configurations/${made.body.data.id}/actions/verify`);
    expect(verified.status).toBe(200);
    expect(receiver.received).toHaveLength(before + 2);
    expect(JSON.parse(verified.body.data.attributes['delivery-responses'][0].body)).toEqual({ received: before + 2 });
    await api.delete(`/api/v2/notification-configurations/${made.body.data.id}`);
  });

  it('refuses to enable a configuration whose verification fails (400), saving nothing', async () => {
    const before = await count();
    const failed = await create(generic({ enabled: true, url: `${receiver.url}/status/500` }));
    expect(failed.status).toBe(400);
    expect(failed.body.errors[0].detail).toContain('Verification failed: the destination answered 500');
    expect(await count()).toBe(before);
    // An update that enables it is verified too; refused, the configuration stays as it was.
    const nc = (await create(generic({ url: `${receiver.url}/status/503` }))).body.data;
    const enable = await api.patch(`/api/v2/notification-configurations/${nc.id}`, body({ enabled: true, name: 'x' }));
    expect(enable.status).toBe(400);
    const after = (await api.get(`/api/v2/notification-configurations/${nc.id}`)).body.data.attributes;
    expect(after).toMatchObject({ enabled: false, name: nc.attributes.name });
    // The verify action says 400, with the answer, and keeps nothing (a refused request changes nothing).
    const verify = await api.post(`/api/v2/notification-configurations/${nc.id}/actions/verify`);
    expect(verify.status).toBe(400);
    expect(verify.body.errors[0].detail).toMatch(/the destination answered 503 \(\{"received":\d+\}\)/);
    const kept = (await api.get(`/api/v2/notification-configurations/${nc.id}`)).body.data.attributes[
      'delivery-responses'
    ];
    expect(kept).toEqual([]);
    await api.delete(`/api/v2/notification-configurations/${nc.id}`);
  });

  it('answers the tfe provider\u2019s 422s, and stores nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string, string, Record<string, unknown>?][] = [
      [
        { 'destination-type': 'generic', url: null },
        '/data/attributes/url',
        'URL is required with destination type of generic',
      ],
      [
        { 'destination-type': 'slack', url: null, token: null },
        '/data/attributes/url',
        'URL is required with destination type of slack',
      ],
      [
        { 'destination-type': 'microsoft-teams', url: null, token: null },
        '/data/attributes/url',
        'URL is required with destination type of microsoft-teams',
      ],
      [
        { 'destination-type': 'email', token: null },
        '/data/attributes/url',
        'URL cannot be set with destination type of email',
      ],
      [
        { 'destination-type': 'email', url: null },
        '/data/attributes/token',
        'token cannot be set with destination type of email',
      ],
      [{ 'destination-type': 'slack' }, '/data/attributes/token', 'token cannot be set with destination type of slack'],
      [
        { 'email-addresses': ['a@example.com'] },
        '/data/attributes/email-addresses',
        'email addresses cannot be set with destination type of generic',
      ],
      [
        {},
        '/data/relationships/users',
        'email user IDs cannot be set with destination type of generic',
        { users: { data: [{ type: 'users', id: 'user-AAAAAAAAAAAAAAAA' }] } },
      ],
      [{ triggers: ['the beacons of gondor are lit'] }, '/data/attributes/triggers/0', 'is not a valid trigger'],
      [{ triggers: ['change_request:created'] }, '/data/attributes/triggers/0', 'is not a valid trigger'],
      [{ url: 'ftp://example.com/x' }, '/data/attributes/url', 'URL must be an http or https URL'],
      [{ name: '  ' }, '/data/attributes/name', "Name can't be blank"],
      [{ 'destination-type': 'pigeon' }, '/data/attributes/destination-type', 'must be one of'],
    ];
    for (const [attrs, pointer, detail, rels] of cases) {
      const res = await create(generic(attrs), rels);
      expect(res.status, JSON.stringify(attrs)).toBe(422);
      expect(res.body.errors.map((e: any) => e.source?.pointer)).toContain(pointer);
      expect(res.body.errors.map((e: any) => e.detail).join(' | ')).toContain(detail);
    }
    const stranger = await api.userToken('stranger');
    const notMember = await create(
      { 'destination-type': 'email', enabled: false, name: 'mail' },
      { users: { data: [{ type: 'users', id: stranger.userId }] } },
    );
    expect(notMember.status).toBe(422);
    expect(notMember.body.errors[0].detail).toBe(`user ${stranger.userId} is not a member of the organization`);
    expect(await count()).toBe(before);
  });

  it('email configurations mail organization users; an update without users clears them (as HCP)', async () => {
    const made = await create(
      { 'destination-type': 'email', enabled: false, name: 'mail' },
      { users: { data: [{ type: 'users', id: member.userId }] } },
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.relationships.users.data).toEqual([{ id: member.userId, type: 'users' }]);
    // Enabling an email configuration needs no verification.
    const enabled = await api.patch(
      `/api/v2/notification-configurations/${made.body.data.id}`,
      body({ enabled: true, name: 'newName' }, { users: { data: [{ type: 'users', id: member.userId }] } }),
    );
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.data.attributes.enabled).toBe(true);
    const cleared = await api.patch(`/api/v2/notification-configurations/${made.body.data.id}`, body({ name: 'n2' }));
    expect(cleared.body.data.relationships.users.data).toEqual([]);
    // Verifying without an SMTP server: recorded as skipped, with why.
    const verify = await api.post(`/api/v2/notification-configurations/${made.body.data.id}/actions/verify`);
    expect(verify.status).toBe(200);
    expect(verify.body.data.attributes['delivery-responses'][0]).toMatchObject({
      successful: 'false',
      body: expect.stringContaining('no SMTP server is configured'),
    });
    await api.delete(`/api/v2/notification-configurations/${made.body.data.id}`);
  });

  it('keeps triggers once each, in the order given, and refuses a 21st configuration', async () => {
    const dup = await create(generic({ triggers: ['run:created', 'run:errored', 'run:created'] }));
    expect(dup.body.data.attributes.triggers).toEqual(['run:created', 'run:errored']);
    const other = (
      await api.post('/api/v2/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'full' } },
      })
    ).body.data.id;
    for (let i = 0; i < 20; i++) expect((await create(generic(), undefined, other)).status).toBe(201);
    const over = await create(generic(), undefined, other);
    expect(over.status).toBe(422);
    expect(over.body.errors[0].detail).toContain('at most 20 notification configurations');
  });

  it('is for workspace admins only: a member who may read the workspace gets 404', async () => {
    const nc = (await create(generic())).body.data;
    expect(
      (await api.get(`/api/v2/workspaces/${ws}/notification-configurations`, { token: member.token })).status,
    ).toBe(404);
    expect((await api.get(`/api/v2/notification-configurations/${nc.id}`, { token: member.token })).status).toBe(404);
    expect((await api.delete(`/api/v2/notification-configurations/${nc.id}`, { token: member.token })).status).toBe(
      404,
    );
    expect((await api.get(`/api/v2/notification-configurations/${nc.id}`)).status).toBe(200);
  });

  it('teams have configurations too, with the change_request:created trigger (subscribable: teams)', async () => {
    const team = await api.post('/api/v2/organizations/acme/teams', {
      data: { type: 'teams', attributes: { name: 'ops' } },
    });
    const id = team.body.data.id;
    const made = await api.post(
      `/api/v2/teams/${id}/notification-configurations`,
      body(generic({ triggers: ['change_request:created'] })),
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.relationships.subscribable.data).toEqual({ id, type: 'teams' });
    const list = await api.get(`/api/v2/teams/${id}/notification-configurations`);
    expect(list.body.data).toEqual([made.body.data]);
    const wrong = await api.post(`/api/v2/teams/${id}/notification-configurations`, body(generic()));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].detail).toContain('is not a valid trigger of a team');
  });
});
