import { createHmac } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { deliverDueNotifications, RETRY_DELAYS_MS } from '../../../src/services/notifications/notification-delivery.js';
import { NotificationDeliverer } from '../../../src/scheduler/notification-deliverer.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { joinOrganization } from '../../helpers/members.js';
import { NotificationReceiver } from '../../helpers/notification-receiver.js';

/**
 * Deliveries: a run's moves write the outbox in their own transaction; the deliverer, driven by
 * hand on a TestClock (no sleeping), sends them to a receiving HTTP server (and an SMTP
 * receiver), keeps the last response, retries what may succeed later, gives up on the rest.
 */
describe('notification deliveries', () => {
  let api: TestApi;
  let receiver: NotificationReceiver;
  let smtp: SMTPServer;
  let smtpPort: number;
  const mails: { to: string[]; text: string }[] = [];
  const clock = new TestClock(Date.UTC(2026, 0, 1));
  let ws: string;
  let n = 0;

  const options = (extra: Record<string, unknown> = {}) => ({
    db: api.store.db,
    clock,
    edition: 'self-hosted' as const,
    delivery: { timeoutMs: 2000, baseUrl: 'https://berth.example.com', ...extra },
  });
  const deliver = (extra: Record<string, unknown> = {}) => deliverDueNotifications(options(extra));
  const configure = async (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => {
    const res = await api.post(`/api/v2/workspaces/${ws}/notification-configurations`, {
      data: {
        type: 'notification-configurations',
        attributes: { enabled: true, name: `nc-${++n}`, ...attributes },
        ...(relationships ? { relationships } : {}),
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const disable = (id: string) =>
    api.patch(`/api/v2/notification-configurations/${id}`, {
      data: { type: 'notification-configurations', attributes: { enabled: false } },
    });
  const newRun = async (attributes: Record<string, unknown> = {}) => {
    const res = await api.post('/api/v2/runs', {
      data: {
        type: 'runs',
        attributes: { message: 'deploy', ...attributes },
        relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const report = (id: string, status: string) =>
    api.post(`/api/v2/runs/${id}/actions/report`, { data: { type: 'run-reports', attributes: { status } } });
  const outbox = () => api.store.db.selectFrom('notification_deliveries').selectAll().orderBy('seq').execute();
  const responseOf = async (id: string) =>
    (await api.get(`/api/v2/notification-configurations/${id}`)).body.data.attributes['delivery-responses'][0];

  beforeAll(async () => {
    receiver = await NotificationReceiver.start();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    api = await TestApi.create({ clock, settings: { ...DEFAULT_SETTINGS, notifications: { timeoutMs: 2000 } } });
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
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers a run created event with HCP\u2019s generic payload, signed, and keeps the response', async () => {
    const nc = await configure({
      'destination-type': 'generic',
      url: `${receiver.url}/runs`,
      token: 'sig-key',
      triggers: ['run:created', 'run:errored'],
    });
    const before = receiver.received.length;
    const run = await newRun();
    // Written in the run's transaction, not yet sent: nothing waits for the receiver.
    expect((await outbox()).map((d) => d.trigger)).toEqual(['run:created']);
    expect(receiver.received).toHaveLength(before);
    const reports = await deliver();
    expect(reports).toMatchObject([{ result: 'delivered', trigger: 'run:created', code: '200', attempts: 1 }]);
    const got = receiver.received[before];
    expect(got.json).toEqual({
      payload_version: 1,
      notification_configuration_id: nc.id,
      run_url: `https://berth.example.com/#/orgs/acme/workspaces/app?run=${run}`,
      run_id: run,
      run_message: 'deploy',
      run_created_at: clock.now().toISOString(),
      run_created_by: 'admin',
      workspace_id: ws,
      workspace_name: 'app',
      organization_name: 'acme',
      notifications: [
        {
          message: 'Run Created',
          trigger: 'run:created',
          run_status: 'pending',
          run_updated_at: clock.now().toISOString(),
          run_updated_by: 'admin',
        },
      ],
    });
    expect(got.headers['x-tfe-notification-signature']).toBe(
      createHmac('sha512', 'sig-key').update(got.body).digest('hex'),
    );
    expect(await outbox()).toEqual([]);
    expect(await responseOf(nc.id)).toMatchObject({ url: `${receiver.url}/runs`, code: '200', successful: 'true' });
    // A move it does not listen for (planning) sends nothing; the one it does (errored) does.
    await report(run, 'planning');
    await report(run, 'errored');
    expect((await outbox()).map((d) => d.trigger)).toEqual(['run:errored']);
    await deliver();
    expect(receiver.received[before + 1].json.notifications[0]).toMatchObject({
      message: 'Run Errored',
      trigger: 'run:errored',
      run_status: 'errored',
    });
    await disable(nc.id);
  });

  it('retries what may succeed later, on the clock, and gives up after the last try', async () => {
    const nc = await configure({
      'destination-type': 'generic',
      url: `${receiver.url}/runs`,
      triggers: ['run:created'],
    });
    // Its verification passed; now the receiver fails.
    await api.store.db
      .updateTable('notification_configurations')
      .set({ url: `${receiver.url}/status/503` })
      .where('id', '=', nc.id)
      .execute();
    await newRun();
    expect(await deliver()).toMatchObject([{ result: 'retrying', attempts: 1, code: '503' }]);
    // Not due again before its delay.
    clock.advance(RETRY_DELAYS_MS[0] - 1);
    expect(await deliver()).toEqual([]);
    clock.advance(1);
    expect(await deliver()).toMatchObject([{ result: 'retrying', attempts: 2 }]);
    for (const [i, delay] of RETRY_DELAYS_MS.slice(1).entries()) {
      clock.advance(delay);
      expect(await deliver()).toMatchObject([{ result: i === RETRY_DELAYS_MS.length - 2 ? 'failed' : 'retrying' }]);
    }
    expect(await outbox()).toEqual([]);
    expect(await responseOf(nc.id)).toMatchObject({ code: '503', successful: 'false' });
    // A 4xx is final at once.
    await api.store.db
      .updateTable('notification_configurations')
      .set({ url: `${receiver.url}/status/404` })
      .where('id', '=', nc.id)
      .execute();
    await newRun();
    expect(await deliver()).toMatchObject([{ result: 'failed', attempts: 1, code: '404' }]);
    await disable(nc.id);
  });

  it('a receiver that never answers times out, and is tried again', async () => {
    const nc = await configure({ 'destination-type': 'generic', url: `${receiver.url}/ok`, triggers: ['run:created'] });
    await api.store.db
      .updateTable('notification_configurations')
      .set({ url: `${receiver.url}/hang` })
      .where('id', '=', nc.id)
      .execute();
    await newRun();
    expect(await deliver({ timeoutMs: 100 })).toMatchObject([{ result: 'retrying', code: '' }]);
    expect(await responseOf(nc.id)).toMatchObject({ body: 'no answer within 100 ms', successful: 'false' });
    await disable(nc.id);
    clock.advance(RETRY_DELAYS_MS[0]);
    // Disabled meanwhile: the waiting delivery is dropped, not sent.
    expect(await deliver()).toMatchObject([{ result: 'skipped' }]);
  });

  it('sends Slack and Microsoft Teams messages in their webhook formats', async () => {
    const slack = await configure({
      'destination-type': 'slack',
      url: `${receiver.url}/slack`,
      triggers: ['run:created'],
    });
    const teams = await configure({
      'destination-type': 'microsoft-teams',
      url: `${receiver.url}/teams`,
      triggers: ['run:created'],
    });
    const run = await newRun();
    const before = receiver.received.length;
    await deliver();
    const byPath = Object.fromEntries(receiver.received.slice(before).map((r) => [r.path, r]));
    expect(byPath['/slack'].headers['x-tfe-notification-signature']).toBeUndefined();
    expect(byPath['/slack'].json).toMatchObject({
      text: 'Run Created: acme/app',
      attachments: [
        {
          color: 'good',
          title_link: `https://berth.example.com/#/orgs/acme/workspaces/app?run=${run}`,
          fields: expect.arrayContaining([{ title: 'Run', value: run, short: true }]),
        },
      ],
    });
    expect(byPath['/teams'].json).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }],
    });
    expect(JSON.stringify(byPath['/teams'].json)).toContain(run);
    await disable(slack.id);
    await disable(teams.id);
  });

  it('mails organization members through the SMTP server, and records a skip without one', async () => {
    const mel = await api.userToken('mel');
    await joinOrganization(api, 'acme', 'mel', mel.token);
    const nc = await configure(
      { 'destination-type': 'email', triggers: ['run:created'] },
      { users: { data: [{ type: 'users', id: mel.userId }] } },
    );
    await newRun();
    expect(await deliver()).toMatchObject([{ result: 'skipped' }]);
    expect((await responseOf(nc.id)).body).toContain('no SMTP server is configured');
    await newRun({ message: 'mail me' });
    expect(await deliver({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, emailFrom: 'berth@acme.test' })).toMatchObject([
      { result: 'delivered' },
    ]);
    expect(mails.at(-1)!.to).toEqual(['mel@example.com']);
    expect(mails.at(-1)!.text).toContain('Subject: [berth] Run Created: acme/app');
    expect(mails.at(-1)!.text).toContain('Message: mail me');
    expect(await responseOf(nc.id)).toMatchObject({ url: 'mailto:mel@example.com', successful: 'true' });
    await disable(nc.id);
  });

  it('notifies nothing for speculative (plan-only) runs, and serve\u2019s deliverer runs rounds', async () => {
    const nc = await configure({
      'destination-type': 'generic',
      url: `${receiver.url}/runs`,
      triggers: ['run:created', 'run:planning'],
    });
    // A plan-only run (berth executes those; a recorded run stands in for one here).
    const speculative = await newRun();
    await deliver();
    await api.store.db.updateTable('runs').set({ plan_only: 1 }).where('id', '=', speculative).execute();
    await report(speculative, 'planning');
    expect(await outbox()).toEqual([]);
    await newRun();
    const deliverer = new NotificationDeliverer({ ...options(), log: () => undefined });
    expect(await deliverer.round()).toMatchObject([{ result: 'delivered' }]);
    await deliverer.stop();
    await disable(nc.id);
  });
});
