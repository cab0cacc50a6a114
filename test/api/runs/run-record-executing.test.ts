import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import {
  claim,
  executingFixture,
  newConfiguration,
  now,
  P,
  runBody,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * Issue 34: on a server that executes runs, a `POST /runs` carrying a report (`status`, `at`,
 * `phases`...) records a run that happened elsewhere (`berth run record`); one without a report
 * is a run the server executes, as HCP Terraform creates it.
 */
describe('POST /runs on an executing server: recorded or executed', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const runIds = async () =>
    ((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data as { id: string }[]).map((r) => r.id);
  const nothingQueued = async () => expect(await claimRun(f.api.store.db, 'test-executor', now())).toBeNull();

  it('a report records the run with its phases and times; no executor is asked for it', async () => {
    // An uploaded configuration: without the report this request would queue a run of it.
    await newConfiguration(f, f.web);
    const res = await f.api.post(
      `${P}/runs`,
      runBody(f.web, {
        message: 'nightly',
        status: 'applied',
        at: '2026-01-01T00:10:00.000Z',
        phases: [
          { status: 'planning', at: '2026-01-01T00:00:00.000Z' },
          { status: 'planned', at: '2026-01-01T00:04:00.000Z' },
          { status: 'applying', at: '2026-01-01T00:05:00.000Z' },
        ],
      }),
      t(),
    );
    expect(res.status, res.text).toBe(201);
    const run = res.body.data;
    expect(run.attributes.status).toBe('applied');
    expect(run.attributes.message).toBe('nightly');
    expect(run.relationships['configuration-version'].data).toBeNull();
    const at = run.attributes['status-timestamps'];
    expect(at['planning-at']).toBe('2026-01-01T00:00:00.000Z');
    expect(at['applied-at']).toBe('2026-01-01T00:10:00.000Z');
    await nothingQueued();
    // The run ended: the workspace is not left locked by it.
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('status pending records a pending run that reports then move (berth run record)', async () => {
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { status: 'pending' }), t());
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.status).toBe('pending');
    expect(res.body.data.relationships['configuration-version'].data).toBeNull();
    await nothingQueued();
    const report = await f.api.post(
      `${P}/runs/${res.body.data.id}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'errored', phases: [{ status: 'planning' }] } } },
      t(),
    );
    expect(report.status, report.text).toBe(200);
    expect(report.body.data.attributes.status).toBe('errored');
  });

  it('without a report, the server executes the run (HCP): queued for the executor; reports are refused', async () => {
    await newConfiguration(f, f.web);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { message: 'from the API' }), t());
    expect(res.status, res.text).toBe(201);
    const run = res.body.data;
    expect(run.relationships['configuration-version'].data).not.toBeNull();
    await claim(f, run.id, 'plan');
    const report = await f.api.post(
      `${P}/runs/${run.id}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'planned' } } },
      t(),
    );
    expect(report.status, report.text).toBe(409);
  });

  it('refuses, creating nothing: a report with a configuration version, a bad status, a move that cannot be made', async () => {
    const cv = await newConfiguration(f, f.web);
    const before = await runIds();
    const withCv = await f.api.post(`${P}/runs`, runBody(f.web, { status: 'applied' }, cv.id), t());
    expect(withCv.status, withCv.text).toBe(422);
    expect(withCv.body.errors[0].source.pointer).toBe('/data/relationships/configuration-version/data/id');
    const bad = await f.api.post(`${P}/runs`, runBody(f.web, { status: 'finished-ish' }), t());
    expect(bad.status, bad.text).toBe(422);
    const atOnly = await f.api.post(`${P}/runs`, runBody(f.web, { at: '2026-01-01T00:00:00.000Z' }), t());
    expect(atOnly.status, atOnly.text).toBe(422);
    const jump = await f.api.post(`${P}/runs`, runBody(f.web, { status: 'applied' }), t());
    expect(jump.status, jump.text).toBe(409);
    expect(jump.body.errors[0].detail).toMatch(/cannot move from pending to applied/);
    expect(await runIds()).toEqual(before);
    await nothingQueued();
  });

  it('a workspace locked by someone else: 409, and the run does not stay pending as its current run', async () => {
    const rec = await teamMember(f, 'recorders', { 'manage-workspaces': true });
    const lock = await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'mine' }, t());
    expect(lock.status, lock.text).toBe(200);
    const res = await f.api.post(
      `${P}/runs`,
      runBody(f.web, { status: 'planned_and_finished', phases: [{ status: 'planning' }] }),
      { token: rec.token },
    );
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0].detail).toMatch(/locked/i);
    const runs = (await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data;
    expect(runs.map((r: any) => r.attributes.status)).toEqual(['discarded']);
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(true);
    expect(ws.relationships['locked-by'].data.type).toBe('users');
  });

  it('a report that applies, by someone who may only queue plans: 404, and no run is left behind', async () => {
    const planner = await teamMember(f, 'planners');
    await grantWorkspace(f, planner.teamId, f.web, 'custom', { runs: 'plan' });
    const res = await f.api.post(
      `${P}/runs`,
      runBody(f.web, {
        status: 'applied',
        phases: [{ status: 'planning' }, { status: 'planned' }, { status: 'apply_queued' }, { status: 'applying' }],
      }),
      { token: planner.token },
    );
    expect(res.status, res.text).toBe(404);
    expect(await runIds()).toEqual([]);
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(false);
    expect(ws.relationships['current-run'].data).toBeNull();
    // A report that only plans is theirs to record.
    const planned = await f.api.post(
      `${P}/runs`,
      runBody(f.web, { status: 'planned_and_finished', phases: [{ status: 'planning' }] }),
      { token: planner.token },
    );
    expect(planned.status, planned.text).toBe(201);
  });
});
