import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeActor } from '../../../src/domain/permissions/actor.js';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import type { RunnerPort } from '../../../src/runner/port.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import { TestClock } from '../../helpers/clock.js';
import {
  EXECUTING,
  P,
  PLANNED_CHANGES,
  finish,
  newConfiguration,
  queueRun,
  runStatus,
} from '../../helpers/run-execution.js';

/**
 * The run token (issues 34 and 35): minted when the executor claims a phase, it reads and writes
 * its own workspace's state and reads the states of the workspaces that share theirs with its
 * workspace (global-remote-state, or an approved consumer), in its organization; everything else
 * answers 404. It works only while its phase lasts.
 */

const STATE = readFileSync(new URL('../../fixtures/state-module.json', import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const svBody = (attributes: Record<string, unknown>) => ({ data: { type: 'state-versions', attributes } });
const TTL_MS = 10 * 60_000;

describe('run tokens', () => {
  let clock: TestClock;
  let api: TestApi;
  let f: AccessFixture;
  let port: RunnerPort;
  const owner = () => ({ token: f.owner.token });

  async function workspace(name: string, attributes: Record<string, unknown> = {}, org = 'acme'): Promise<string> {
    const res = await api.post(
      `${P}/organizations/${org}/workspaces`,
      { data: { type: 'workspaces', attributes: { name, ...attributes } } },
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  /** Gives workspace `id` a current state (the fixture's, with its outputs). */
  async function pushState(id: string): Promise<string> {
    expect((await api.post(`${P}/workspaces/${id}/actions/lock`, {}, owner())).status).toBe(200);
    const res = await api.post(
      `${P}/workspaces/${id}/state-versions`,
      svBody({ serial: 1, md5: md5(STATE), state: STATE.toString('base64') }),
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    expect((await api.post(`${P}/workspaces/${id}/actions/unlock`, undefined, owner())).status).toBe(200);
    return res.body.data.id;
  }

  /** Queues a run of `ws` and claims its plan as the executor does: answers the run and its token. */
  async function claimedRun(ws: string): Promise<{ runId: string; token: string }> {
    await newConfiguration(f, ws);
    const run = await queueRun(f, ws);
    const claimed = await port.claim('test-executor');
    expect(claimed?.runId).toBe(run.id);
    return { runId: run.id, token: claimed!.token };
  }

  let ids: { web: string; producer: string; global: string; private: string; foreign: string };
  let run: { runId: string; token: string };
  const as = () => ({ token: run.token });

  beforeEach(async () => {
    clock = new TestClock();
    api = await TestApi.create({ settings: EXECUTING, clock });
    await approvedConsumersOnly(api);
    f = await accessFixture(api);
    port = inProcessPort(api.store.db, clock, { runTokenTtlMs: TTL_MS });
    expect((await api.createOrg('other', f.owner.token)).status).toBe(201);
    ids = {
      web: f.web,
      producer: await workspace('producer'),
      global: await workspace('global', { 'global-remote-state': true }),
      private: await workspace('private'),
      foreign: await workspace('foreign', { 'global-remote-state': true }, 'other'),
    };
    for (const id of Object.values(ids)) await pushState(id);
    // producer approves web as a consumer; private approves nobody.
    const added = await api.post(
      `${P}/workspaces/${ids.producer}/relationships/remote-state-consumers`,
      { data: [{ type: 'workspaces', id: ids.web }] },
      owner(),
    );
    expect(added.status, added.text).toBe(204);
    run = await claimedRun(ids.web);
  });
  afterEach(() => api.close());

  /** Every read a run makes of a workspace's state, by id and by name. */
  const stateReads = (id: string, name: string, org = 'acme') => [
    `${P}/workspaces/${id}`,
    `${P}/organizations/${org}/workspaces/${name}`,
    `${P}/workspaces/${id}/current-state-version`,
    `${P}/workspaces/${id}/current-state-version-outputs`,
    `${P}/workspaces/${id}/state-versions`,
    `${P}/state-versions?filter[organization][name]=${org}&filter[workspace][name]=${name}`,
  ];

  it('reads its own workspace, its state versions, outputs and state content', async () => {
    for (const path of stateReads(ids.web, 'web')) {
      const res = await api.get(path, as());
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    const current = (await api.get(`${P}/workspaces/${ids.web}/current-state-version`, as())).body.data;
    expect((await api.get(`${P}/state-versions/${current.id}`, as())).status).toBe(200);
    const outputs = await api.get(`${P}/state-versions/${current.id}/outputs`, as());
    expect(outputs.status, outputs.text).toBe(200);
    expect(outputs.body.data.length).toBeGreaterThan(0);
    expect((await api.get(`${P}/state-version-outputs/${outputs.body.data[0].id}`, as())).status).toBe(200);
    const url = new URL(current.attributes['hosted-state-download-url']);
    const content = await api.get(url.pathname + url.search, { token: null });
    expect(content.status).toBe(200);
    expect(Buffer.from(content.text).equals(STATE)).toBe(true);
    // The organization's entitlements (the `remote` backend reads them first).
    expect((await api.get(`${P}/organizations/acme/entitlement-set`, as())).status).toBe(200);
  });

  it("an apply's token creates a state version on its own workspace under its run lock; the audit record names the run", async () => {
    await finish(f, run.runId, 'plan', PLANNED_CHANGES);
    expect((await api.post(`${P}/runs/${run.runId}/actions/apply`, {}, owner())).status).toBe(202);
    const apply = await port.claim('test-executor');
    expect(apply).toMatchObject({ runId: run.runId, phase: 'apply' });
    run = { runId: run.runId, token: apply!.token };
    const res = await api.post(
      `${P}/workspaces/${ids.web}/state-versions`,
      svBody({ serial: 2, md5: md5(STATE), state: STATE.toString('base64') }),
      as(),
    );
    expect(res.status, res.text).toBe(201);
    const trail = await api.get(`${P}/organizations/acme/audit-trail?page[size]=100`, owner());
    expect(trail.status, trail.text).toBe(200);
    const record = trail.body.data.find(
      (e: any) => e.attributes['actor-kind'] === 'run' && e.attributes.action === 'state-version.create',
    );
    expect(record?.attributes).toMatchObject({ 'actor-id': run.runId, 'actor-name': run.runId });
    expect(trail.text).not.toContain(run.token);
    // It may neither lock nor unlock: the run's lock is released when the run ends.
    expect((await api.post(`${P}/workspaces/${ids.web}/actions/unlock`, undefined, as())).status).toBe(404);
    expect((await api.get(`${P}/workspaces/${ids.web}`, owner())).body.data.attributes.locked).toBe(true);
  });

  it("reads another workspace's state when it lists the run's workspace as a consumer, or with global-remote-state", async () => {
    for (const [id, name] of [
      [ids.producer, 'producer'],
      [ids.global, 'global'],
    ]) {
      for (const path of stateReads(id, name)) {
        const res = await api.get(path, as());
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
      const current = (await api.get(`${P}/workspaces/${id}/current-state-version`, as())).body.data;
      expect((await api.get(`${P}/state-versions/${current.id}/outputs`, as())).status).toBe(200);
      // Reading is all: no state version may be written there.
      const write = await api.post(
        `${P}/workspaces/${id}/state-versions`,
        svBody({ serial: 2, md5: md5(STATE), state: STATE.toString('base64') }),
        as(),
      );
      expect(write.status).toBe(404);
    }
  });

  it('refuses (404) a workspace that does not share its state, and every workspace of another organization', async () => {
    const refused = [
      ...stateReads(ids.private, 'private'),
      ...stateReads(ids.foreign, 'foreign', 'other'),
      `${P}/organizations/other/entitlement-set`,
    ];
    for (const path of refused) {
      const res = await api.get(path, as());
      expect(res.status, `${path}: ${res.text}`).toBe(404);
    }
    // By the id of one of its versions too.
    const privateVersion = (await api.get(`${P}/workspaces/${ids.private}/current-state-version`, owner())).body.data;
    expect((await api.get(`${P}/state-versions/${privateVersion.id}`, as())).status).toBe(404);
    expect((await api.get(`${P}/state-versions/${privateVersion.id}/outputs`, as())).status).toBe(404);
    // Once private lists web as a consumer, the same reads work; removed again, they stop.
    const consumers = `${P}/workspaces/${ids.private}/relationships/remote-state-consumers`;
    const body = { data: [{ type: 'workspaces', id: ids.web }] };
    expect((await api.post(consumers, body, owner())).status).toBe(204);
    expect((await api.get(`${P}/workspaces/${ids.private}/current-state-version`, as())).status).toBe(200);
    expect((await api.delete(consumers, { ...owner(), body })).status).toBe(204);
    expect((await api.get(`${P}/workspaces/${ids.private}/current-state-version`, as())).status).toBe(404);
  });

  it('refuses (404) every other resource and every other write', async () => {
    const reads = [
      `${P}/organizations/acme`,
      `${P}/organizations/acme/workspaces`,
      `${P}/organizations/acme/projects`,
      `${P}/organizations/acme/teams`,
      `${P}/organizations/acme/audit-trail`,
      `${P}/organizations`,
      `${P}/account/details`,
      `${P}/runs/${run.runId}`,
      `${P}/workspaces/${ids.web}/runs`,
      `${P}/workspaces/${ids.producer}/runs`,
      `${P}/workspaces/${ids.web}/relationships/remote-state-consumers`,
      `${P}/workspaces/${ids.web}/resources`,
      `${P}/workspaces/${ids.web}?include=organization`,
      `${P}/projects/${f.alpha}`,
    ];
    for (const path of reads) {
      const res = await api.get(path, as());
      expect(res.status, `${path}: ${res.text}`).toBe(404);
    }
    const writes: [string, string, unknown][] = [
      ['PATCH', `${P}/workspaces/${ids.web}`, { data: { type: 'workspaces', attributes: { description: 'x' } } }],
      ['POST', `${P}/organizations/acme/workspaces`, { data: { type: 'workspaces', attributes: { name: 'new' } } }],
      ['POST', `${P}/workspaces/${ids.web}/actions/lock`, {}],
      ['POST', `${P}/runs/${run.runId}/actions/cancel`, {}],
      ['POST', `${P}/workspaces/${ids.web}/configuration-versions`, { data: { type: 'configuration-versions' } }],
      ['DELETE', `${P}/workspaces/${ids.private}`, undefined],
      ['POST', `${P}/organizations/acme/teams`, { data: { type: 'teams', attributes: { name: 'sneaky' } } }],
    ];
    for (const [method, path, body] of writes) {
      const res = await api.request(method, path, { body, token: run.token });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    // Nothing changed.
    expect((await api.get(`${P}/workspaces/${ids.private}`, owner())).status).toBe(200);
    expect((await api.get(`${P}/organizations/acme/workspaces/new`, owner())).status).toBe(404);
    expect(await runStatus(f, run.runId)).toBe('planning');
  });

  it('works only while its phase lasts: not after the plan ended; the apply has a token of its own', async () => {
    const own = `${P}/workspaces/${ids.web}`;
    expect((await api.get(own, as())).status).toBe(200);
    await finish(f, run.runId, 'plan', PLANNED_CHANGES);
    expect(await runStatus(f, run.runId)).toBe('planned');
    expect((await api.get(own, as())).status).toBe(401);
    expect((await api.post(`${P}/runs/${run.runId}/actions/apply`, {}, owner())).status).toBe(202);
    const apply = await port.claim('test-executor');
    expect(apply).toMatchObject({ runId: run.runId, phase: 'apply' });
    expect(apply!.token).not.toBe(run.token);
    expect((await api.get(own, { token: apply!.token })).status).toBe(200);
    expect((await api.get(own, as())).status).toBe(401);
    await finish(f, run.runId, 'apply', { outcome: 'finished', counts: { additions: 1, changes: 0, destructions: 0 } });
    expect((await api.get(own, { token: apply!.token })).status).toBe(401);
  });

  it('is refused once the run is asked to cancel, and once the run time limit passed', async () => {
    const own = `${P}/workspaces/${ids.web}`;
    expect((await api.post(`${P}/runs/${run.runId}/actions/cancel`, {}, owner())).status).toBe(202);
    expect((await api.get(own, as())).status).toBe(401);

    const other = await workspace('timed');
    await pushState(other);
    await finish(f, run.runId, 'plan', { outcome: 'canceled' });
    const timed = await claimedRun(other);
    expect((await api.get(`${P}/workspaces/${other}`, { token: timed.token })).status).toBe(200);
    clock.advance(TTL_MS);
    expect((await api.get(`${P}/workspaces/${other}`, { token: timed.token })).status).toBe(401);
  });

  it('is stored hashed, acts as the run, and is told apart from other tokens', async () => {
    const rows = await api.store.db.selectFrom('run_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ run_id: run.runId, workspace_id: ids.web, phase: 'plan' });
    expect(JSON.stringify(rows)).not.toContain(run.token.split('.').slice(1).join('.'));
    expect(rows[0].token_hash).toBe(createHash('sha256').update(run.token).digest('hex'));
    expect(
      describeActor({
        kind: 'run',
        tokenId: rows[0].id,
        runId: run.runId,
        workspaceId: ids.web,
        organizationId: 'x',
        phase: 'plan',
      }),
    ).toBe(`run ${run.runId}`);
    // A made-up token of the same shape is refused like any unknown token.
    expect((await api.get(`${P}/workspaces/${ids.web}`, { token: `${run.token}x` })).status).toBe(401);
  });

  it("a person's own token keeps the access of their teams", async () => {
    for (const path of [`${P}/organizations/acme/workspaces`, `${P}/workspaces/${ids.private}/current-state-version`])
      expect((await api.get(path, owner())).status).toBe(200);
  });
});
