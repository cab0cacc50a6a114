import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { teamMember, type AccessFixture } from '../../helpers/access.js';
import { executingFixture, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';

/**
 * Task stages: berth runs no run tasks, so every run has none. The tfe provider's
 * `tfe_workspace_run` lists a run's task stages after each run it starts (go-tfe's
 * TaskStages.List), and stopped at the 404 berth answered.
 */
describe('GET /runs/:id/task-stages and GET /task-stages/:id', () => {
  let f: AccessFixture;
  const t = () => ({ token: f.owner.token });

  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(async () => {
    await f.api.close();
  });

  it('a readable run lists no task stage, as its relationship says', async () => {
    const run = await queueRun(f, f.web);
    expect(run.relationships['task-stages']).toEqual({ data: [] });
    const res = await f.api.get(`${P}/runs/${run.id}/task-stages`, t());
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([]);
    // What the provider's loop reads to stop: the current page is the last.
    const { 'current-page': current, 'total-pages': pages } = res.body.meta.pagination;
    expect(current).toBe(1);
    expect(current).toBeGreaterThanOrEqual(pages);
    expect(res.body.meta.pagination['total-count']).toBe(0);
    expect((await f.api.get(`${P}/runs/${run.id}/task-stages?page[number]=2&page[size]=5`, t())).status).toBe(200);
  });

  it('an unknown or unreadable run is a 404; an unknown filter a 400', async () => {
    const run = await queueRun(f, f.web);
    const outsider = await teamMember(f, 'outsiders');
    expect((await f.api.get(`${P}/runs/${run.id}/task-stages`, { token: outsider.token })).status).toBe(404);
    expect((await f.api.get(`${P}/runs/run-AAAAAAAAAAAAAAAA/task-stages`, t())).status).toBe(404);
    const bad = await f.api.get(`${P}/runs/${run.id}/task-stages?filter[stage]=post_plan`, t());
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[stage]' });
  });

  it('GET /task-stages/:id is a 404 (there are none), with go-tfe’s includes accepted', async () => {
    for (const q of ['', '?include=task_results', '?include=task_results,policy_evaluations']) {
      const res = await f.api.get(`${P}/task-stages/ts-AAAAAAAAAAAAAAAA${q}`, t());
      expect(res.status, q).toBe(404);
      expect(res.body.errors[0].status).toBe('404');
    }
    expect((await f.api.get(`${P}/task-stages/ts-AAAAAAAAAAAAAAAA?include=bogus`, t())).status).toBe(400);
  });
});
