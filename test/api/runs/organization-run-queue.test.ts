import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AccessFixture, teamMember } from '../../helpers/access.js';
import { claim, executingFixture, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';

/**
 * The organization's run queue and capacity, which the Terraform CLI's `cloud` block reads while
 * its remote run is still pending: the executed runs waiting for an executor, numbered from 1,
 * and the counts of those and of the runs executing.
 */
describe('organization run queue and capacity', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const queue = (token = f.owner.token) => f.api.get(`${P}/organizations/acme/runs/queue`, { token });
  const capacity = (token = f.owner.token) => f.api.get(`${P}/organizations/acme/capacity`, { token });

  it('lists queued runs with their position; capacity counts them and the running ones', async () => {
    const empty = await queue();
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect((await capacity()).body.data).toEqual({
      id: 'acme',
      type: 'organization-capacity',
      attributes: { pending: 0, running: 0 },
    });

    const first = await queueRun(f, f.web);
    // The second waits in the workspace's own queue (pending): in neither figure.
    const second = await queueRun(f, f.web);
    const queued = await queue();
    expect(queued.body.data).toHaveLength(1);
    expect(queued.body.data[0]).toMatchObject({
      id: first.id,
      type: 'runs',
      attributes: { status: 'plan_queued', 'position-in-queue': 1 },
      relationships: { workspace: { data: { id: f.web, type: 'workspaces' } } },
    });
    expect(queued.body.meta.pagination['total-count']).toBe(1);
    expect((await capacity()).body.data.attributes).toEqual({ pending: 1, running: 0 });

    await claim(f, first.id, 'plan');
    expect((await queue()).body.data).toEqual([]);
    expect((await capacity()).body.data.attributes).toEqual({ pending: 0, running: 1 });
    expect(second.attributes.status).toBe('pending');
  });

  it('shows a member only the runs of workspaces whose runs it may read; a stranger gets 404', async () => {
    await queueRun(f, f.web);
    const member = await teamMember(f, 'readers');
    const seen = await queue(member.token);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data).toEqual([]);
    const stranger = await f.api.userToken('stranger');
    expect((await queue(stranger.token)).status).toBe(404);
    expect((await capacity(stranger.token)).status).toBe(404);
  });
});
