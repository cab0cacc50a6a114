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
  const get = (path: string, token = server.token!) => fetch(`${server.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${token}` } });

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
