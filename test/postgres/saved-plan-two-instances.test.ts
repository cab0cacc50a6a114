import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { freshPostgresSchema } from '../helpers/store.js';

/**
 * On PostgreSQL, a run planned by one `berth serve` instance is applied by another (the first one
 * stopped meanwhile) with the plan the first one saved (migration 035, a `bytea` column): the
 * workspace variable its `terraform_data` takes is changed between the plan and the apply, and the
 * applied state holds the planned value. No timing is asserted: every wait is for a status.
 */
const BOUND_MS = 5 * 60_000;

describe('a run planned on one serve instance and applied on another (PostgreSQL)', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let a: ServeProcess | null = null;
  let b: ServeProcess | null = null;
  let token: string;
  let client: pg.Client;
  let dir: string;
  const args = ['--execute-runs', '--run-heartbeat-timeout', '600'];

  const call = async (server: ServeProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  };
  const until = async (server: ServeProcess, runId: string, statuses: string[]) => {
    const deadline = Date.now() + BOUND_MS;
    for (;;) {
      const doc = (await call(server, 'GET', `/runs/${runId}`)).body.data;
      if (statuses.includes(doc.attributes.status)) return doc;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${doc.attributes.status}:\n${server.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const savedPlans = async () =>
    (
      await client.query<{ run_id: string; size: number; n: number }>(
        'select run_id, size, octet_length(body) as n from saved_plans',
      )
    ).rows;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-saved-plan-pg-'));
    schema = await freshPostgresSchema();
    a = await startServe(schema.url, args);
    token = a.token!;
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
    'applies the plan the first instance saved, though a variable changed since',
    async () => {
      const org = await call(a!, 'POST', '/organizations', {
        data: { type: 'organizations', attributes: { name: 'saved-plans', email: 'plans@x.test' } },
      });
      expect(org.status, org.text).toBe(201);
      const ws = await call(a!, 'POST', '/organizations/saved-plans/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'app', 'terraform-version': 'latest' } },
      });
      expect(ws.status, ws.text).toBe(201);
      const wsId = ws.body.data.id as string;
      const variable = await call(a!, 'POST', `/workspaces/${wsId}/vars`, {
        data: { type: 'vars', attributes: { key: 'v', value: 'planned', category: 'terraform' } },
      });
      expect(variable.status, variable.text).toBe(201);
      const src = join(dir, 'src');
      mkdirSync(src);
      writeFileSync(
        join(src, 'main.tf'),
        'variable "v" {\n  type = string\n}\n\nresource "terraform_data" "x" {\n  input = var.v\n}\n\n' +
          'output "v" {\n  value = terraform_data.x.output\n}\n',
      );
      create({ gzip: true, cwd: src, sync: true, file: join(dir, 'config.tar.gz') }, ['main.tf']);
      const cv = await call(a!, 'POST', `/workspaces/${wsId}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
      });
      expect(cv.status, cv.text).toBe(201);
      const up = await fetch(cv.body.data.attributes['upload-url'], {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: readFileSync(join(dir, 'config.tar.gz')),
      });
      expect(up.status, await up.text()).toBe(200);
      const run = await call(a!, 'POST', '/runs', {
        data: {
          type: 'runs',
          attributes: {},
          relationships: { workspace: { data: { type: 'workspaces', id: wsId } } },
        },
      });
      expect(run.status, run.text).toBe(201);
      const runId = run.body.data.id as string;

      const planned = await until(a!, runId, ['planned', 'errored']);
      expect(planned.attributes.status, planned.attributes['error-message']).toBe('planned');
      expect(planned.attributes['executed-by'].name).toContain(`-${a!.child.pid}-`);
      await a!.stop();
      a = null;
      const [row] = await savedPlans();
      expect(row).toMatchObject({ run_id: runId, size: row.n });
      expect(row.n).toBeGreaterThan(0);

      b = await startServe(schema.url, args);
      const changed = await call(b, 'PATCH', `/workspaces/${wsId}/vars/${variable.body.data.id}`, {
        data: { type: 'vars', attributes: { value: 'changed' } },
      });
      expect(changed.status, changed.text).toBe(200);
      expect((await call(b, 'POST', `/runs/${runId}/actions/apply`)).status).toBe(202);
      const applied = await until(b, runId, ['applied', 'errored']);
      expect(applied.attributes.status, applied.attributes['error-message']).toBe('applied');
      expect(applied.attributes['executed-by'].name).toContain(`-${b.child.pid}-`);
      const outputs = await call(b, 'GET', `/workspaces/${wsId}/current-state-version-outputs`);
      expect(outputs.body.data.find((o: any) => o.attributes.name === 'v')?.attributes.value, outputs.text).toBe(
        'planned',
      );
      expect(await savedPlans()).toEqual([]);
    },
    BOUND_MS + 60_000,
  );
});
