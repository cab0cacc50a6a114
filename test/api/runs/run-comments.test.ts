import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { createAgentPool } from '../../helpers/workspaces.js';
import { claim, EXECUTING, finish, newConfiguration, P, queueRun, runStatus } from '../../helpers/run-execution.js';

/**
 * HCP's Comments API: comments on a run, alone or given with an action (apply, discard, cancel,
 * force-cancel), recorded in the action's transaction; who may queue plans may comment (HCP), who
 * may only read the run reads them, anyone else (a run's own token too) gets 404.
 */
describe('run comments', () => {
  let f: AccessFixture;
  let clock: TestClock;
  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const owner = () => ({ token: f.owner.token });
  const body = (text: unknown, extra: Record<string, unknown> = {}) => ({
    data: { type: 'comments', attributes: { body: text }, ...extra },
  });
  const comment = (runId: string, text: unknown, token = f.owner.token) =>
    f.api.post(`${P}/runs/${runId}/comments`, body(text), { token });
  const comments = async (runId: string, token = f.owner.token) => {
    const res = await f.api.get(`${P}/runs/${runId}/comments`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as any[];
  };
  const planned = async () => {
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    return run;
  };

  it('are created, listed in order, shown, and named by their run', async () => {
    const run = await queueRun(f, f.web);
    const first = await comment(run.id, '1st comment test');
    expect(first.status, first.text).toBe(201);
    const c = first.body.data;
    expect(c).toMatchObject({
      type: 'comments',
      attributes: { body: '1st comment test', 'created-at': clock.now().toISOString() },
      relationships: {
        'run-event': { data: { type: 'run-events' } },
        run: { data: { type: 'runs', id: run.id } },
        author: { data: { type: 'users', id: f.owner.userId } },
      },
      links: { self: `${P}/comments/${c.id}` },
    });
    expect(c.id).toMatch(/^wsc-[A-Za-z0-9]{16}$/);
    clock.advance(1000);
    expect((await comment(run.id, '2nd comment test')).status).toBe(201);

    expect((await comments(run.id)).map((x) => x.attributes.body)).toEqual(['1st comment test', '2nd comment test']);
    const shown = await f.api.get(`${P}/comments/${c.id}`, owner());
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(c);
    // The run names its comments (a list carries the link only).
    const doc = await f.api.get(`${P}/runs/${run.id}`, owner());
    const listed = (await comments(run.id)).map((x) => ({ type: 'comments', id: x.id }));
    expect(doc.body.data.relationships.comments).toEqual({
      data: listed,
      links: { related: `${P}/runs/${run.id}/comments` },
    });
    const list = await f.api.get(`${P}/workspaces/${f.web}/runs`, owner());
    expect(list.body.data[0].relationships.comments).toEqual({ links: { related: `${P}/runs/${run.id}/comments` } });
  });

  it('refuse a blank, missing, non-text or too long body (422 with a pointer), and another run named', async () => {
    const run = await queueRun(f, f.web);
    const other = await queueRun(f, f.web);
    const cases: [unknown, string][] = [
      [undefined, "Body can't be blank"],
      ['   ', "Body can't be blank"],
      [42, 'Body must be a string'],
      ['x'.repeat(10_001), 'Body is too long (maximum is 10000 characters)'],
    ];
    for (const [text, detail] of cases) {
      const res = await comment(run.id, text);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ detail, source: { pointer: '/data/attributes/body' } });
    }
    const wrong = await f.api.post(
      `${P}/runs/${run.id}/comments`,
      body('hi', { relationships: { run: { data: { type: 'runs', id: other.id } } } }),
      owner(),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].source.pointer).toBe('/data/relationships/run/data/id');
    expect(await comments(run.id)).toEqual([]);
    // go-tfe names the path's run in the relationship: taken.
    const named = await f.api.post(
      `${P}/runs/${run.id}/comments`,
      body('hi', { relationships: { run: { data: { type: 'runs', id: run.id } } } }),
      owner(),
    );
    expect(named.status, named.text).toBe(201);
  });

  it('may be written by who may queue plans, read by who may read runs, and nobody else', async () => {
    const run = await queueRun(f, f.web);
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    const planner = await teamMember(f, 'planners');
    await grantWorkspace(f, planner.teamId, f.web, 'plan');
    const stranger = await teamMember(f, 'strangers');

    // The run says who may comment (go-tfe's RunPermissions.CanComment).
    const canComment = async (token: string) =>
      (await f.api.get(`${P}/runs/${run.id}`, { token })).body.data.attributes.permissions['can-comment'];
    expect(await canComment(reader.token)).toBe(false);
    expect(await canComment(planner.token)).toBe(true);
    const refused = await comment(run.id, 'may I?', reader.token);
    expect(refused.status).toBe(404);
    const ok = await comment(run.id, 'planner here', planner.token);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.relationships.author.data.id).toBe(planner.userId);
    expect((await comments(run.id, reader.token)).map((x) => x.attributes.body)).toEqual(['planner here']);
    expect((await f.api.get(`${P}/comments/${ok.body.data.id}`, { token: reader.token })).status).toBe(200);

    expect((await f.api.get(`${P}/runs/${run.id}/comments`, { token: stranger.token })).status).toBe(404);
    expect((await f.api.get(`${P}/comments/${ok.body.data.id}`, { token: stranger.token })).status).toBe(404);
    expect((await comment(run.id, 'hello', stranger.token)).status).toBe(404);
    expect((await f.api.get(`${P}/comments/wsc-AAAAAAAAAAAAAAAA`, owner())).status).toBe(404);
    expect((await comment('run-AAAAAAAAAAAAAAAA', 'hello')).status).toBe(404);
  });

  it('are refused to a run token, which reads none, and to an agent token', async () => {
    const run = await queueRun(f, f.web);
    expect((await comment(run.id, 'before')).status).toBe(201);
    const claimed = await inProcessPort(f.api.store.db, clock).claim('test-executor');
    expect(claimed?.runId).toBe(run.id);
    const as = { token: claimed!.token };
    expect((await f.api.post(`${P}/runs/${run.id}/comments`, body('from inside'), as)).status).toBe(404);
    expect((await f.api.get(`${P}/runs/${run.id}/comments`, as)).status).toBe(404);
    expect((await comments(run.id)).map((x) => x.attributes.body)).toEqual(['before']);
    // An agent token speaks the agent protocol only.
    const pool = await createAgentPool(f.api, 'acme', 'builders');
    const agent = await f.api.post(
      `${P}/agent-pools/${pool}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'rack 4' } } },
      owner(),
    );
    expect(agent.status, agent.text).toBe(201);
    const byAgent = { token: agent.body.data.attributes.token };
    expect((await f.api.post(`${P}/runs/${run.id}/comments`, body('agent'), byAgent)).status).toBe(401);
    expect((await f.api.get(`${P}/runs/${run.id}/comments`, byAgent)).status).toBe(401);
  });

  describe('given with an action', () => {
    const act = (id: string, action: string, payload?: unknown) =>
      f.api.post(`${P}/runs/${id}/actions/${action}`, payload, owner());

    it('apply: a comment of the confirmation, as HCP documents it and as go-tfe sends it', async () => {
      const run = await planned();
      const res = await act(run.id, 'apply', { comment: 'Looks good to me' });
      expect(res.status, res.text).toBe(202);
      expect(await runStatus(f, run.id)).toBe('apply_queued');
      const [c] = await comments(run.id);
      expect(c.attributes.body).toBe('Looks good to me');
      expect(c.relationships.author.data.id).toBe(f.owner.userId);
      const event = await f.api.get(`${P}/run-events/${c.relationships['run-event'].data.id}`, owner());
      expect(event.body.data.attributes.action).toBe('confirmed');
      expect(event.body.data.relationships.comment.data).toEqual({ type: 'comments', id: c.id });

      // go-tfe versions that tag the option as a JSON:API attribute.
      expect((await act(run.id, 'cancel')).status).toBe(202);
      const second = await planned();
      const nested = await act(second.id, 'discard', { data: { type: '', attributes: { comment: 'not now' } } });
      expect(nested.status, nested.text).toBe(202);
      expect((await comments(second.id)).map((x) => x.attributes.body)).toEqual(['not now']);
    });

    it('cancel and force-cancel keep theirs; no comment, null or blank leaves none', async () => {
      const run = await queueRun(f, f.web);
      await claim(f, run.id, 'plan');
      expect((await act(run.id, 'cancel', { comment: 'wrong branch' })).status).toBe(202);
      expect((await act(run.id, 'force-cancel', { comment: 'it hangs' })).status).toBe(202);
      expect(await runStatus(f, run.id)).toBe('force_canceled');
      const listed = await comments(run.id);
      expect(listed.map((x) => x.attributes.body)).toEqual(['wrong branch', 'it hangs']);
      const actions = [];
      for (const x of listed)
        actions.push(
          (await f.api.get(`${P}/run-events/${x.relationships['run-event'].data.id}`, owner())).body.data.attributes
            .action,
        );
      expect(actions).toEqual(['cancel_requested', 'force_canceled']);

      for (const payload of [undefined, { comment: null }, { comment: '  ' }, {}]) {
        const next = await planned();
        expect((await act(next.id, 'discard', payload)).status).toBe(202);
        expect(await comments(next.id)).toEqual([]);
      }
    });

    it('a comment that is no text is a 422 and the action is not taken; a refused action keeps no comment', async () => {
      const run = await planned();
      const res = await act(run.id, 'apply', { comment: 5 });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        detail: 'Comment must be a string',
        source: { pointer: '/comment' },
      });
      const nested = await act(run.id, 'apply', { data: { attributes: { comment: 'x'.repeat(10_001) } } });
      expect(nested.status).toBe(422);
      expect(nested.body.errors[0].source.pointer).toBe('/data/attributes/comment');
      expect(await runStatus(f, run.id)).toBe('planned');

      // 409: a planned run cannot be force-canceled; its comment goes with the refusal.
      expect((await act(run.id, 'force-cancel', { comment: 'too early' })).status).toBe(409);
      expect(await comments(run.id)).toEqual([]);
    });

    it('on a recorded run too (the move it makes, in the same transaction)', async () => {
      const created = await f.api.post(
        `${P}/runs`,
        {
          data: {
            type: 'runs',
            attributes: { recorded: true },
            relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
          },
        },
        owner(),
      );
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id;
      expect((await act(id, 'discard', { comment: 'recorded by mistake' })).status).toBe(202);
      const [c] = await comments(id);
      expect(c.attributes.body).toBe('recorded by mistake');
      const event = await f.api.get(`${P}/run-events/${c.relationships['run-event'].data.id}`, owner());
      expect(event.body.data.attributes.action).toBe('discarded');
    });
  });

  it('go with their run; a deleted author leaves them naming no user', async () => {
    const run = await queueRun(f, f.web);
    const planner = await teamMember(f, 'planners');
    await grantWorkspace(f, planner.teamId, f.web, 'plan');
    const mine = (await comment(run.id, 'by a planner', planner.token)).body.data;
    expect((await f.api.delete(`${P}/admin/users/${planner.userId}`)).status).toBe(204);
    const kept = await f.api.get(`${P}/comments/${mine.id}`, owner());
    expect(kept.status).toBe(200);
    expect(kept.body.data.relationships.author).toEqual({ data: null });

    expect((await f.api.delete(`${P}/workspaces/${f.web}`, owner())).status).toBe(204);
    expect((await f.api.get(`${P}/comments/${mine.id}`, owner())).status).toBe(404);
    const left = await f.api.store.db.selectFrom('comments').select('id').execute();
    expect(left).toEqual([]);
    expect(await f.api.store.db.selectFrom('run_events').select('id').execute()).toEqual([]);
  });
});
