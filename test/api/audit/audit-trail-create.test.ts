import { describe, expect, it } from 'vitest';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../../src/store/schema.js';
import { TestApi } from '../../helpers/api.js';
import { eachWithAccessFixture, type AccessFixture } from '../../helpers/access.js';

let api: TestApi;
let f: AccessFixture;

eachWithAccessFixture((made, fixture) => {
  api = made;
  f = fixture;
});

/**
 * The writes and transaction ends that queries run while `fn` runs, as `update audit_events`,
 * `insert workspaces`, `commit`: read from the SQL of every query kysely's executors run (built
 * by a query builder, precompiled, or raw).
 */
async function writesDuring(db: Kysely<DB>, fn: () => Promise<void>): Promise<string[]> {
  let proto = Object.getPrototypeOf(db.getExecutor());
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto);
  const original = proto.executeQuery;
  const seen: string[] = [];
  proto.executeQuery = function (this: unknown, compiled: CompiledQuery) {
    const m = /^\s*(update|insert into|commit|rollback)\b\s*"?([a-z_]*)/i.exec(compiled.sql);
    if (m) seen.push(`${m[1].toLowerCase().replace('insert into', 'insert')}${m[2] ? ` ${m[2]}` : ''}`);
    return original.call(this, compiled);
  };
  try {
    await fn();
  } finally {
    proto.executeQuery = original;
  }
  return seen;
}

describe('the record of a create', () => {
  it('names the new workspace and commits with it, in the one transaction of the create', async () => {
    let res!: Awaited<ReturnType<TestApi['post']>>;
    const writes = await writesDuring(api.store.db, async () => {
      res = await api.post(
        '/api/v2/organizations/acme/workspaces',
        { data: { type: 'workspaces', attributes: { name: 'fresh' } } },
        { token: f.owner.token },
      );
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    // One transaction: the workspace and its record, never a second write to point the record.
    expect(writes).toEqual(['insert workspaces', 'insert audit_events', 'commit']);

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
    const team = await api.post(
      '/api/v2/organizations/acme/teams',
      { data: { type: 'teams', attributes: { name: 'ops' } } },
      { token: f.owner.token },
    );
    expect(team.status).toBe(201);
    const [e] = (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.data;
    expect(e.attributes).toMatchObject({
      action: 'team.create',
      'target-type': 'teams',
      'target-id': team.body.data.id,
      'target-name': 'ops',
      'organization-name': 'acme',
    });
  });

  it('a create that fails leaves no record', async () => {
    const before = (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.meta
      .pagination['total-count'];
    const dup = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: 'web' } } },
      { token: f.owner.token },
    );
    expect(dup.status).toBe(422);
    expect(
      (await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token })).body.meta.pagination[
        'total-count'
      ],
    ).toBe(before);
  });
});
