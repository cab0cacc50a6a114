import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * serve's read cache never answers from before a write: not one of its own, not one of another
 * process on the same file (a local CLI), not a token's revocation.
 */
describe('serve: the read cache follows every write', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let wsId: string;
  const local = () => ({ BERTH_DB: tmp.db, BERTH_ORG: 'acme' });
  const get = (path: string, token = server.token!) =>
    fetch(`${server.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], local())).code).toBe(0);
    const ws = await runCli(['workspace', 'create', 'app', '--json'], local());
    wsId = JSON.parse(ws.stdout).id;
    server = await startServe(tmp.db);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('a lock by another process shows on the next GET, and each answer has its own request id', async () => {
    const first = await get(`/workspaces/${wsId}`);
    const again = await get(`/workspaces/${wsId}`);
    expect(((await first.json()) as any).data.attributes.locked).toBe(false);
    expect(((await again.json()) as any).data.attributes.locked).toBe(false);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // The cached answer carries the same headers as the computed one.
    expect([...again.headers.keys()].sort()).toEqual([...first.headers.keys()].sort());
    expect(again.headers.get('content-length')).toBe(first.headers.get('content-length'));
    // Answers of a token are kept by no browser or proxy, from the cache as computed.
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(again.headers.get('cache-control')).toBe('no-store');

    const lock = await runCli(['workspace', 'lock', 'app'], local());
    expect(lock.code, lock.stderr).toBe(0);
    expect(((await (await get(`/workspaces/${wsId}`)).json()) as any).data.attributes.locked).toBe(true);
  });

  it('a write through the server itself shows on the next GET', async () => {
    const res = await fetch(`${server.url}/api/v2/workspaces/${wsId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'workspaces', attributes: { description: 'changed' } } }),
    });
    expect(res.status).toBe(200);
    expect(((await (await get(`/workspaces/${wsId}`)).json()) as any).data.attributes.description).toBe('changed');
  });

  it('a token revoked by another process is refused at once', async () => {
    const minted = await runCli(['token', 'create', '--site-admin', '--json'], local());
    expect(minted.code, minted.stderr).toBe(0);
    const doc = JSON.parse(minted.stdout);
    const { id } = doc;
    const token: string = doc.attributes.token;
    expect(token).toMatch(/^berth\./);
    expect((await get(`/workspaces/${wsId}`, token)).status).toBe(200);
    expect((await get(`/workspaces/${wsId}`, token)).status).toBe(200);
    const revoke = await runCli(['token', 'revoke', id], local());
    expect(revoke.code, revoke.stderr).toBe(0);
    expect((await get(`/workspaces/${wsId}`, token)).status).toBe(401);
  });
});

/** Answers from the cache take the short path through serve, but not around its rules. */
describe('serve: cached answers count against the rate limit and are logged', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('gives each cached answer its rate-limit headers and log line, and refuses beyond the limit', async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], { BERTH_DB: tmp.db })).code).toBe(0);
    server = await startServe(tmp.db, ['--rate-limit', '3']);
    const get = () =>
      fetch(`${server.url}/api/v2/organizations/acme`, { headers: { Authorization: `Bearer ${server.token}` } });
    // Within one second (the limiter's window): the first computes, the next two come from the cache.
    const answers = [await get(), await get(), await get(), await get()];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[2]).toBe(bodies[0]);
    expect(answers[1].headers.get('content-type')).toBe(answers[0].headers.get('content-type'));
    expect(answers[1].headers.get('content-length')).toBe(String(Buffer.byteLength(bodies[0])));
    await expect
      .poll(() => server.stderr().match(/GET \/api\/v2\/organizations\/acme 200 /g)?.length ?? 0, { timeout: 5000 })
      .toBe(3);
    await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/GET \/api\/v2\/organizations\/acme 429 /);
  });
});
