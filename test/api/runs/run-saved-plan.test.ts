import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/domain/common/clock.js';
import { BerthError } from '../../../src/domain/common/errors.js';
import { MAX_SAVED_PLAN_BYTES } from '../../../src/domain/common/limits.js';
import { Executor, MISSING_PLAN, type ExecutorOptions } from '../../../src/runner/executor.js';
import { HttpPort } from '../../../src/runner/http-port.js';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import type { RunnerPort } from '../../../src/runner/port.js';
import { storeSavedPlan } from '../../../src/services/runs/saved-plans.js';
import type { AccessFixture } from '../../helpers/access.js';
import {
  claim,
  executingFixture,
  finish,
  newConfiguration,
  now,
  P,
  queueRun,
  runStatus,
  sendBytes,
} from '../../helpers/run-execution.js';
import { describeTerraform, TERRAFORM } from '../../helpers/terraform.js';
import { createAgentPool } from '../../helpers/workspaces.js';

/**
 * The apply phase applies exactly the plan that was confirmed (migration 035): the plan phase's
 * saved plan is kept in the database, and the apply, on whichever executor claims it (another
 * serve instance, an agent, the same one after a restart: each phase works in a fresh folder),
 * restores it and applies it. A re-plan is made detectable without the clock: the configuration's
 * `terraform_data` takes a workspace variable, which the test changes between the plan and the
 * apply; the applied state holds the planned value, a new plan the changed one.
 */

const CONFIG =
  'variable "v" {\n  type = string\n}\n\nresource "terraform_data" "x" {\n  input = var.v\n}\n\n' +
  'output "v" {\n  value = terraform_data.x.output\n}\n';

describeTerraform('the saved plan of an executed run, with the real terraform', () => {
  let f: AccessFixture;
  let dir: string;
  const executors: Executor[] = [];
  const t = () => ({ token: f.owner.token });
  const db = () => f.api.store.db;

  const uploadConfiguration = async (ws: string) => {
    const src = join(dir, `src-${ws}`);
    mkdirSync(src);
    writeFileSync(join(src, 'main.tf'), CONFIG);
    const archive = join(dir, `${ws}.tar.gz`);
    create({ gzip: true, cwd: src, sync: true, file: archive }, ['main.tf']);
    const cv = await newConfiguration(f, ws, { upload: false });
    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], readFileSync(archive));
    expect(up.status, up.text).toBe(200);
  };
  /** The workspace's variable `v` (created, or changed to `value`). */
  const setVariable = async (ws: string, value: string) => {
    const vars = `${P}/workspaces/${ws}/vars`;
    const existing = (await f.api.get(vars, t())).body.data.find((v: any) => v.attributes.key === 'v');
    const body = { data: { type: 'vars', attributes: { key: 'v', value, category: 'terraform' } } };
    const res = existing ? await f.api.patch(`${vars}/${existing.id}`, body, t()) : await f.api.post(vars, body, t());
    expect(res.status, res.text).toBe(existing ? 200 : 201);
  };
  const startExecutor = (port: RunnerPort, options: Partial<ExecutorOptions> = {}) => {
    const executor = new Executor(port, {
      terraformPath: TERRAFORM!.path,
      pollMs: 50,
      heartbeatTimeoutMs: 600_000,
      ...options,
    });
    executor.start();
    executors.push(executor);
    return executor;
  };
  const inProcess = () => inProcessPort(db(), systemClock);
  /** Waits for the run to reach one of `statuses` (an event; the bound is only against a hang). */
  const until = async (runId: string, statuses: string[]) => {
    await expect
      .poll(() => runStatus(f, runId), { timeout: 100_000, interval: 100 })
      .toSatisfy((s: string) => statuses.includes(s));
    return (await f.api.get(`${P}/runs/${runId}`, t())).body.data;
  };
  const log = async (run: any, phase: 'plan' | 'apply') => {
    const id = run.relationships[phase].data.id;
    const doc = (await f.api.get(`${P}/${phase === 'plan' ? 'plans' : 'applies'}/${id}`, t())).body.data;
    return (await f.api.get(new URL(doc.attributes['log-read-url']).pathname)).text;
  };
  const appliedValue = async (ws: string) => {
    const res = await f.api.get(`${P}/workspaces/${ws}/current-state-version-outputs`, t());
    expect(res.status, res.text).toBe(200);
    return res.body.data.find((o: any) => o.attributes.name === 'v')?.attributes.value;
  };
  const savedPlans = () => db().selectFrom('saved_plans').selectAll().execute();
  const act = async (runId: string, action: string) =>
    expect((await f.api.post(`${P}/runs/${runId}/actions/${action}`, undefined, t())).status).toBe(202);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-saved-plan-'));
    f = await executingFixture();
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } } },
      t(),
    );
    expect(ws.status, ws.text).toBe(200);
  });
  afterEach(async () => {
    for (const e of executors.splice(0)) await e.stop();
    await f.api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plan on one executor, apply on another: the apply applies the confirmed plan, not a new one', async () => {
    await uploadConfiguration(f.web);
    await setVariable(f.web, 'planned');
    const queued = await queueRun(f, f.web);
    const first = startExecutor(inProcess());
    const planned = await until(queued.id, ['planned', 'errored']);
    expect(planned.attributes.status, planned.attributes['error-message']).toBe('planned');
    await first.stop();
    // The plan is in the database, with its size.
    const [row] = await savedPlans();
    expect(row).toMatchObject({ run_id: queued.id, size: row.body.length });
    expect(row.size).toBeGreaterThan(0);

    // What a new plan would pick up changes before the apply.
    await setVariable(f.web, 'changed');
    await act(queued.id, 'apply');
    startExecutor(inProcess());
    const applied = await until(queued.id, ['applied', 'errored']);
    expect(applied.attributes.status, await log(applied, 'apply')).toBe('applied');
    expect(await appliedValue(f.web)).toBe('planned');
    expect(await log(applied, 'apply')).toContain("Applying the plan saved by this run's plan phase");
    // The run ended: its plan is gone.
    expect(await savedPlans()).toEqual([]);

    // The control: a new plan does see the change (so a re-plan at apply time would have shown).
    const again = await queueRun(f, f.web, { 'plan-only': true });
    const replanned = await until(again.id, ['planned_and_finished', 'errored']);
    expect(replanned.attributes.status).toBe('planned_and_finished');
    expect(await log(replanned, 'plan')).toContain('"changed"');
    // A plan-only run keeps no plan.
    expect(await savedPlans()).toEqual([]);
  });

  it('a run without a stored plan (planned before migration 035) ends errored at apply, saying why, and plans nothing', async () => {
    await uploadConfiguration(f.web);
    await setVariable(f.web, 'planned');
    const queued = await queueRun(f, f.web);
    startExecutor(inProcess());
    expect((await until(queued.id, ['planned', 'errored'])).attributes.status).toBe('planned');
    await db().deleteFrom('saved_plans').execute();
    await act(queued.id, 'apply');
    const ended = await until(queued.id, ['applied', 'errored']);
    expect(ended.attributes.status).toBe('errored');
    expect(ended.attributes['error-message']).toBe(MISSING_PLAN);
    const applyLog = await log(ended, 'apply');
    expect(applyLog).toContain(MISSING_PLAN);
    expect(applyLog).not.toContain('terraform_data.x');
    // Nothing was applied; the workspace is free for the next run.
    expect((await f.api.get(`${P}/workspaces/${f.web}/current-state-version`, t())).status).toBe(404);
    expect((await f.api.get(`${P}/workspaces/${f.web}`, t())).body.data.attributes.locked).toBe(false);
  });

  it('a saved plan over the limit ends the plan errored, saying so; nothing is stored', async () => {
    await uploadConfiguration(f.web);
    await setVariable(f.web, 'planned');
    const queued = await queueRun(f, f.web);
    startExecutor(inProcess(), { maxSavedPlanBytes: 100 });
    const ended = await until(queued.id, ['planned', 'errored']);
    expect(ended.attributes.status).toBe('errored');
    expect(ended.attributes['error-message']).toMatch(
      /^The saved plan is \d+ bytes, more than the 100 bytes berth stores between a plan and its apply/,
    );
    expect(await log(ended, 'plan')).toContain('more than the 100 bytes berth stores');
    expect(await savedPlans()).toEqual([]);
    expect((await f.api.get(`${P}/workspaces/${f.web}`, t())).body.data.attributes.locked).toBe(false);
  });

  it('a JSON plan over its limit is not kept, saying so; the run plans and applies all the same', async () => {
    await uploadConfiguration(f.web);
    await setVariable(f.web, 'planned');
    const queued = await queueRun(f, f.web, { 'auto-apply': true });
    startExecutor(inProcess(), { maxPlanJsonBytes: 100 });
    const ended = await until(queued.id, ['applied', 'errored']);
    expect(ended.attributes.status, await log(ended, 'plan')).toBe('applied');
    expect(await log(ended, 'plan')).toMatch(/The plan is not kept as JSON: .* more than the 100 bytes berth keeps/);
    const planId = `plan-${queued.id.slice('run-'.length)}`;
    expect((await f.api.get(`${P}/plans/${planId}/json-output`, t())).status).toBe(404);
    expect(await appliedValue(f.web)).toBe('planned');
  });

  it('agents: one agent plans and uploads the plan, another downloads and applies it', async () => {
    const pool = await createAgentPool(f.api, 'acme', 'builders');
    const onPool = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'execution-mode': 'agent', 'agent-pool-id': pool } } },
      t(),
    );
    expect(onPool.status, onPool.text).toBe(200);
    const tokenRes = await f.api.post(
      `${P}/agent-pools/${pool}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'test' } } },
      t(),
    );
    const token = tokenRes.body.data.attributes.token as string;
    // The agent protocol over the app itself (no socket), as `berth agent` calls it.
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) =>
      f.api.app.fetch(new Request(input, init))) as typeof fetch;
    const agent = async (name: string) => {
      const port = new HttpPort('http://berth.test', token, fetchImpl, 1);
      const reg = await port.register(name);
      return { port, reg };
    };

    await uploadConfiguration(f.web);
    await setVariable(f.web, 'planned');
    const queued = await queueRun(f, f.web);
    const one = await agent('planner');
    const first = startExecutor(one.port, { name: one.reg.id, apiUrl: 'http://berth.test' });
    expect((await until(queued.id, ['planned', 'errored'])).attributes.status).toBe('planned');
    await first.stop();
    expect((await savedPlans()).map((p) => p.run_id)).toEqual([queued.id]);
    // The agent handed over the plan as JSON too (PUT /runs/:id/plan-json): the CLI's redacted plan.
    const planId = `plan-${queued.id.slice('run-'.length)}`;
    const redacted = await f.api.get(`${P}/plans/${planId}/json-output-redacted`, t());
    expect(redacted.status, redacted.text).toBe(200);
    const doc = JSON.parse(redacted.text);
    expect(doc.resource_changes.map((rc: any) => [rc.address, rc.change.actions, rc.change.after.input])).toEqual([
      ['terraform_data.x', ['create'], 'planned'],
    ]);
    expect(Object.keys(doc.provider_schemas)).toEqual(['terraform.io/builtin/terraform']);

    await setVariable(f.web, 'changed');
    await act(queued.id, 'apply');
    const two = await agent('applier');
    startExecutor(two.port, { name: two.reg.id, apiUrl: 'http://berth.test' });
    const applied = await until(queued.id, ['applied', 'errored']);
    expect(applied.attributes.status, await log(applied, 'apply')).toBe('applied');
    expect(applied.attributes['executed-by']).toMatchObject({ kind: 'agent', name: 'applier' });
    expect(await appliedValue(f.web)).toBe('planned');
    expect(await savedPlans()).toEqual([]);
  });
});

/** The stored plan's life, driven through the services without terraform. */
describe('the saved plan of an executed run', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const db = () => f.api.store.db;
  const plan = Buffer.from('PK\x03\x04 a saved plan');
  const stored = async () => (await db().selectFrom('saved_plans').select('run_id').execute()).map((r) => r.run_id);
  const act = async (runId: string, action: string) =>
    expect((await f.api.post(`${P}/runs/${runId}/actions/${action}`, undefined, { token: f.owner.token })).status).toBe(
      202,
    );
  /** A run planning, its plan stored. */
  const planning = async (attributes: Record<string, unknown> = {}) => {
    const run = await queueRun(f, f.web, attributes);
    await claim(f, run.id, 'plan');
    await storeSavedPlan(db(), run.id, plan, now());
    expect(await stored()).toEqual([run.id]);
    return run.id as string;
  };

  it('is deleted when the run ends: applied, errored, discarded, canceled, force-canceled, planned and finished', async () => {
    const applied = await planning({ 'auto-apply': true });
    await finish(f, applied, 'plan');
    expect(await stored()).toEqual([applied]);
    await claim(f, applied, 'apply');
    await finish(f, applied, 'apply', { outcome: 'finished' });
    expect(await runStatus(f, applied)).toBe('applied');
    expect(await stored()).toEqual([]);

    const errored = await planning({ 'auto-apply': true });
    await finish(f, errored, 'plan');
    await claim(f, errored, 'apply');
    await finish(f, errored, 'apply', { outcome: 'errored', errorMessage: 'the apply failed' });
    expect(await runStatus(f, errored)).toBe('errored');
    expect(await stored()).toEqual([]);

    const discarded = await planning();
    await finish(f, discarded, 'plan');
    expect(await runStatus(f, discarded)).toBe('planned');
    await act(discarded, 'discard');
    expect(await stored()).toEqual([]);

    const canceled = await planning({ 'auto-apply': true });
    await finish(f, canceled, 'plan');
    expect(await runStatus(f, canceled)).toBe('apply_queued');
    await act(canceled, 'cancel');
    expect(await runStatus(f, canceled)).toBe('canceled');
    expect(await stored()).toEqual([]);

    const forced = await planning();
    await act(forced, 'cancel');
    await act(forced, 'force-cancel');
    expect(await runStatus(f, forced)).toBe('force_canceled');
    expect(await stored()).toEqual([]);

    const empty = await planning();
    await finish(f, empty, 'plan', { outcome: 'finished', hasChanges: false });
    expect(await runStatus(f, empty)).toBe('planned_and_finished');
    expect(await stored()).toEqual([]);
  });

  it('is taken only while the run is planning, and only up to its size limit', async () => {
    const run = await queueRun(f, f.web);
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (err: unknown) => (err instanceof BerthError ? { status: err.status, detail: err.items[0].detail } : err),
      );
    // Queued, not planning: 409.
    expect(await refusal(storeSavedPlan(db(), run.id, plan, now()))).toMatchObject({ status: 409 });
    await claim(f, run.id, 'plan');
    const tooLarge = await refusal(storeSavedPlan(db(), run.id, Buffer.alloc(MAX_SAVED_PLAN_BYTES + 1), now()));
    expect(tooLarge).toEqual({
      status: 413,
      detail: expect.stringContaining(
        `The saved plan is ${MAX_SAVED_PLAN_BYTES + 1} bytes, more than the ${MAX_SAVED_PLAN_BYTES} bytes berth stores`,
      ),
    });
    expect(await stored()).toEqual([]);
    // Stored twice (an executor trying again): the second replaces the first.
    await storeSavedPlan(db(), run.id, Buffer.from('first'), now());
    await storeSavedPlan(db(), run.id, plan, now());
    const rows = await db().selectFrom('saved_plans').selectAll().execute();
    expect(rows.map((r) => [r.run_id, Buffer.from(r.body).equals(plan), r.size])).toEqual([
      [run.id, true, plan.length],
    ]);
    // Once the run ended, nothing more is taken.
    await act(run.id, 'cancel');
    await act(run.id, 'force-cancel');
    expect(await refusal(storeSavedPlan(db(), run.id, plan, now()))).toMatchObject({ status: 409 });
    expect(await stored()).toEqual([]);
  });
});
