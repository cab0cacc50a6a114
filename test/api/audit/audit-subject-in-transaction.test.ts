import { describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { eachWithAccessFixture, type AccessFixture } from '../../helpers/access.js';

/**
 * Routes that neither delete nor rename what their path names (`keepsSubject` in
 * src/api/audit-actions.ts: locks, tags, tag bindings, a workspace create) resolve their record's
 * subject inside the request's write transaction rather than before the handler: the record
 * names the same workspace and organization as before, and a refused request still leaves none.
 */

const P = '/api/v2';
let api: TestApi;
let f: AccessFixture;

eachWithAccessFixture((made, fixture) => {
  api = made;
  f = fixture;
});

const records = () =>
  api.store.db
    .selectFrom('audit_events')
    .select(['action', 'target_type', 'target_id', 'target_name', 'organization_name', 'workspace_id'])
    .orderBy('seq')
    .execute();

async function recorded(request: () => Promise<{ status: number; text: string }>) {
  const before = (await records()).length;
  const res = await request();
  expect(res.status, res.text).toBeLessThan(300);
  return (await records()).slice(before);
}

const web = () => ({
  target_type: 'workspaces',
  target_id: f.web,
  target_name: 'web',
  organization_name: 'acme',
  workspace_id: f.web,
});

describe('records of routes that resolve their subject inside the transaction', () => {
  it('lock, unlock, lock again, force-unlock: each names the workspace and its organization', async () => {
    const o = { token: f.owner.token };
    expect(await recorded(() => api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'r' }, o))).toEqual([
      { action: 'workspace.lock', ...web() },
    ]);
    expect(await recorded(() => api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, o))).toEqual([
      { action: 'workspace.unlock', ...web() },
    ]);
    expect(await recorded(() => api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, o))).toEqual([
      { action: 'workspace.lock', ...web() },
    ]);
    expect(await recorded(() => api.post(`${P}/workspaces/${f.web}/actions/force-unlock`, undefined, o))).toEqual([
      { action: 'workspace.force-unlock', ...web() },
    ]);
  });

  it('tags and tag bindings added to a workspace name it', async () => {
    const o = { token: f.owner.token };
    const tags = { data: [{ type: 'tags', attributes: { name: 'blue' } }] };
    expect(await recorded(() => api.post(`${P}/workspaces/${f.web}/relationships/tags`, tags, o))).toEqual([
      { action: 'workspace.tags.add', ...web() },
    ]);
    const bindings = { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'prod' } }] };
    expect(await recorded(() => api.patch(`${P}/workspaces/${f.web}/tag-bindings`, bindings, o))).toEqual([
      { action: 'workspace.tag-bindings.add', ...web() },
    ]);
  });

  it('a workspace create names the workspace made, in its organization', async () => {
    const body = { data: { type: 'workspaces', attributes: { name: 'made' } } };
    const res = await api.post(`${P}/organizations/acme/workspaces`, body, { token: f.owner.token });
    expect(res.status, res.text).toBe(201);
    const last = (await records()).at(-1);
    expect(last).toEqual({
      action: 'workspace.create',
      target_type: 'workspaces',
      target_id: res.body.data.id,
      target_name: 'made',
      organization_name: 'acme',
      workspace_id: res.body.data.id,
    });
  });

  it('a refused lock (409) and a lock of an unknown workspace (404) leave no record', async () => {
    const o = { token: f.owner.token };
    expect((await api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, o)).status).toBe(200);
    const before = (await records()).length;
    expect((await api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, o)).status).toBe(409);
    expect((await api.post(`${P}/workspaces/ws-NoSuchWorkspace1/actions/lock`, {}, o)).status).toBe(404);
    expect(await records()).toHaveLength(before);
  });
});
