import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import {
  claim,
  executingFixture,
  finish,
  newConfiguration,
  P,
  queueRun,
  runStatus,
} from '../../helpers/run-execution.js';

/**
 * `confirmed-by` (go-tfe's Run.ConfirmedBy, read without an include): the user who confirmed the
 * run's apply, as a `users` relationship; `{"data": null}` while nobody did, and for runs that
 * apply by themselves (auto-apply).
 */
describe('a run’s confirmed-by', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const confirmedBy = async (id: string) =>
    (await f.api.get(`${P}/runs/${id}`, { token: f.owner.token })).body.data.relationships['confirmed-by'];
  const planned = async (attributes: Record<string, unknown> = {}) => {
    const run = await queueRun(f, f.web, attributes);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    return run;
  };

  it('names the user who applied it, through the apply and after; null before', async () => {
    const run = await planned();
    expect(await confirmedBy(run.id)).toEqual({ data: null });
    // Another user, who may apply runs of the workspace, confirms it.
    const writer = await teamMember(f, 'writers');
    await grantWorkspace(f, writer.teamId, f.web, 'write');
    expect((await f.api.post(`${P}/runs/${run.id}/actions/apply`, undefined, { token: writer.token })).status).toBe(
      202,
    );
    const named = { data: { type: 'users', id: writer.userId }, links: { related: `/api/v2/users/${writer.userId}` } };
    expect(await confirmedBy(run.id)).toEqual(named);
    await claim(f, run.id, 'apply');
    await finish(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applied');
    expect(await confirmedBy(run.id)).toEqual(named);
  });

  it('an auto-applied run was confirmed by nobody', async () => {
    const run = await planned({ 'auto-apply': true });
    expect(await runStatus(f, run.id)).toBe('apply_queued');
    expect(await confirmedBy(run.id)).toEqual({ data: null });
  });

  it('a saved plan names who applied it', async () => {
    const run = await planned({ 'save-plan': true });
    expect(await runStatus(f, run.id)).toBe('planned_and_saved');
    expect((await f.api.post(`${P}/runs/${run.id}/actions/apply`, undefined, { token: f.owner.token })).status).toBe(
      202,
    );
    expect((await confirmedBy(run.id)).data).toEqual({ type: 'users', id: f.owner.userId });
  });
});
