import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { EXECUTING, newConfiguration, now, P, runBody } from '../../helpers/run-execution.js';

/**
 * Run attributes HCP Terraform takes that berth used to drop: `terraform-version` (a plan-only
 * run's, stored and answered; refused with a 422 unless plan-only, an exact version, and the
 * version serve's terraform is) and `policy-paths` (refused: berth evaluates no policies).
 */
describe('a run’s terraform-version and policy-paths', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    // serve found Terraform 1.11.4 (the version it asked its binary at start-up).
    f = await accessFixture(await TestApi.create({ settings: { ...EXECUTING, terraformVersion: '1.11.4' } }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const create = (attributes: Record<string, unknown>, ws = f.web) =>
    f.api.post(`${P}/runs`, runBody(ws, attributes), { token: f.owner.token });
  const refusal = (res: Awaited<ReturnType<typeof create>>) => {
    expect(res.status, res.text).toBe(422);
    return { pointer: res.body.errors[0].source?.pointer, detail: res.body.errors[0].detail as string };
  };

  it('a plan-only run with the executor’s version: stored, answered, and what the claim asks the executor for', async () => {
    const res = await create({ 'plan-only': true, 'terraform-version': '1.11.4' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ 'plan-only': true, 'terraform-version': '1.11.4' });
    expect(
      (await f.api.get(`${P}/runs/${res.body.data.id}`, { token: f.owner.token })).body.data.attributes,
    ).toMatchObject({ 'terraform-version': '1.11.4' });
    // The workspace asks for another (its own setting): the run's version is what executes.
    const patched = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': '1.9.0' } } },
      { token: f.owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const claimed = await claimRun(f.api.store.db, 'test-executor', now());
    expect(claimed).toMatchObject({ runId: res.body.data.id, terraformVersion: '1.11.4', terraformVersionOf: 'run' });
  });

  it('a run without one answers null, and its claim asks for the workspace’s version', async () => {
    const res = await create({ 'plan-only': true });
    expect(res.body.data.attributes['terraform-version']).toBeNull();
    const claimed = await claimRun(f.api.store.db, 'test-executor', now());
    expect(claimed?.terraformVersionOf).toBeUndefined();
    expect(claimed?.terraformVersion).toBe(
      (await f.api.get(`${P}/workspaces/${f.web}`, { token: f.owner.token })).body.data.attributes['terraform-version'],
    );
  });

  it('a speculative configuration version makes the run plan-only: its version is taken', async () => {
    const cv = await newConfiguration(f, f.web, { speculative: true });
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { 'terraform-version': '1.11.4' }, cv.id), {
      token: f.owner.token,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ 'plan-only': true, 'terraform-version': '1.11.4' });
  });

  it('refused with a 422 at /data/attributes/terraform-version: not plan-only, not an exact version, not the executor’s', async () => {
    const notPlanOnly = refusal(await create({ 'terraform-version': '1.11.4' }));
    expect(notPlanOnly).toEqual({
      pointer: '/data/attributes/terraform-version',
      detail: expect.stringContaining('only valid for plan-only runs'),
    });
    for (const version of ['~> 1.11', 'latest', '1.11'])
      expect(refusal(await create({ 'plan-only': true, 'terraform-version': version })).detail).toContain(
        'must be an exact Terraform version',
      );
    const other = refusal(await create({ 'plan-only': true, 'terraform-version': '1.0.0' }));
    expect(other).toEqual({
      pointer: '/data/attributes/terraform-version',
      detail: "berth executes this workspace's runs with Terraform 1.11.4 only: a run cannot ask for 1.0.0",
    });
    expect(refusal(await create({ 'plan-only': true, 'terraform-version': 42 })).pointer).toBe(
      '/data/attributes/terraform-version',
    );
    // Nothing was made.
    const runs = await f.api.get(`${P}/workspaces/${f.web}/runs`, { token: f.owner.token });
    expect(runs.body.data).toEqual([]);
  });

  it('a recorded run is no plan-only run: a terraform-version is refused, not dropped', async () => {
    const res = await create({ recorded: true, 'terraform-version': '1.11.4' });
    expect(refusal(res).pointer).toBe('/data/attributes/terraform-version');
  });

  it('an agent workspace’s run may name another version: the agent checks it when it claims the run', async () => {
    const pool = await f.api.post(
      `${P}/organizations/acme/agent-pools`,
      { data: { type: 'agent-pools', attributes: { name: 'builders' } } },
      { token: f.owner.token },
    );
    expect(pool.status, pool.text).toBe(201);
    const ws = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      {
        data: {
          type: 'workspaces',
          attributes: { name: 'on-agents', 'execution-mode': 'agent', 'agent-pool-id': pool.body.data.id },
        },
      },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(201);
    await newConfiguration(f, ws.body.data.id);
    const res = await create({ 'plan-only': true, 'terraform-version': '1.0.0' }, ws.body.data.id);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes['terraform-version']).toBe('1.0.0');
  });

  it('policy-paths: refused with a 422 (berth evaluates no policies); none, null or [] asks nothing', async () => {
    for (const attributes of [{ 'policy-paths': ['./policies'] }, { recorded: true, 'policy-paths': ['./p'] }]) {
      const r = refusal(await create(attributes));
      expect(r).toEqual({
        pointer: '/data/attributes/policy-paths',
        detail: expect.stringContaining('berth evaluates no policies'),
      });
    }
    expect(refusal(await create({ 'policy-paths': 'policies' })).detail).toBe('must be a list of paths');
    for (const paths of [null, []])
      expect((await create({ 'plan-only': true, 'policy-paths': paths })).status).toBe(201);
  });
});
