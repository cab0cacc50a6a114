import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { NotificationReceiver } from '../../helpers/notification-receiver.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

/**
 * berth serve delivers notifications in the background: a run created through its API reaches a
 * receiving server without anyone asking (the deliverer's rounds, every 50 ms here), and a bad
 * --smtp-url stops serve at its start.
 */
describe('berth serve delivers notifications', () => {
  const tmp = tempDb();
  let receiver: NotificationReceiver;
  let server: ServeProcess;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  beforeAll(async () => {
    receiver = await NotificationReceiver.start();
    server = await startServe(tmp.db, ['--no-execute-runs', '--notification-interval-ms', '50']);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
    tmp.cleanup();
  });

  it('sends a run created event to an enabled configuration, after its verification', async () => {
    expect(
      (
        await api('POST', '/organizations', {
          data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
        })
      ).status,
    ).toBe(201);
    const ws = await api('POST', '/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'app' } },
    });
    const nc = await api('POST', `/workspaces/${ws.body.data.id}/notification-configurations`, {
      data: {
        type: 'notification-configurations',
        attributes: {
          'destination-type': 'generic',
          enabled: true,
          name: 'hook',
          url: `${receiver.url}/hook`,
          triggers: ['run:created'],
        },
      },
    });
    expect(nc.status).toBe(201);
    const run = await api('POST', '/runs', {
      data: {
        type: 'runs',
        attributes: { message: 'hello' },
        relationships: { workspace: { data: { type: 'workspaces', id: ws.body.data.id } } },
      },
    });
    expect(run.status).toBe(201);
    await receiver.next(2);
    expect(receiver.received.map((r) => r.json.notifications[0].trigger)).toEqual(['verification', 'run:created']);
    expect(receiver.received[1].json).toMatchObject({
      run_id: run.body.data.id,
      run_message: 'hello',
      workspace_name: 'app',
    });
    expect(receiver.received[1].json.run_url).toMatch(new RegExp(`^${server.url}/#/orgs/acme/workspaces/app\\?run=`));
  });

  it('refuses an --smtp-url that is no SMTP URL', async () => {
    const res = await runCli(['serve', '--port', '0', '--no-execute-runs', '--smtp-url', 'ftp://mail.example.com'], {
      BERTH_DB: `${tmp.dir}/other.db`,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--smtp-url: ftp://mail.example.com is not an smtp:// or smtps:// URL');
  });
});
