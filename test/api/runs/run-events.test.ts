import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { claim, EXECUTING, finish, newConfiguration, P, queueRun, runStatus } from '../../helpers/run-execution.js';

/**
 * A run's history (HCP's run events, which go-tfe lists and the Terraform CLI reads for warnings):
 * every move in order, with the user who made it (created, confirmed, discarded, canceled,
 * commented) or none for berth's own (queued, planning, planned, applied...), its comment, and ids
 * that answer the same event again.
 */
describe('run events', () => {
  let f: AccessFixture;
  let clock: TestClock;
  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const owner = () => ({ token: f.owner.token });
  const act = (id: string, action: string, payload?: unknown, token = f.owner.token) =>
    f.api.post(`${P}/runs/${id}/actions/${action}`, payload, { token });
  const events = async (runId: string, query = '', token = f.owner.token) => {
    const res = await f.api.get(`${P}/runs/${runId}/run-events${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** Each event as `action by actor-id` (`-` for berth). */
  const history = async (runId: string) =>
    ((await events(runId)).data as any[]).map(
      (e) => `${e.attributes.action} by ${e.relationships.actor.data?.id ?? '-'}`,
    );

  it('list an applied run from its creation to its apply, with who confirmed it and why', async () => {
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect((await act(run.id, 'apply', { comment: 'ship it' })).status).toBe(202);
    await claim(f, run.id, 'apply');
    await finish(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applied');
    const me = f.owner.userId;
    expect(await history(run.id)).toEqual([
      `created by ${me}`,
      'queued by -',
      'planning by -',
      'planned by -',
      `confirmed by ${me}`,
      'apply_queued by -',
      'applying by -',
      'applied by -',
    ]);
    const doc = await events(run.id);
    const first = doc.data[0];
    expect(first).toMatchObject({
      type: 'run-events',
      attributes: { action: 'created', description: null, 'created-at': clock.now().toISOString() },
      relationships: {
        actor: { data: { type: 'users', id: me } },
        comment: { data: null },
        run: { data: { type: 'runs', id: run.id } },
      },
      links: { self: `${P}/run-events/${first.id}` },
    });
    expect(first.id).toMatch(/^re-[A-Za-z0-9]{16}$/);
    expect(doc.included).toBeUndefined();
    const confirmed = doc.data.find((e: any) => e.attributes.action === 'confirmed');
    expect(confirmed.relationships.comment.data).toMatchObject({ type: 'comments' });
    // The run document names them.
    const runDoc = await f.api.get(`${P}/runs/${run.id}`, owner());
    expect(runDoc.body.data.relationships['run-events']).toEqual({
      links: { related: `${P}/runs/${run.id}/run-events` },
    });
  });

  it('keep their ids: GET /run-events/:id answers the same event, and a second list the same list', async () => {
    const run = await queueRun(f, f.web);
    const once = await events(run.id);
    const again = await events(run.id);
    expect(again.data).toEqual(once.data);
    for (const e of once.data) {
      const res = await f.api.get(`${P}/run-events/${e.id}`, owner());
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual(e);
    }
  });

  it('include=actor,comment includes the users and comments (go-tfe finds its comment and its author)', async () => {
    const run = await queueRun(f, f.web);
    const posted = await f.api.post(
      `${P}/runs/${run.id}/comments`,
      { data: { type: 'comments', attributes: { body: 'Test comment' } } },
      owner(),
    );
    expect(posted.status).toBe(201);
    // Without include: the relationships name them, nothing is included.
    const bare = await events(run.id);
    const commented = bare.data.find((e: any) => e.attributes.action === 'commented');
    expect(commented.relationships.actor.data).toEqual({ type: 'users', id: f.owner.userId });
    expect(commented.relationships.comment.data).toEqual({ type: 'comments', id: posted.body.data.id });
    expect(bare.included).toBeUndefined();

    const full = await events(run.id, '?include=actor,comment');
    const users = full.included.filter((r: any) => r.type === 'users');
    expect(users.map((u: any) => [u.id, u.attributes.username])).toEqual([[f.owner.userId, 'owner']]);
    const included = full.included.filter((r: any) => r.type === 'comments');
    expect(included.map((c: any) => c.attributes.body)).toEqual(['Test comment']);

    const one = await f.api.get(`${P}/run-events/${commented.id}?include=actor,comment`, owner());
    expect(one.status).toBe(200);
    expect(one.body.included.map((r: any) => r.type).sort()).toEqual(['comments', 'users']);
    // A user the caller may not see in full shows their public face only.
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    const seen = await events(run.id, '?include=actor', reader.token);
    expect(seen.included[0].attributes.username).toBe('owner');
    expect(seen.included[0].attributes.email).toBeUndefined();

    const bad = await f.api.get(`${P}/runs/${run.id}/run-events?include=target`, owner());
    expect(bad.status).toBe(400);
  });

  it('name who discarded and who canceled; the executor ending a canceled run is berth', async () => {
    const writer = await teamMember(f, 'writers');
    await grantWorkspace(f, writer.teamId, f.web, 'write');
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect((await act(run.id, 'discard', undefined, writer.token)).status).toBe(202);
    expect((await history(run.id)).slice(-1)).toEqual([`discarded by ${writer.userId}`]);

    const running = await queueRun(f, f.web);
    await claim(f, running.id, 'plan');
    expect((await act(running.id, 'cancel', undefined, writer.token)).status).toBe(202);
    await finish(f, running.id, 'plan', { outcome: 'canceled', hasChanges: false });
    expect((await history(running.id)).slice(-3)).toEqual([
      'planning by -',
      `cancel_requested by ${writer.userId}`,
      'canceled by -',
    ]);
  });

  it('an auto-applied plan passes planned and confirmed, by berth; a plan-only run ends planned_and_finished', async () => {
    const auto = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, auto.id, 'plan');
    await finish(f, auto.id, 'plan');
    expect((await history(auto.id)).slice(2)).toEqual([
      'planning by -',
      'planned by -',
      'confirmed by -',
      'apply_queued by -',
    ]);
    await claim(f, auto.id, 'apply');
    await finish(f, auto.id, 'apply');

    const speculative = await queueRun(f, f.web, { 'plan-only': true });
    await claim(f, speculative.id, 'plan');
    await finish(f, speculative.id, 'plan');
    expect(await history(speculative.id)).toEqual([
      `created by ${f.owner.userId}`,
      'queued by -',
      'planning by -',
      'planned by -',
      'planned_and_finished by -',
    ]);
  });

  it('of a recorded run: each reported move, at the time it happened, by its reporter', async () => {
    const res = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: {
            status: 'planned',
            phases: [{ status: 'planning', at: '2030-01-01T10:00:00.000Z' }],
            at: '2030-01-01T10:05:00.000Z',
          },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    const doc = await events(res.body.data.id);
    expect(
      doc.data.map((e: any) => [e.attributes.action, e.attributes['created-at'], e.relationships.actor.data?.id]),
    ).toEqual([
      ['created', clock.now().toISOString(), f.owner.userId],
      ['planning', '2030-01-01T10:00:00.000Z', f.owner.userId],
      ['planned', '2030-01-01T10:05:00.000Z', f.owner.userId],
    ]);
  });

  it('are paged (100 by default: clients read one answer), and 404 to whoever may not read the run', async () => {
    const run = await queueRun(f, f.web);
    for (let i = 0; i < 3; i++)
      await f.api.post(
        `${P}/runs/${run.id}/comments`,
        { data: { type: 'comments', attributes: { body: `c${i}` } } },
        owner(),
      );
    const all = await events(run.id);
    expect(all.data).toHaveLength(5);
    expect(all.meta.pagination).toMatchObject({ 'page-size': 100, 'total-count': 5, 'total-pages': 1 });
    const second = await events(run.id, '?page[size]=2&page[number]=2');
    expect(second.data.map((e: any) => e.id)).toEqual(all.data.slice(2, 4).map((e: any) => e.id));

    const stranger = await teamMember(f, 'strangers');
    expect((await f.api.get(`${P}/runs/${run.id}/run-events`, { token: stranger.token })).status).toBe(404);
    expect((await f.api.get(`${P}/run-events/${all.data[0].id}`, { token: stranger.token })).status).toBe(404);
    expect((await f.api.get(`${P}/run-events/re-AAAAAAAAAAAAAAAA`, owner())).status).toBe(404);
    expect((await f.api.get(`${P}/runs/run-AAAAAAAAAAAAAAAA/run-events`, owner())).status).toBe(404);
  });
});
