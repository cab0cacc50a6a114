import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessFixture, teamMember, teamProjectBody, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { createAgentPool } from '../../helpers/workspaces.js';

const P = '/api/v2';
const DAY = 24 * 3600 * 1000;

/**
 * `GET /organizations/:org/runs` (go-tfe's Runs.ListForOrganization): the runs of every workspace
 * of the organization that the caller may read, newest first, paged, with the filters of
 * RunListForOrganizationOptions, each applied.
 */
describe('GET /organizations/:org/runs', () => {
  let f: AccessFixture;
  let clock: TestClock;
  let api: string;
  /** The runs, oldest first: web pending, api destroy (pending), web applied, api planned. */
  let runs: { webPending: string; apiDestroy: string; webApplied: string; apiPlanned: string };
  const t = () => ({ token: f.owner.token });

  const list = (query = '', token = f.owner.token) => f.api.get(`${P}/organizations/acme/runs?${query}`, { token });
  const ids = async (query = '', token = f.owner.token) => {
    const res = await list(query, token);
    expect(res.status, `${query}: ${res.text}`).toBe(200);
    return res.body.data.map((r: { id: string }) => r.id);
  };
  const refused = async (query: string, parameter: string) => {
    const res = await list(query);
    expect(res.status, query).toBe(400);
    expect(res.body.errors[0].source, query).toEqual({ parameter });
    return res.body.errors[0].detail as string;
  };
  /** A recorded run of `ws`, moved through `phases` to `status` in one request. */
  const record = async (ws: string, attributes: Record<string, unknown>) => {
    clock.advance(1000);
    const res = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { recorded: true, ...attributes },
          relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
        },
      },
      t(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const patch = async (path: string, type: string, attributes: Record<string, unknown>, relationships = {}) => {
    const res = await f.api.patch(`${P}/${path}`, { data: { type, attributes, relationships } }, t());
    expect(res.status, res.text).toBe(200);
  };

  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ clock }));
    const created = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      {
        data: {
          type: 'workspaces',
          attributes: { name: 'api' },
          relationships: { project: { data: { type: 'projects', id: f.beta } } },
        },
      },
      t(),
    );
    expect(created.status, created.text).toBe(201);
    api = created.body.data.id;
    runs = {
      webPending: await record(f.web, { message: 'First of the day' }),
      apiDestroy: await record(api, { 'is-destroy': true, message: 'tear down' }),
      webApplied: await record(f.web, {
        status: 'applied',
        phases: [{ status: 'planning' }, { status: 'planned' }, { status: 'applying' }],
      }),
      apiPlanned: await record(api, { status: 'planned', phases: [{ status: 'planning' }] }),
    };
  });
  afterEach(async () => {
    await f.api.close();
  });

  it('lists the runs of every workspace, newest first, paged', async () => {
    const { webPending, apiDestroy, webApplied, apiPlanned } = runs;
    expect(await ids()).toEqual([apiPlanned, webApplied, apiDestroy, webPending]);
    const second = await list('page[size]=2&page[number]=2');
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual([apiDestroy, webPending]);
    expect(second.body.meta.pagination).toMatchObject({ 'current-page': 2, 'next-page': null, 'prev-page': 1 });
    // go-tfe's test: a page past the end is empty, its number kept, no next page.
    const past = await list('page[number]=999&page[size]=100');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.pagination).toMatchObject({ 'current-page': 999, 'next-page': null });
    expect((await list('', f.owner.token)).body.data[0].relationships.workspace.data).toEqual({
      id: api,
      type: 'workspaces',
    });
  });

  it('a caller sees only the runs of workspaces they may read; an outsider gets a 404', async () => {
    const reader = await teamMember(f, 'readers');
    const grant = await f.api.post(
      `${P}/team-projects`,
      teamProjectBody(reader.teamId, f.alpha, { access: 'read' }),
      t(),
    );
    expect(grant.status, grant.text).toBe(200);
    expect(await ids('', reader.token)).toEqual([runs.webApplied, runs.webPending]);
    const counted = await list('', reader.token);
    expect(counted.body.meta.pagination['total-count']).toBe(2);
    // A filter never reaches past what the caller may read.
    expect(await ids('filter[workspace_names]=api', reader.token)).toEqual([]);
    const member = await teamMember(f, 'nobody');
    expect(await ids('', member.token)).toEqual([]);
    const stranger = await f.api.userToken('stranger');
    expect((await list('', stranger.token)).status).toBe(404);
    expect((await f.api.get(`${P}/organizations/nowhere/runs`, t())).status).toBe(404);
  });

  it('filter[workspace_names], filter[status], filter[status_group] and filter[operation]', async () => {
    const { webPending, apiDestroy, webApplied, apiPlanned } = runs;
    expect(await ids('filter[workspace_names]=web')).toEqual([webApplied, webPending]);
    expect(await ids('filter[workspace_names]=WEB,api')).toEqual([apiPlanned, webApplied, apiDestroy, webPending]);
    expect(await ids('filter[workspace_names]=nowhere')).toEqual([]);
    expect(await ids('filter[status]=pending')).toEqual([apiDestroy, webPending]);
    expect(await ids('filter[status_group]=final')).toEqual([webApplied]);
    expect(await ids('filter[status_group]=non_final')).toEqual([apiPlanned, apiDestroy, webPending]);
    expect(await ids('filter[status_group]=discardable')).toEqual([apiPlanned, apiDestroy, webPending]);
    expect(await ids('filter[status_group]=discardable&filter[status]=planned')).toEqual([apiPlanned]);
    expect(await ids('filter[operation]=destroy')).toEqual([apiDestroy]);
    expect(await ids('filter[operation]=plan_and_apply&filter[workspace_names]=api')).toEqual([apiPlanned]);
    expect(await ids('filter[source]=tfe-api&filter[workspace_names]=web')).toEqual([webApplied, webPending]);
    expect(await ids('search[basic]=TEAR')).toEqual([apiDestroy]);
    expect(await ids('search[user]=owner')).toEqual([apiPlanned, webApplied, apiDestroy, webPending]);
    expect(await ids('search[commit]=abc123')).toEqual([]);
    expect(await refused('filter[status_group]=done', 'filter[status_group]')).toContain('"done"');
    await refused('filter[status_group]=final,non_final', 'filter[status_group]');
    await refused('filter[operation]=apply', 'filter[operation]');
    await refused('filter[status]=finished', 'filter[status]');
    await refused('filter[workspace][name]=web', 'filter[workspace][name]');
    await refused('search[name]=web', 'search[name]');
  });

  it('filter[timeframe]: year (the past 365 days) or a calendar year', async () => {
    const all = await ids();
    expect(await ids('filter[timeframe]=2030')).toEqual(all);
    expect(await ids('filter[timeframe]=2029')).toEqual([]);
    expect(await ids('filter[timeframe]=2029,2030')).toEqual(all);
    expect(await ids('filter[timeframe]=year')).toEqual(all);
    clock.advance(366 * DAY);
    expect(await ids('filter[timeframe]=year')).toEqual([]);
    expect(await refused('filter[timeframe]=month', 'filter[timeframe]')).toContain('"month"');
  });

  it('filter[agent_pool_names]: runs of workspaces on those pools, or executed by their agents', async () => {
    const builders = await createAgentPool(f.api, 'acme', 'builders');
    const others = await createAgentPool(f.api, 'acme', 'others');
    // web on builders itself; api inherits its project's default, others.
    await patch(`workspaces/${f.web}`, 'workspaces', { 'execution-mode': 'agent', 'agent-pool-id': builders });
    await patch(
      `projects/${f.beta}`,
      'projects',
      { 'default-execution-mode': 'agent' },
      { 'default-agent-pool': { data: { type: 'agent-pools', id: others } } },
    );
    const { webPending, apiDestroy, webApplied, apiPlanned } = runs;
    expect(await ids('filter[agent_pool_names]=builders')).toEqual([webApplied, webPending]);
    expect(await ids('filter[agent_pool_names]=others')).toEqual([apiPlanned, apiDestroy]);
    expect(await ids('filter[agent_pool_names]=builders,others')).toEqual([
      apiPlanned,
      webApplied,
      apiDestroy,
      webPending,
    ]);
    expect(await ids('filter[agent_pool_names]=nowhere')).toEqual([]);

    // The organization's default reaches a workspace that inherits all the way.
    await patch(`projects/${f.beta}`, 'projects', { 'default-execution-mode': 'remote' });
    expect(await ids('filter[agent_pool_names]=others')).toEqual([]);
    await patch(`projects/${f.beta}`, 'projects', { 'setting-overwrites': { 'default-execution-mode': false } });
    await patch(
      'organizations/acme',
      'organizations',
      { 'default-execution-mode': 'agent' },
      { 'default-agent-pool': { data: { type: 'agent-pools', id: others } } },
    );
    expect(await ids('filter[agent_pool_names]=others')).toEqual([apiPlanned, apiDestroy]);

    // web back on the instance: a run an agent of builders executed is still one of builders'.
    await patch(`workspaces/${f.web}`, 'workspaces', { 'execution-mode': 'remote' });
    expect(await ids('filter[agent_pool_names]=builders')).toEqual([]);
    const now = clock.now().toISOString();
    await f.api.store.db
      .insertInto('agents')
      .values({
        id: 'agent-AAAAAAAAAAAAAAAA',
        agent_pool_id: builders,
        agent_token_id: null,
        name: 'rack-1',
        status: 'idle',
        ip_address: null,
        created_at: now,
        last_ping_at: now,
      })
      .execute();
    await f.api.store.db
      .updateTable('runs')
      .set({ claimed_by: 'agent-AAAAAAAAAAAAAAAA' })
      .where('id', '=', webApplied)
      .execute();
    expect(await ids('filter[agent_pool_names]=builders')).toEqual([webApplied]);
  });

  it('include=workspace sideloads each run’s workspace once', async () => {
    const res = await list('include=workspace');
    expect(res.status, res.text).toBe(200);
    const names = (res.body.included as any[]).map((r) => [r.type, r.id, r.attributes.name]);
    expect(names.sort()).toEqual(
      [
        ['workspaces', api, 'api'],
        ['workspaces', f.web, 'web'],
      ].sort(),
    );
    expect((await list()).body.included).toBeUndefined();
    expect((await list('include=bogus')).status).toBe(400);
  });
});
