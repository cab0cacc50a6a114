import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_STATUSES } from '../../src/domain/runs/run.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { freshPostgresSchema } from '../helpers/store.js';

/**
 * Issue 34: on PostgreSQL with several `berth serve --execute-runs` instances, each run executes
 * exactly once. Two real instances share one database; 50 auto-apply runs (two on each of 25
 * workspaces, so that each workspace's queue moves on across instances) of a small
 * `terraform_data` configuration are queued through both at once, and executed by the real
 * terraform. The test waits for every run to end (polling the API, under a generous bound; no
 * timing is asserted), then checks that every run applied, that each phase was claimed and
 * executed once (one start mark and one header in its log, one claimer seen per phase), that each
 * run wrote one state version, that each workspace's state is its second run's, and that both
 * instances executed runs.
 */
const WORKSPACES = 25;
const RUNS_PER_WORKSPACE = 2;
/** The overall bound: terraform runs take seconds each on a loaded machine; this is far beyond. */
const BOUND_MS = 20 * 60_000;

describe('runs executed by two serve instances on one PostgreSQL database', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let client: pg.Client;
  let dir: string;

  const call = async (server: ServeProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, text, body: parsed };
  };

  /** A `tar.gz` of one `main.tf` whose marker is `marker`. */
  const archive = (marker: string): Buffer => {
    const src = join(dir, marker);
    mkdirSync(src);
    writeFileSync(
      join(src, 'main.tf'),
      `resource "terraform_data" "marker" {\n  input = "${marker}"\n}\n\noutput "marker" {\n  value = terraform_data.marker.output\n}\n`,
    );
    const file = join(dir, `${marker}.tar.gz`);
    create({ gzip: true, cwd: src, sync: true, file }, ['main.tf']);
    return readFileSync(file);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-two-instances-'));
    schema = await freshPostgresSchema();
    // A heartbeat bound far beyond any pause of a loaded machine: this test is not about recovery.
    const args = ['--execute-runs', '--run-concurrency', '2', '--run-heartbeat-timeout', '600'];
    [a, b] = await Promise.all([startServe(schema.url, args), startServe(schema.url, args)]);
    const tokens = [a.token, b.token].filter((t): t is string => t !== null);
    expect(tokens).toHaveLength(1);
    token = tokens[0]!;
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await a?.stop();
    await b?.stop();
    await schema?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'executes each of 50 queued runs exactly once, to applied, on both instances',
    async () => {
      const org = await call(a, 'POST', '/api/v2/organizations', {
        data: { type: 'organizations', attributes: { name: 'shared-runs', email: 'runs@x.test' } },
      });
      expect(org.status, org.text).toBe(201);

      // The workspaces (any terraform: the one on the PATH) and their uploaded configurations
      // first, through both instances...
      const planned: { ws: string; cv: string; marker: string; server: ServeProcess }[] = [];
      const workspaces: string[] = [];
      for (let i = 0; i < WORKSPACES; i++) {
        const server = i % 2 === 0 ? a : b;
        const ws = await call(server, 'POST', '/api/v2/organizations/shared-runs/workspaces', {
          data: { type: 'workspaces', attributes: { name: `ws-${i}`, 'terraform-version': 'latest' } },
        });
        expect(ws.status, ws.text).toBe(201);
        workspaces.push(ws.body.data.id);
        for (let k = 1; k <= RUNS_PER_WORKSPACE; k++) {
          const cv = await call(server, 'POST', `/api/v2/workspaces/${ws.body.data.id}/configuration-versions`, {
            data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
          });
          expect(cv.status, cv.text).toBe(201);
          const marker = `ws-${i}-run-${k}`;
          const up = await fetch(cv.body.data.attributes['upload-url'], {
            method: 'PUT',
            headers: { 'Content-Type': 'application/octet-stream' },
            body: archive(marker),
          });
          expect(up.status, await up.text()).toBe(200);
          planned.push({ ws: ws.body.data.id, cv: cv.body.data.id, marker, server: k % 2 === 1 ? a : b });
        }
      }

      // ...then the 50 runs, queued through both instances (each workspace's in order).
      const runs: { id: string; ws: string; marker: string }[] = [];
      for (const p of planned) {
        const res = await call(p.server, 'POST', '/api/v2/runs', {
          data: {
            type: 'runs',
            attributes: { 'auto-apply': true, message: p.marker },
            relationships: {
              workspace: { data: { type: 'workspaces', id: p.ws } },
              'configuration-version': { data: { type: 'configuration-versions', id: p.cv } },
            },
          },
        });
        expect(res.status, res.text).toBe(201);
        runs.push({ id: res.body.data.id, ws: p.ws, marker: p.marker });
      }
      expect(runs).toHaveLength(WORKSPACES * RUNS_PER_WORKSPACE);

      // Wait until every run is final, looking at who holds each executing phase meanwhile.
      const claimers = new Map<string, Set<string>>();
      const status = new Map<string, string>();
      const deadline = Date.now() + BOUND_MS;
      for (;;) {
        const rows = (
          await client.query<{ id: string; status: string; claimed_by: string | null }>(
            "select id, status, claimed_by from runs where status in ('planning', 'applying')",
          )
        ).rows;
        for (const r of rows) {
          const key = `${r.id} ${r.status}`;
          if (!claimers.has(key)) claimers.set(key, new Set());
          if (r.claimed_by) claimers.get(key)!.add(r.claimed_by);
        }
        for (const run of runs) {
          if (FINAL_STATUSES.includes(status.get(run.id) as never)) continue;
          const res = await call(run.id.length % 2 === 0 ? a : b, 'GET', `/api/v2/runs/${run.id}`);
          expect(res.status, res.text).toBe(200);
          status.set(run.id, res.body.data.attributes.status);
        }
        const open = runs.filter((r) => !FINAL_STATUSES.includes(status.get(r.id) as never));
        if (open.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(
            `${open.length} runs not final after ${BOUND_MS} ms: ${open.map((r) => `${r.id} ${status.get(r.id)}`).join(', ')}\n` +
              `instance a:\n${a.stderr()}\ninstance b:\n${b.stderr()}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }

      // Every run applied (a run that did not says why, with its logs).
      for (const run of runs) {
        if (status.get(run.id) === 'applied') continue;
        const doc = (await call(a, 'GET', `/api/v2/runs/${run.id}`)).body.data;
        throw new Error(`run ${run.id} (${run.marker}) ended ${status.get(run.id)}: ${JSON.stringify(doc.attributes)}`);
      }

      // Each phase was claimed once and executed once: its log has one start mark (written by
      // the claim) and one header (written by the executor as it starts the phase).
      for (const run of runs) {
        const doc = (await call(b, 'GET', `/api/v2/runs/${run.id}`)).body.data;
        for (const phase of ['plan', 'apply'] as const) {
          const rel = doc.relationships[phase].data.id;
          const phaseDoc = (await call(a, 'GET', `/api/v2/${phase === 'plan' ? 'plans' : 'applies'}/${rel}`)).body.data;
          expect(phaseDoc.attributes.status, `${run.id} ${phase}`).toBe('finished');
          const log = await (await fetch(phaseDoc.attributes['log-read-url'])).text();
          const count = (needle: string) => log.split(needle).length - 1;
          expect(count('\x02'), `${run.id} ${phase} log:\n${log}`).toBe(1);
          expect(count(`Terraform run ${run.id} (${phase})`), `${run.id} ${phase} log:\n${log}`).toBe(1);
          expect(log.endsWith('\x03')).toBe(true);
        }
      }
      // No phase was seen held by two executors.
      for (const [key, who] of claimers) expect(who.size, key).toBeLessThanOrEqual(1);

      // Each run wrote one state version; each workspace holds its two runs' states, the second's current.
      const versions = (
        await client.query<{ created_by_id: string; n: number }>(
          "select created_by_id, count(*)::int as n from state_versions where created_by_kind = 'runs' group by created_by_id",
        )
      ).rows;
      expect(Object.fromEntries(versions.map((v) => [v.created_by_id, v.n]))).toEqual(
        Object.fromEntries(runs.map((r) => [r.id, 1])),
      );
      for (const [i, ws] of workspaces.entries()) {
        const outputs = await call(
          i % 2 === 0 ? b : a,
          'GET',
          `/api/v2/workspaces/${ws}/current-state-version-outputs`,
        );
        expect(outputs.status, outputs.text).toBe(200);
        const marker = outputs.body.data.find((o: any) => o.attributes.name === 'marker');
        expect(marker?.attributes.value, outputs.text).toBe(`ws-${i}-run-${RUNS_PER_WORKSPACE}`);
      }

      // Both instances executed runs: the executors named in the claims are one of each process.
      const final = (
        await client.query<{ claimed_by: string }>('select claimed_by from runs where claimed_by is not null')
      ).rows.map((r) => r.claimed_by);
      const executors = new Set([...final, ...[...claimers.values()].flatMap((s) => [...s])]);
      const of = (server: ServeProcess) => [...executors].filter((e) => e.includes(`-${server.child.pid}-`));
      expect(of(a).length, [...executors].join(', ')).toBe(1);
      expect(of(b).length, [...executors].join(', ')).toBe(1);
      expect(executors.size).toBe(2);
      expect(final).toHaveLength(runs.length);
    },
    BOUND_MS + 120_000,
  );
});
