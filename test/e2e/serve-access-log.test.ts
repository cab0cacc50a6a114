import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** serve's access log tells what happened without ever writing a credential. */
describe('the access log of berth serve', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  const secrets: string[] = [];

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/vnd.api+json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startServe(tmp.db);
    const admin = { Authorization: `Bearer ${server.token}` };
    secrets.push(server.token!);
    const user = await call('POST', '/api/v2/admin/users', admin, {
      data: { type: 'users', attributes: { username: 'olga', email: 'o@acme.test' } },
    });
    expect(user.status).toBe(201);
    const userId = ((await user.json()) as any).data.id;
    const minted = await call('POST', `/api/v2/users/${userId}/authentication-tokens`, admin);
    expect(minted.status).toBe(201);
    const mintedDoc = (await minted.json()) as any;
    const token = mintedDoc.data.attributes.token as string;
    secrets.push(token);
    const olga = { Authorization: `Bearer ${token}` };

    // Successful requests, failed ones, and a state upload whose URL carries its signature.
    expect(
      (
        await call('POST', '/api/v2/organizations', olga, {
          data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
        })
      ).status,
    ).toBe(201);
    const ws = await call('POST', '/api/v2/organizations/acme/workspaces', olga, {
      data: { type: 'workspaces', attributes: { name: 'app' } },
    });
    const wsId = ((await ws.json()) as any).data.id;
    expect((await call('POST', `/api/v2/workspaces/${wsId}/actions/lock`, olga)).status).toBe(200);
    const state = Buffer.from(JSON.stringify({ version: 4, serial: 1, lineage: 'l', outputs: {}, resources: [] }));
    const md5 = createHash('md5').update(state).digest('hex');
    const sv = await call('POST', `/api/v2/workspaces/${wsId}/state-versions`, olga, {
      data: { type: 'state-versions', attributes: { serial: 1, lineage: 'l', md5 } },
    });
    expect(sv.status).toBe(201);
    const upload = new URL(((await sv.json()) as any).data.attributes['hosted-state-upload-url']);
    secrets.push(upload.searchParams.get('signature')!);
    expect((await call('PUT', `${upload.pathname}${upload.search}`, {}, state.toString())).status).toBe(200);
    const wrongToken = 'berth.WrongTokenValue1.ThisIsNotARealTokenButMustNotBeLoggedEither00';
    secrets.push(wrongToken);
    expect((await call('GET', '/api/v2/organizations', { Authorization: `Bearer ${wrongToken}` })).status).toBe(401);
    expect(
      (
        await call('GET', '/api/v2/organizations', {
          Authorization: `Basic ${Buffer.from('olga:hunter2').toString('base64')}`,
        })
      ).status,
    ).toBe(401);
    secrets.push(Buffer.from('olga:hunter2').toString('base64'));
    // Revoked: the next request is refused, and that is logged without the token too.
    expect((await call('DELETE', `/api/v2/authentication-tokens/${mintedDoc.data.id}`, admin)).status).toBe(204);
    expect((await call('GET', '/api/v2/organizations', olga)).status).toBe(401);
    expect(await server.stop()).toBe(0);
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
  });

  /** Everything logged after the start-up banner (which shows the first admin token once, by design). */
  const accessLog = () => server.stderr().slice(server.stderr().indexOf('berth listening'));

  it('logs each request by method, path and status', () => {
    const log = accessLog();
    expect(log).toMatch(/POST \/api\/v2\/organizations 201 /);
    expect(log).toMatch(/PUT \/api\/v2\/state-versions\/sv-[A-Za-z0-9]+\/content 200 /);
    expect(log.match(/GET \/api\/v2\/organizations 401 /g)).toHaveLength(3);
  });

  it('never writes a token, a header value or a URL secret', () => {
    const log = accessLog();
    for (const s of secrets) expect(log).not.toContain(s);
    expect(log).not.toMatch(/authorization|bearer|basic |signature=/i);
    // The token's prefix is not there either: no partial token could be pieced together.
    expect(log).not.toMatch(/berth\.[A-Za-z0-9]{6,}/);
  });
});
