import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { teamMember, type AccessFixture } from '../../helpers/access.js';
import { executingFixture, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';

/**
 * `GET /workspaces/:id/runs` applies every filter go-tfe's RunListOptions sends (they were accepted
 * and ignored: the tfe provider's `tfe_workspace_run` counts a workspace's destroy runs with
 * `filter[operation]=destroy` and got every run), and its includes sideload as `GET /runs/:id`.
 */
describe('GET /workspaces/:id/runs filters, searches and includes', () => {
  let f: AccessFixture;
  const t = () => ({ token: f.owner.token });
  const ids = async (query: string, token = f.owner.token) => {
    const res = await f.api.get(`${P}/workspaces/${f.web}/runs?${query}`, { token });
    expect(res.status, `${query}: ${res.text}`).toBe(200);
    return res.body.data.map((r: { id: string }) => r.id);
  };
  const refused = async (query: string, parameter: string) => {
    const res = await f.api.get(`${P}/workspaces/${f.web}/runs?${query}`, t());
    expect(res.status, query).toBe(400);
    expect(res.body.errors[0].source, query).toEqual({ parameter });
    return res.body.errors[0].detail as string;
  };

  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(async () => {
    await f.api.close();
  });

  it('filter[operation] lists the runs of the operations named, each run of exactly one', async () => {
    const queue = async (attributes: Record<string, unknown>) => (await queueRun(f, f.web, attributes)).id as string;
    const planAndApply = await queue({});
    const destroy = await queue({ 'is-destroy': true });
    const planOnly = await queue({ 'plan-only': true });
    // A speculative destroy plan destroys nothing: plan_only. A saved destroy plan: save_plan.
    const speculativeDestroy = await queue({ 'plan-only': true, 'is-destroy': true });
    const savePlan = await queue({ 'save-plan': true });
    const savedDestroy = await queue({ 'save-plan': true, 'is-destroy': true });
    const refreshOnly = await queue({ 'refresh-only': true });
    const emptyApply = await queue({ 'allow-empty-apply': true });
    // A recorded run has only is-destroy.
    const recordedDestroy = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { recorded: true, 'is-destroy': true },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      t(),
    );
    expect(recordedDestroy.status, recordedDestroy.text).toBe(201);
    const recorded = recordedDestroy.body.data.id as string;

    expect(await ids('filter[operation]=destroy')).toEqual([recorded, destroy]);
    expect(await ids('filter[operation]=plan_only')).toEqual([speculativeDestroy, planOnly]);
    expect(await ids('filter[operation]=save_plan')).toEqual([savedDestroy, savePlan]);
    expect(await ids('filter[operation]=refresh_only')).toEqual([refreshOnly]);
    expect(await ids('filter[operation]=empty_apply')).toEqual([emptyApply]);
    expect(await ids('filter[operation]=plan_and_apply')).toEqual([planAndApply]);
    expect(await ids(`filter[operation]=${encodeURIComponent('destroy, refresh_only')}`)).toEqual([
      recorded,
      refreshOnly,
      destroy,
    ]);
    const counted = await f.api.get(`${P}/workspaces/${f.web}/runs?filter[operation]=destroy`, t());
    expect(counted.body.meta.pagination['total-count']).toBe(2);
    // Combined with filter[status]: both hold (the first run queued its plan, the others wait).
    expect(await ids('filter[operation]=plan_and_apply&filter[status]=plan_queued')).toEqual([planAndApply]);
    expect(await ids('filter[operation]=destroy&filter[status]=plan_queued')).toEqual([]);
    expect(await refused('filter[operation]=apply', 'filter[operation]')).toContain('"apply"');
    await refused('filter[operation]=destroy,', 'filter[operation]');
  });

  it('search[user], search[commit] and search[basic] match the creator, no commit, and id or message', async () => {
    const byOwner = (await queueRun(f, f.web, { message: 'Rotate the Certificates' })).id as string;
    const ops = await teamMember(f, 'ops', { 'manage-workspaces': true });
    const byOps = (await queueRun(f, f.web, { message: 'scale out' }, ops.token)).id as string;

    expect(await ids('search[user]=owner')).toEqual([byOwner]);
    expect(await ids('search[user]=OPS-USER')).toEqual([byOps]);
    expect(await ids('search[user]=own')).toEqual([]);
    // berth's runs carry no VCS commit: a commit search finds none.
    expect(await ids('search[commit]=0123abc')).toEqual([]);
    expect(await ids('search[basic]=certificates')).toEqual([byOwner]);
    expect(await ids(`search[basic]=${byOps}`)).toEqual([byOps]);
    expect(await ids('search[basic]=ops-user')).toEqual([byOps]);
    expect(await ids('search[basic]=100%25')).toEqual([]);
    // As HCP: search[user] (or search[commit]) takes priority, and search[basic] is not used.
    expect(await ids('search[user]=owner&search[basic]=scale')).toEqual([byOwner]);
    expect(await ids('search[basic]=')).toEqual([byOps, byOwner]);
  });

  it('filter[source] takes HCP’s sources: every berth run is tfe-api; another name is a 400', async () => {
    const run = (await queueRun(f, f.web)).id as string;
    expect(await ids('filter[source]=tfe-api')).toEqual([run]);
    expect(await ids('filter[source]=tfe-ui,tfe-configuration-version')).toEqual([]);
    expect(await refused('filter[source]=tfe', 'filter[source]')).toContain('"tfe"');
  });

  it('include=workspace and created_by sideload the workspace and creators, as GET /runs/:id does', async () => {
    const ops = await teamMember(f, 'ops', { 'manage-workspaces': true });
    const first = (await queueRun(f, f.web)).id as string;
    const second = (await queueRun(f, f.web, {}, ops.token)).id as string;
    const plain = await f.api.get(`${P}/workspaces/${f.web}/runs`, t());
    expect(plain.body.included).toBeUndefined();

    const res = await f.api.get(`${P}/workspaces/${f.web}/runs?include=workspace,created_by,plan`, t());
    expect(res.status, res.text).toBe(200);
    const included = res.body.included as any[];
    const workspaces = included.filter((r) => r.type === 'workspaces');
    expect(workspaces.map((w) => [w.id, w.attributes.name])).toEqual([[f.web, 'web']]);
    const users = new Map(included.filter((r) => r.type === 'users').map((u) => [u.id, u.attributes.username]));
    expect([...users.values()].sort()).toEqual(['ops-user', 'owner']);
    const creatorOf = (id: string) =>
      users.get(res.body.data.find((r: any) => r.id === id).relationships['created-by'].data.id);
    expect(creatorOf(first)).toBe('owner');
    expect(creatorOf(second)).toBe('ops-user');
    expect(included.filter((r) => r.type === 'plans')).toHaveLength(2);
    // Each resource once, however many runs name it.
    expect(new Set(included.map((r) => `${r.type}/${r.id}`)).size).toBe(included.length);
  });
});
