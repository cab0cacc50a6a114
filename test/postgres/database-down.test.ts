import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/serve.js';
import { freshPostgresSchema } from '../helpers/store.js';
import { testKeyFile } from '../helpers/secret-key.js';

/** A TCP proxy in front of PostgreSQL that can be switched off (connections cut, new ones refused) and on. */
async function switchableProxy(target: URL): Promise<{ port: number; down(): Promise<void>; up(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    port,
    down: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    up: listen,
  };
}

/**
 * PostgreSQL goes away under a running `serve`: every request that needs it gets the same 503
 * JSON:API answer with Retry-After (GETs too, which the read cache's stamp query used to turn
 * into empty 500s), each with its access log line; /healthz still answers; and once the database
 * is back, so is everything.
 */
describe('serve while PostgreSQL is down', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let server: RunningServer;
  let token: string;
  const lines: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  };

  beforeAll(async () => {
    schema = await freshPostgresSchema();
    const url = new URL(schema.url);
    proxy = await switchableProxy(new URL(schema.url));
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: url.toString(),
      secretKeyFile: testKeyFile(),
      log: (l) => lines.push(...l.split('\n')),
      rateLimit: 0,
    });
    token = server.createdToken!;
    expect(
      (
        await call('POST', '/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await schema?.drop();
  });

  it('answers every request 503 with Retry-After and a JSON:API error, logs each, keeps /healthz, and recovers', async () => {
    // Warm the read cache: a cached answer must not be served from a database it cannot check.
    expect((await call('GET', '/api/v2/organizations/acme')).status).toBe(200);
    await proxy.down();
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v2/ping'],
      ['GET', '/api/v2/organizations'],
      ['GET', '/api/v2/organizations/acme'],
      ['GET', '/api/v2/organizations/acme'],
      [
        'POST',
        '/api/v2/organizations',
        { data: { type: 'organizations', attributes: { name: 'x', email: 'x@x.test' } } },
      ],
      [
        'PATCH',
        '/api/v2/organizations/acme',
        { data: { type: 'organizations', attributes: { email: 'b@acme.test' } } },
      ],
      ['DELETE', '/api/v2/organizations/acme'],
      ['GET', '/readyz'],
    ];
    const before = lines.length;
    for (const [method, path, body] of requests) {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(503);
      expect(r.headers.get('retry-after'), `${method} ${path}`).toBe('1');
      expect(r.headers.get('content-type')).toContain('application/vnd.api+json');
      expect(JSON.parse(r.text).errors[0]).toMatchObject({ status: '503', title: 'service unavailable' });
    }
    const health = await call('GET', '/healthz');
    expect(health.status).toBe(200);

    await server.close().catch(() => undefined);
    // Closed: the access log is flushed. One line per request, and no stack trace.
    const logged = lines.slice(before);
    for (const [method, path] of requests)
      expect(
        // An access line: the time of the answer, then the request.
        logged.some((l) => l.includes(`Z ${method} ${path} 503 `)),
        `${method} ${path} in\n${logged.join('\n')}`,
      ).toBe(true);
    expect(logged.filter((l) => /^\s+at /.test(l))).toEqual([]);
    expect(logged.join('\n')).not.toMatch(/unexpected error/);
    expect(logged.some((l) => /^database unavailable: /.test(l))).toBe(true);
  });

  it('serves again once PostgreSQL is back', async () => {
    await proxy.up();
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: url.toString(),
      secretKeyFile: testKeyFile(),
      log: () => {},
      rateLimit: 0,
    });
    await proxy.down();
    expect((await call('GET', '/api/v2/organizations/acme')).status).toBe(503);
    await proxy.up();
    await expect.poll(async () => (await call('GET', '/api/v2/organizations/acme')).status).toBe(200);
    expect((await call('GET', '/api/v2/ping')).status).toBe(204);
    await server.close();
  });

  it('answers ping 503 with the read cache off too (it used to say 204: ping read nothing)', async () => {
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: url.toString(),
      secretKeyFile: testKeyFile(),
      log: () => {},
      rateLimit: 0,
      readCacheEntries: 0,
    });
    expect((await call('GET', '/api/v2/ping')).status).toBe(204);
    await proxy.down();
    for (const path of ['/api/v2/ping', '/api/v2/organizations/acme', '/readyz']) {
      const r = await call('GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(503);
      expect(r.headers.get('retry-after'), path).toBe('1');
      expect(JSON.parse(r.text).errors[0]).toMatchObject({ status: '503', title: 'service unavailable' });
    }
    await proxy.up();
    await expect.poll(async () => (await call('GET', '/api/v2/ping')).status).toBe(204);
  });
});
