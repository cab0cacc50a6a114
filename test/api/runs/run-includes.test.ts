import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessFixture } from '../../helpers/access.js';
import { claim, executingFixture, finish, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';

/**
 * `GET /runs/:id?include=` as HCP documents it: plan, apply, workspace, configuration_version and
 * created_by sideload their resources (what `terraform apply FILE` and `terraform show FILE` of a
 * saved cloud plan read); an unknown value is a 400 that go-tfe recognises.
 */
describe('GET /runs/:id with include', () => {
  let f: AccessFixture;
  const t = () => ({ token: f.owner.token });

  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(async () => {
    await f.api.close();
  });

  it('includes the plan, apply, workspace, configuration version and creator of an executed run', async () => {
    const cv = await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web, { 'save-plan': true });
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan', { outcome: 'finished', hasChanges: false });
    const res = await f.api.get(
      `${P}/runs/${run.id}?include=workspace,plan,apply,configuration-version,created_by,cost_estimate,task_stages`,
      t(),
    );
    expect(res.status, res.text).toBe(200);
    const byType = new Map<string, any>(res.body.included.map((r: any) => [r.type, r]));
    expect([...byType.keys()].sort()).toEqual(['applies', 'configuration-versions', 'plans', 'users', 'workspaces']);
    const ws = byType.get('workspaces');
    expect(ws.id).toBe(f.web);
    expect(ws.attributes.name).toBe('web');
    expect(ws.attributes['structured-run-output-enabled']).toBe(true);
    expect(byType.get('plans').id).toBe(res.body.data.relationships.plan.data.id);
    expect(byType.get('plans').attributes.status).toBe('finished');
    expect(byType.get('plans').attributes['log-read-url']).toMatch(/\/run-logs\/plan-/);
    expect(byType.get('applies').attributes.status).toBe('unreachable');
    expect(byType.get('configuration-versions').id).toBe(cv.id);
    const creator = byType.get('users');
    expect(res.body.data.relationships['created-by'].data).toEqual({ id: creator.id, type: 'users' });
    expect(creator.attributes.username).toBeTruthy();
    expect(res.body.data.attributes.status).toBe('planned_and_finished');
  });

  it('without include: no included member; include of a recorded run: its plan', async () => {
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web);
    const plain = await f.api.get(`${P}/runs/${run.id}`, t());
    expect(plain.status).toBe(200);
    expect(plain.body.included).toBeUndefined();

    const recorded = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { recorded: true },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      t(),
    );
    expect(recorded.status, recorded.text).toBe(201);
    const res = await f.api.get(`${P}/runs/${recorded.body.data.id}?include=plan,workspace`, t());
    expect(res.status, res.text).toBe(200);
    expect(res.body.included.map((r: any) => r.type).sort()).toEqual(['plans', 'workspaces']);
  });

  it('an unknown include is a 400 "Invalid include parameter"; an unreadable run stays a 404', async () => {
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web);
    const bad = await f.api.get(`${P}/runs/${run.id}?include=workspace,secrets`, t());
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toBe('Invalid include parameter');
    const missing = await f.api.get(`${P}/runs/run-0000000000000000?include=workspace`, t());
    expect(missing.status).toBe(404);
    const anonymous = await f.api.get(`${P}/runs/${run.id}?include=workspace`, { token: null });
    expect(anonymous.status).toBe(401);
  });
});
