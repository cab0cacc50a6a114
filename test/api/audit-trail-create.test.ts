import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyPlugin, OperationNode, RootOperationNode } from 'kysely';
import { createApp } from '../../src/api/app.js';
import { TestApi } from '../helpers/api.js';
import { accessFixture, type AccessFixture } from '../helpers/access.js';

let api: TestApi;
let f: AccessFixture;

beforeEach(async () => {
  api = await TestApi.create();
  f = await accessFixture(api);
});
afterEach(() => api.close());

/** The writes and transaction ends an app runs, as `update audit_events`, `insert workspaces`, `commit`. */
function statementLog() {
  const seen: string[] = [];
  const tableOf = (node: OperationNode | undefined): string => {
    const n = node as { kind?: string; table?: { identifier?: { name?: string } }; into?: { table?: { identifier?: { name?: string } } } } | undefined;
    return n?.table?.identifier?.name ?? n?.into?.table?.identifier?.name ?? '?';
  };
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const n = node as RootOperationNode & { table?: OperationNode; into?: OperationNode; sqlFragments?: readonly string[] };
      if (n.kind === 'UpdateQueryNode') seen.push(`update ${tableOf(n.table)}`);
      if (n.kind === 'InsertQueryNode') seen.push(`insert ${tableOf(n.into)}`);
      if (n.kind === 'RawNode' && /^\s*(commit|rollback)\s*$/i.test((n.sqlFragments ?? []).join(''))) seen.push(n.sqlFragments!.join('').trim());
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { seen, plugin };
}

describe('the record of a create', () => {
  it('names the new workspace and commits with it, in the one transaction of the create', async () => {
    const log = statementLog();
    const app = createApp({ db: api.store.db.withPlugin(log.plugin) });
    const res = await app.fetch(
      new Request('http://berth.test/api/v2/organizations/acme/workspaces', {
        method: 'POST',
        headers: { Authorization: `Bearer ${f.owner.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'fresh' } } }),
      }),
    );
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    // One transaction: the workspace and its record, never a second write to point the record.
    expect(log.seen.filter((s) => !s.startsWith('insert workspace_tag') && s !== 'insert tags')).toEqual(['insert workspaces', 'insert audit_events', 'commit']);

    const [e] = (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.data;
    expect(e.attributes).toMatchObject({
      action: 'workspace.create',
      'target-type': 'workspaces',
      'target-id': id,
      'target-name': 'fresh',
      'organization-name': 'acme',
      'workspace-id': id,
      'actor-id': f.owner.userId,
      'request-id': res.headers.get('x-request-id'),
    });
  });

  it('still names what other creates made, once their response is known', async () => {
    const team = await api.post('/api/v2/organizations/acme/teams', { data: { type: 'teams', attributes: { name: 'ops' } } }, { token: f.owner.token });
    expect(team.status).toBe(201);
    const [e] = (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.data;
    expect(e.attributes).toMatchObject({ action: 'team.create', 'target-type': 'teams', 'target-id': team.body.data.id, 'target-name': 'ops', 'organization-name': 'acme' });
  });

  it('a create that fails leaves no record', async () => {
    const before = (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.meta.pagination['total-count'];
    const dup = await api.post('/api/v2/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'web' } } }, { token: f.owner.token });
    expect(dup.status).toBe(422);
    expect((await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.meta.pagination['total-count']).toBe(before);
  });
});
