import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { isPrivateAddress, type Resolver } from '../../../src/services/notifications/destination-address.js';
import { savePrivateDestinations } from '../../../src/services/notifications/delivery-settings.js';
import { deliverDueNotifications } from '../../../src/services/notifications/notification-delivery.js';
import { TestApi } from '../../helpers/api.js';
import { NotificationReceiver } from '../../helpers/notification-receiver.js';

/**
 * Where notifications may go. On the hosted edition (by default) a URL whose host is, or resolves
 * to, a private or loopback address is refused when saved, and again when a delivery connects (a
 * name re-pointed after the check: DNS rebinding). Names are resolved by a test resolver here: no
 * request leaves this machine.
 */
describe('notification destinations', () => {
  let api: TestApi;
  let receiver: NotificationReceiver;
  let ws: string;
  // What each name resolves to, changed by the tests.
  const dns = new Map<string, string[]>();
  const resolve: Resolver = (host) =>
    Promise.resolve((dns.get(host) ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  const create = (url: string, enabled = false) =>
    api.post(`/api/v2/workspaces/${ws}/notification-configurations`, {
      data: {
        type: 'notification-configurations',
        attributes: { 'destination-type': 'generic', enabled, name: `hook-${url}`, url, triggers: ['run:created'] },
      },
    });

  beforeAll(async () => {
    receiver = await NotificationReceiver.start();
    api = await TestApi.create({
      settings: { ...DEFAULT_SETTINGS, edition: 'hosted', notifications: { timeoutMs: 2000, resolve } },
    });
    expect((await api.createOrg('acme')).status).toBe(201);
    ws = (
      await api.post('/api/v2/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'app' } },
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '::'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses private destinations on the hosted edition: literal, resolved, or among public addresses', async () => {
    const literal = await create(`${receiver.url}/x`);
    expect(literal.status).toBe(422);
    expect(literal.body.errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/url' },
      detail: expect.stringContaining('127.0.0.1 is a private or loopback address'),
    });
    dns.set('inside.test', ['10.0.0.5']);
    expect((await create('http://inside.test/hook')).body.errors[0].detail).toContain('resolves to 10.0.0.5');
    // One private address among public ones is enough to refuse it.
    dns.set('mixed.test', ['93.184.216.34', '::1']);
    expect((await create('https://mixed.test/hook')).body.errors[0].detail).toContain('resolves to ::1');
    expect((await create('http://nowhere.test/hook')).body.errors[0].detail).toContain('does not resolve');
    dns.set('public.test', ['93.184.216.34']);
    expect((await create('https://public.test/hook')).status).toBe(201);
  });

  it('checks again when a delivery connects: a name re-pointed at loopback reaches nothing', async () => {
    const port = new URL(receiver.url).port;
    dns.set('rebind.test', ['93.184.216.34']);
    const made = await create(`http://rebind.test:${port}/hook`);
    expect(made.status).toBe(201);
    // Enabled without a verification (which would reach out), then the name moves to loopback.
    await api.store.db
      .updateTable('notification_configurations')
      .set({ enabled: 1 })
      .where('id', '=', made.body.data.id)
      .execute();
    dns.set('rebind.test', ['127.0.0.1']);
    const run = await api.post('/api/v2/runs', {
      data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
    });
    expect(run.status).toBe(201);
    const before = receiver.received.length;
    const reports = await deliverDueNotifications({
      db: api.store.db,
      clock: api.clock,
      edition: 'hosted',
      delivery: { timeoutMs: 2000, resolve },
    });
    // Refused for good (a private address is not worth retrying), and nothing arrived.
    expect(reports.filter((r) => r.configurationId === made.body.data.id)).toMatchObject([{ result: 'failed' }]);
    expect(receiver.received).toHaveLength(before);
    const response = (await api.get(`/api/v2/notification-configurations/${made.body.data.id}`)).body.data.attributes[
      'delivery-responses'
    ][0];
    expect(response.body).toContain('resolves to 127.0.0.1, a private or loopback address');
  });

  it('allows them once the instance setting says so', async () => {
    await savePrivateDestinations(api.store.db, 'allow');
    const made = await create(`${receiver.url}/hook`, true);
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.attributes['delivery-responses'][0]).toMatchObject({ code: '200', successful: 'true' });
    await savePrivateDestinations(api.store.db, 'deny');
  });
});
