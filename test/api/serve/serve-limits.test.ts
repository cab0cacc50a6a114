import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../../src/api/body.js';
import { DEFAULT_LIMITS } from '../../../src/api/limits.js';
import { STATE_BODY_LIMIT } from '../../../src/api/routes/state/state-versions.js';
import { isLoopback, startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over node:http, the body sent in the given chunks (chunked encoding without a Content-Length). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  chunks: Buffer[] = [],
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/**
 * Opens a raw TCP connection, writes `head`, then one more byte every `everyMs` for at most
 * `maxBytes` bytes; resolves with what the server sent back once it closes the connection, or
 * with `closed: false` when it never did.
 */
function trickle(
  port: number,
  head: string,
  everyMs: number,
  maxBytes: number,
): Promise<{ closed: boolean; received: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closed: true, received });
    });
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent++ >= maxBytes) {
          clearInterval(timer);
          socket.destroy();
          resolve({ closed: false, received });
          return;
        }
        if (!socket.destroyed) socket.write('a');
      }, everyMs);
    });
  });
}

const errorOf = (res: RawResponse) => JSON.parse(res.body).errors[0];

/**
 * A raw keep-alive connection: `response()` waits for the next whole answer (framed by its
 * Content-Length), `ended()` for the server to close its side; a reset rejects both.
 */
function rawConnection(port: number) {
  // Half-open: the client may go on sending after the server closed its side.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.setEncoding('latin1');
  let buffered = '';
  let ended = false;
  let failed: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  socket.on('data', (d: string) => {
    buffered += d;
    poke();
  });
  socket.on('end', () => {
    ended = true;
    poke();
  });
  socket.on('error', (err) => {
    failed = err;
    poke();
  });
  const take = () => {
    const at = buffered.indexOf('\r\n\r\n');
    if (at < 0) return null;
    const head = buffered.slice(0, at);
    const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? 0);
    if (buffered.length < at + 4 + length) return null;
    const body = buffered.slice(at + 4, at + 4 + length);
    buffered = buffered.slice(at + 4 + length);
    return { status: Number(head.split(' ')[1]), head, body };
  };
  const until = async <T>(ready: () => T | null): Promise<T> => {
    for (;;) {
      const value = ready();
      if (value !== null) return value;
      if (failed) throw failed;
      if (ended) throw new Error(`the server closed the connection; left unread: ${JSON.stringify(buffered)}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const closing = new Promise<string>((resolve) =>
    socket.on('close', () => resolve(failed ? `reset: ${String(failed)}` : 'closed without an error')),
  );
  return {
    socket,
    closed: () => closing,
    response: () => until(take),
    ended: () =>
      until(() => (failed ? null : ended ? true : null)).catch((err: Error) => {
        if (ended && !failed) return true;
        throw err;
      }),
  };
}

describe('limits of serve: bodies, URLs, headers', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let token: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
    token = server.createdToken!;
    auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' };
    const org = await send(`${server.url}/api/v2/organizations`, 'POST', auth, [
      Buffer.from(
        JSON.stringify({ data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } } }),
      ),
    ]);
    expect(org.status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  const orgNames = async () => {
    const res = await send(`${server.url}/api/v2/organizations`, 'GET', auth);
    return JSON.parse(res.body).data.map((o: any) => o.id);
  };

  /** An organization-create document padded to exactly `size` bytes. */
  const orgDocOfSize = (name: string, size: number) => {
    const base = JSON.stringify({
      data: { type: 'organizations', attributes: { name, email: 'p@acme.test', pad: '' } },
    });
    return Buffer.from(base.replace('"pad":""', `"pad":"${'x'.repeat(size - base.length)}"`));
  };

  it('answers 413 with a JSON:API error to a body over 1 MiB, declared with Content-Length, and creates nothing', async () => {
    const body = orgDocOfSize('too-big', BODY_LIMIT + 1);
    expect(body.length).toBe(BODY_LIMIT + 1);
    const res = await send(
      `${server.url}/api/v2/organizations`,
      'POST',
      { ...auth, 'Content-Length': String(body.length) },
      [body],
    );
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toContain('application/vnd.api+json');
    expect(errorOf(res)).toMatchObject({ status: '413', title: 'payload too large' });
    expect(await orgNames()).toEqual(['acme']);
  });

  it('answers 413 to a body over 1 MiB streamed without a Content-Length', async () => {
    const body = orgDocOfSize('streamed', BODY_LIMIT + 4096);
    const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) =>
      body.subarray(i * 65536, (i + 1) * 65536),
    );
    const res = await send(`${server.url}/api/v2/organizations`, 'POST', auth, chunks);
    expect(res.status).toBe(413);
    expect(errorOf(res).status).toBe('413');
    expect(await orgNames()).toEqual(['acme']);
  });

  it('reads a request with neither Content-Length nor Transfer-Encoding as having an empty body', async () => {
    const ws = await send(`${server.url}/api/v2/organizations/acme/workspaces`, 'POST', auth, [
      Buffer.from(JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'bare' } } })),
    ]);
    expect(ws.status).toBe(201);
    const id = JSON.parse(ws.body).data.id as string;
    const raw = (path: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (d) => (received += d.toString('latin1')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
        );
      });
    const lock = await raw(`/api/v2/workspaces/${id}/actions/lock`);
    expect(lock).toMatch(/^HTTP\/1\.1 200 /);
    expect(lock).toContain('"locked":true');
    const unlock = await raw(`/api/v2/workspaces/${id}/actions/unlock`);
    expect(unlock).toMatch(/^HTTP\/1\.1 200 /);
    expect(unlock).toContain('"locked":false');
  });

  it('accepts a body of exactly 1 MiB (the limit is not off by one)', async () => {
    const body = orgDocOfSize('just-fits', BODY_LIMIT);
    const res = await send(
      `${server.url}/api/v2/organizations`,
      'POST',
      { ...auth, 'Content-Length': String(body.length) },
      [body],
    );
    expect(res.status).toBe(201);
    expect(await orgNames()).toContain('just-fits');
  });

  it('accepts a state upload over 1 MiB (its own limit), and answers 413 to one declared over 64 MiB', async () => {
    const ws = await send(`${server.url}/api/v2/organizations/acme/workspaces`, 'POST', auth, [
      Buffer.from(JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'big-state' } } })),
    ]);
    expect(ws.status).toBe(201);
    const wsId = JSON.parse(ws.body).data.id;
    expect((await send(`${server.url}/api/v2/workspaces/${wsId}/actions/lock`, 'POST', auth)).status).toBe(200);
    const state = Buffer.from(
      JSON.stringify({
        version: 4,
        terraform_version: '1.9.0',
        serial: 1,
        lineage: 'big',
        outputs: { blob: { value: 'y'.repeat(2 * BODY_LIMIT), type: 'string' } },
        resources: [],
      }),
    );
    const md5 = createHash('md5').update(state).digest('hex');
    const sv = await send(`${server.url}/api/v2/workspaces/${wsId}/state-versions`, 'POST', auth, [
      Buffer.from(JSON.stringify({ data: { type: 'state-versions', attributes: { serial: 1, lineage: 'big', md5 } } })),
    ]);
    expect(sv.status).toBe(201);
    const svId = JSON.parse(sv.body).data.id;
    const upload = new URL(JSON.parse(sv.body).data.attributes['hosted-state-upload-url']);
    const target = `${server.url}${upload.pathname}${upload.search}`;

    // Declared far too large: refused on the header alone, before any of it is read.
    const huge = await new Promise<RawResponse>((resolve, reject) => {
      const req = httpRequest(
        target,
        {
          method: 'PUT',
          agent: false,
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(STATE_BODY_LIMIT + 1) },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode!, headers: res.headers, body });
          });
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024, 'z'));
    });
    expect(huge.status).toBe(413);
    expect(errorOf(huge)).toMatchObject({ status: '413', title: 'payload too large' });

    const put = await send(
      target,
      'PUT',
      { 'Content-Type': 'application/octet-stream', 'Content-Length': String(state.length) },
      [state],
    );
    expect(put.status).toBe(200);
    const got = JSON.parse((await send(`${server.url}/api/v2/state-versions/${svId}`, 'GET', auth)).body);
    expect(got.data.attributes).toMatchObject({ status: 'finalized', size: state.length });
  });

  it('an early answer to an upload (unknown version: 404) keeps the connection or closes it cleanly', async () => {
    const port = Number(new URL(server.url).port);
    const head = (length: number) =>
      `PUT /api/v2/state-versions/sv-UNKNOWNUNKNOWN12/content?expires=9999999999&signature=x HTTP/1.1\r\n` +
      `Host: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;
    const health = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

    // 300 KiB, all sent: the 404 keeps the connection, the rest of the body is read and dropped,
    // and the next request on that connection is answered (it used to meet a closed connection).
    const kept = rawConnection(port);
    kept.socket.write(head(300 * 1024));
    kept.socket.write(Buffer.alloc(300 * 1024, 'a'));
    const notFound = await kept.response();
    expect(notFound.status).toBe(404);
    expect(notFound.head).toMatch(/^connection: keep-alive/im);
    kept.socket.write(health);
    expect((await kept.response()).status).toBe(200);
    kept.socket.destroy();

    // 8 MiB declared, 64 KiB sent before the answer: too much to wait for, so the 404 says
    // Connection: close; what the client still sends meanwhile is read (no reset), then it closes.
    const closed = rawConnection(port);
    closed.socket.write(head(8 * 1024 * 1024));
    closed.socket.write(Buffer.alloc(64 * 1024, 'a'));
    const early = await closed.response();
    expect(early.status).toBe(404);
    expect(JSON.parse(early.body).errors[0].status).toBe('404');
    expect(early.head).toMatch(/^connection: close/im);
    closed.socket.write(Buffer.alloc(256 * 1024, 'a'));
    expect(await closed.ended()).toBe(true);
    // Still sending after the server closed its side: read and dropped, not answered with a reset.
    closed.socket.end(Buffer.alloc(256 * 1024, 'a'));
    expect(await closed.closed()).toBe('closed without an error');
    // The client's next request, on a new connection.
    const next = rawConnection(port);
    next.socket.write(health);
    expect((await next.response()).status).toBe(200);
    next.socket.destroy();
  });

  it('answers 414 with a JSON:API error to a URL over 8 KiB, and serves one at the limit', async () => {
    const path = '/api/v2/organizations/acme/workspaces?search[name]=';
    const over = await send(
      `${server.url}${path}${'q'.repeat(DEFAULT_LIMITS.maxUrlLength - path.length + 1)}`,
      'GET',
      auth,
    );
    expect(over.status).toBe(414);
    expect(over.headers['content-type']).toContain('application/vnd.api+json');
    expect(errorOf(over)).toMatchObject({ status: '414', title: 'uri too long' });
    const at = await send(`${server.url}${path}${'q'.repeat(DEFAULT_LIMITS.maxUrlLength - path.length)}`, 'GET', auth);
    expect(at.status).toBe(200);
  });

  it('answers 431 with a JSON:API error to headers over the header size limit and closes the connection', async () => {
    const res = await send(`${server.url}/api/v2/ping`, 'GET', {
      'X-Padding': 'p'.repeat(DEFAULT_LIMITS.maxHeaderSize),
    });
    expect(res.status).toBe(431);
    expect(res.headers.connection).toBe('close');
    expect(errorOf(res)).toMatchObject({ status: '431', title: 'request header fields too large' });
    // The server is still fine afterwards.
    expect((await send(`${server.url}/api/v2/ping`, 'GET', {})).status).toBe(204);
  });

  it('answers 400 with a JSON:API error to a request that is not HTTP', async () => {
    const port = Number(new URL(server.url).port);
    const got = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
      let received = '';
      socket.on('data', (d: string) => (received += d));
      socket.on('error', () => {});
      socket.on('close', () => resolve(received));
    });
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4)).errors[0].status).toBe('400');
  });
});

describe('timeouts of serve against slow clients', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let port: number;
  const unexpected: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => {
        if (l.startsWith('unexpected')) unexpected.push(l);
      },
      rateLimit: 0,
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200 },
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('disconnects a client that sends its headers too slowly, with a 408 JSON:API error', async () => {
    // One header byte every 50 ms: 80 bytes take 4 s, over ten times the limit; the server must cut it off.
    const got = await trickle(port, 'GET /api/v2/ping HTTP/1.1\r\nHost: x\r\nX-Slow: ', 50, 80);
    expect(got.closed).toBe(true);
    expect(got.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(got.received).toContain('"status":"408"');
  });

  it('disconnects a client that sends its body too slowly', async () => {
    const head = `POST /api/v2/organizations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.createdToken}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
    const got = await trickle(port, head, 50, 80);
    expect(got.closed).toBe(true);
    expect(got.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(unexpected).toEqual([]);
  });

  it('still answers clients that are quick enough', async () => {
    expect((await send(`http://127.0.0.1:${port}/api/v2/ping`, 'GET', {})).status).toBe(204);
  });

  it('refuses limits that cannot work, before opening anything', async () => {
    await expect(
      startServer({
        host: '127.0.0.1',
        port: 0,
        database: tmp.db,
        log: () => {},
        limits: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 },
      }),
    ).rejects.toThrow(/headers timeout cannot be longer than the request timeout/);
    await expect(
      startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, limits: { maxUrlLength: 0 } }),
    ).rejects.toThrow(/maxUrlLength/);
    await expect(
      startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, limits: { maxHeaderSize: 4096 } }),
    ).rejects.toThrow(/header size limit must be at least 9216/);
  });
});

describe('what counts as loopback (no warning without TLS)', () => {
  it('is 127.0.0.0/8 and ::1, in either notation, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.10', '::ffff:10.0.0.1', 'fe80::1'])
      expect(isLoopback(a)).toBe(false);
  });
});
