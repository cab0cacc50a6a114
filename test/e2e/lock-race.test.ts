import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** Lock requests race across two `berth serve` processes on one database file: one wins. */
describe('locks across two processes on one database file', () => {
  const tmp = tempDb();
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let workspaceId: string;

  const call = (base: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    a = await startServe(tmp.db);
    token = a.token!;
    b = await startServe(tmp.db);
    expect((await call(a.url, 'POST', '/organizations', { data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } } })).status).toBe(201);
    const ws = await call(b.url, 'POST', '/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'contested' } } });
    expect(ws.status).toBe(201);
    workspaceId = ((await ws.json()) as any).data.id;
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    tmp.cleanup();
  });

  it('of 60 concurrent lock requests split over both servers exactly one succeeds, the rest get 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(i % 2 === 0 ? a.url : b.url, 'POST', `/workspaces/${workspaceId}/actions/lock`).then((r) => r.status)),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(59);
    expect(a.stderr() + b.stderr()).not.toMatch(/database is locked|unexpected error/);
  });

  it('both servers then see the workspace locked, and either can unlock it for the holder', async () => {
    for (const server of [a, b]) {
      const doc = (await (await call(server.url, 'GET', `/workspaces/${workspaceId}`)).json()) as any;
      expect(doc.data.attributes.locked).toBe(true);
    }
    expect((await call(b.url, 'POST', `/workspaces/${workspaceId}/actions/unlock`)).status).toBe(200);
    const doc = (await (await call(a.url, 'GET', `/workspaces/${workspaceId}`)).json()) as any;
    expect(doc.data.attributes.locked).toBe(false);
  });
});
