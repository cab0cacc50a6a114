import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationNodeTransformer, type KyselyPlugin, type RootOperationNode, type UpdateQueryNode } from 'kysely';
import { createApp } from '../../../src/api/app.js';
import { TestApi } from '../../helpers/api.js';

/**
 * A create's audit record names what it created from inside the create's own transaction, so
 * that a crash right after the commit (before the answer) cannot leave a record that names the
 * organization instead (issue 32: 19 of 40 project creates killed before their answer did). The
 * crash is stood in for by an app whose later correction of a record fails: every update of
 * `audit_events` throws, as a process that is gone would never make it.
 */
class NoAuditUpdates extends OperationNodeTransformer {
  protected override transformUpdateQuery(node: UpdateQueryNode): UpdateQueryNode {
    const table = JSON.stringify(node.table);
    if (table.includes('"audit_events"')) throw new Error('no audit update after the commit (the process is gone)');
    return super.transformUpdateQuery(node);
  }
}
const plugin: KyselyPlugin = {
  transformQuery: (args) => new NoAuditUpdates().transformNode<RootOperationNode>(args.node),
  transformResult: (args) => Promise.resolve(args.result),
};

const P = '/api/v2';
const named = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

describe('a create names what it made in its own transaction', () => {
  let api: TestApi;
  let app: ReturnType<typeof createApp>;
  const unexpected: unknown[] = [];
  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    app = createApp({ db: api.store.db.withPlugin(plugin), onUnexpectedError: (e) => unexpected.push(e) });
  });
  afterAll(() => api.close());

  const post = async (path: string, body: unknown) => {
    const res = await app.fetch(
      new Request(`http://berth.test${P}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify(body),
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: string; type: string } }).data;
  };
  const lastRecord = () =>
    api.store.db.selectFrom('audit_events').selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();

  for (const [what, path, body] of [
    ['project', '/organizations/acme/projects', named('projects', { name: 'made-here' })],
    ['team', '/organizations/acme/teams', named('teams', { name: 'made-here' })],
    ['ssh key', '/organizations/acme/ssh-keys', named('ssh-keys', { name: 'made-here', value: 'ssh-ed25519 AAAA' })],
    ['agent pool', '/organizations/acme/agent-pools', named('agent-pools', { name: 'made-here' })],
    ['reserved tag key', '/organizations/acme/reserved-tag-keys', named('reserved-tag-keys', { key: 'made-here' })],
    [
      'oauth token',
      '/organizations/acme/oauth-tokens',
      named('oauth-tokens', { 'service-provider': 'github', 'oauth-token-string': 'secret' }),
    ],
  ] as const) {
    it(`${what}: the record targets the ${what}, with no correction after the commit`, async () => {
      unexpected.length = 0;
      const made = await post(path, body);
      const record = await lastRecord();
      expect(unexpected).toEqual([]);
      expect({ type: record.target_type, id: record.target_id }).toEqual({ type: made.type, id: made.id });
      expect(record.organization_name).toBe('acme');
    });
  }
});
