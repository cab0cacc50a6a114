import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { NotificationReceiver } from '../../helpers/notification-receiver.js';

describe('berth workspace notifications add|list|show|update|verify|remove (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  let receiver: NotificationReceiver;

  beforeAll(async () => {
    receiver = await NotificationReceiver.start();
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('workspace', 'create', 'app')).code).toBe(0);
  });
  afterAll(async () => {
    db.cleanup();
    await receiver.close();
  });

  it('add verifies an enabled webhook, list and show name it, update and verify change and send', async () => {
    const added = await berth(
      'workspace',
      'notifications',
      'add',
      'app',
      'hook',
      '--type',
      'generic',
      '--url',
      `${receiver.url}/hook`,
      '--signing-token',
      'k',
      '--trigger',
      'run:created',
      '--trigger',
      'run:errored',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added notification hook to app.');
    expect(added.stdout).toMatch(/Last delivery: ok \(200\)/);
    expect(receiver.received.at(-1)!.json.notifications[0].trigger).toBe('verification');

    const list = await berth('workspace', 'notifications', 'list', 'app');
    expect(list.stdout).toMatch(/NAME\s+TYPE\s+ENABLED\s+TRIGGERS\s+DESTINATION\s+LAST DELIVERY/);
    expect(list.stdout).toMatch(/hook\s+generic\s+yes\s+run:created, run:errored/);
    const [doc] = await json('workspace', 'notifications', 'list', 'app');
    expect(doc.attributes).toMatchObject({ name: 'hook', token: null });

    const paused = await json(
      'workspace',
      'notifications',
      'update',
      'acme/app',
      'hook',
      '--no-enabled',
      '--trigger',
      'run:completed',
    );
    expect(paused.attributes).toMatchObject({ enabled: false, triggers: ['run:completed'] });
    const shown = await berth('workspace', 'notifications', 'show', 'app', doc.id);
    expect(shown.stdout).toContain('Enabled:       no');

    const before = receiver.received.length;
    const verified = await berth('workspace', 'notifications', 'verify', 'app', 'hook');
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Verified notification hook: ok \(200\)/);
    expect(receiver.received).toHaveLength(before + 1);
  });

  it('refusals: a failing URL adds nothing, a wrong setting is a 422, an unknown name not found', async () => {
    const failing = await berth(
      'workspace',
      'notifications',
      'add',
      'app',
      'bad',
      '--type',
      'slack',
      '--url',
      `${receiver.url}/status/500`,
    );
    expect(failing.code).not.toBe(0);
    expect(failing.stderr).toContain('Verification failed: the destination answered 500');
    const token = await berth(
      'workspace',
      'notifications',
      'add',
      'app',
      'bad',
      '--type',
      'slack',
      '--url',
      `${receiver.url}/x`,
      '--signing-token',
      't',
    );
    expect(token.stderr).toContain('token cannot be set with destination type of slack');
    expect((await json('workspace', 'notifications', 'list', 'app')).map((n: any) => n.attributes.name)).toEqual([
      'hook',
    ]);
    const missing = await berth('workspace', 'notifications', 'remove', 'app', 'nope');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('app has no notification configuration nope');
  });

  it('remove deletes it', async () => {
    const res = await berth('workspace', 'notifications', 'remove', 'app', 'hook');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Removed notification hook of app.');
    expect((await berth('workspace', 'notifications', 'list', 'app')).stdout.trim()).toBe(
      'No notification configurations.',
    );
  });
});
