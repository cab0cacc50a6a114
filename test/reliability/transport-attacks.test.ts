import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/store/checkpointer.js';
import { BIN, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

interface Exchange {
  /** The status of every answer the server wrote, in order (each starts the text, or follows a body or a line). */
  statuses: number[];
  /** Everything the server wrote. */
  text: string;
  /** Whether the server closed the connection (else the client gave up after `waitMs`). */
  closedByServer: boolean;
}

/**
 * Writes `parts` (each after a short pause) on one new connection, and gathers what comes back
 * until the server closes it. Every exchange here ends with the server closing (an error, a
 * `Connection: close`, or its 1 s timeouts): `waitMs` is only a last resort, far above them, so
 * that a loaded machine, slow to answer, is not taken for a server that kept the connection.
 */
function exchange(port: number, parts: string[], waitMs = 15_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closedByServer = true;
    const done = () =>
      resolve({
        statuses: [...text.matchAll(/(?:^|[}\n])HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])),
        text,
        closedByServer,
      });
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => {});
    socket.on('close', done);
    socket.on('connect', () => {
      // One part now, the next 50 ms later, and so on: separate packets, as separate writes of a client.
      parts.forEach((part, i) =>
        setTimeout(() => {
          if (!socket.destroyed) socket.write(part, 'latin1');
        }, 50 * i),
      );
    });
    setTimeout(() => {
      if (socket.destroyed) return;
      closedByServer = false;
      socket.destroy();
    }, waitMs);
  });
}

/**
 * Transport-level attacks on `berth serve` over raw sockets: request smuggling (ambiguous framing
 * of the body, so that a front proxy and berth could disagree on where a request ends), requests
 * hidden after a refused one or inside a body, and floods of idle or slow sockets.
 */
describe('transport attacks on serve', () => {
  const tmp = tempDb();
  let serve: ServeProcess;
  let port: number;
  let token: string;

  beforeAll(async () => {
    serve = await startServe(tmp.db, ['--headers-timeout', '1', '--request-timeout', '2', '--keep-alive-timeout', '1']);
    port = Number(new URL(serve.url).port);
    token = serve.token!;
  });
  afterAll(async () => {
    await serve?.stop('SIGKILL');
    tmp.cleanup();
  });

  /**
   * A complete, authenticated request that creates organization `name`: if it ever ran, the
   * organization would exist. It follows every ambiguous request below on the same connection.
   */
  const hidden = (name: string) => {
    const body = JSON.stringify({ data: { type: 'organizations', attributes: { name, email: `${name}@x.test` } } });
    return (
      `POST /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/vnd.api+json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
    );
  };
  const organizations = async () => {
    const res = await fetch(`${serve.url}/api/v2/organizations?page[size]=100`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string }[] }).data.map((o) => o.id);
  };
  const head = (lines: string[]) =>
    `POST /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\n${lines.join('\r\n')}\r\n\r\n`;

  // Each: the head of a request whose length is ambiguous or malformed, and what follows it.
  const SMUGGLING: [string, (h: string) => string][] = [
    [
      'Content-Length and Transfer-Encoding together',
      (h) => head(['Content-Length: 5', 'Transfer-Encoding: chunked']) + `0\r\n\r\n${h}`,
    ],
    [
      'Transfer-Encoding and Content-Length together',
      (h) => head(['Transfer-Encoding: chunked', `Content-Length: ${h.length + 5}`]) + `0\r\n\r\n${h}`,
    ],
    ['two different Content-Length headers', (h) => head(['Content-Length: 0', `Content-Length: ${h.length}`]) + h],
    ['two equal Content-Length headers', (h) => head(['Content-Length: 2', 'Content-Length: 2']) + `{}${h}`],
    ['a Content-Length list', (h) => head(['Content-Length: 2, 2']) + `{}${h}`],
    ['a signed Content-Length', (h) => head(['Content-Length: +2']) + `{}${h}`],
    ['a hexadecimal Content-Length', (h) => head(['Content-Length: 0x2']) + `{}${h}`],
    ['a space before the colon of Content-Length', (h) => head(['Content-Length : 2']) + `{}${h}`],
    ['Transfer-Encoding: xchunked', (h) => head(['Transfer-Encoding: xchunked']) + `0\r\n\r\n${h}`],
    ['Transfer-Encoding: chunked, identity', (h) => head(['Transfer-Encoding: chunked, identity']) + `0\r\n\r\n${h}`],
    [
      'two Transfer-Encoding headers, chunked first',
      (h) => head(['Transfer-Encoding: chunked', 'Transfer-Encoding: identity']) + `0\r\n\r\n${h}`,
    ],
    ['a space before the colon of Transfer-Encoding', (h) => head(['Transfer-Encoding : chunked']) + `0\r\n\r\n${h}`],
    ['Transfer-Encoding folded onto a second line', (h) => head(['Transfer-Encoding:', ' chunked']) + `0\r\n\r\n${h}`],
    ['a vertical tab before chunked', (h) => head(['Transfer-Encoding:\x0bchunked']) + `0\r\n\r\n${h}`],
    [
      'Transfer-Encoding in HTTP/1.0',
      (h) => head(['Transfer-Encoding: chunked']).replace('HTTP/1.1', 'HTTP/1.0') + `0\r\n\r\n${h}`,
    ],
    [
      'a chunk size that overflows 64 bits',
      (h) => head(['Transfer-Encoding: chunked']) + `1${'0'.repeat(16)}2\r\n{}\r\n0\r\n\r\n${h}`,
    ],
    [
      'a chunk size of 19 hex digits',
      (h) => head(['Transfer-Encoding: chunked']) + `${'f'.repeat(19)}\r\n{}\r\n0\r\n\r\n${h}`,
    ],
    ['a negative chunk size', (h) => head(['Transfer-Encoding: chunked']) + `-2\r\n{}\r\n0\r\n\r\n${h}`],
    ['chunks ended by bare LF', (h) => head(['Transfer-Encoding: chunked']) + `2\n{}\n0\n\n${h}`],
    [
      'a 20 KiB chunk extension',
      (h) => head(['Transfer-Encoding: chunked']) + `2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n${h}`,
    ],
    ['headers ended by bare LF', (h) => `GET /api/v2/ping HTTP/1.1\nHost: berth.test\n\n${h}`],
    ['a malformed request line', (h) => `GET /api/v2/ping HTTP/1.1 extra\r\nHost: berth.test\r\n\r\n${h}`],
    ['a NUL byte in a header', (h) => `GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\nX-A: a\0b\r\n\r\n${h}`],
    ['a bare CR in a header', (h) => `GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\nX-A: a\rb\r\n\r\n${h}`],
    [
      'headers over the size limit',
      (h) => `GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n${h}`,
    ],
  ];

  it.each(SMUGGLING.map(([name, build], i) => [name, build, i] as const))(
    'refuses %s with one 400 (431 for the oversized headers) and closes the connection: what follows never runs',
    async (name, build, i) => {
      const got = await exchange(port, [build(hidden(`smuggled-${i}`))]);
      expect(got.statuses, `${name}: ${got.text.slice(0, 300)}`).toEqual([name.includes('size limit') ? 431 : 400]);
      expect(got.text).toContain('application/vnd.api+json');
      expect(JSON.parse(got.text.slice(got.text.indexOf('\r\n\r\n') + 4)).errors[0].status).toMatch(/^4\d\d$/);
      expect(got.closedByServer, name).toBe(true);
    },
  );

  it('answers a request after a well-framed one on its own: a token does not carry over to the next request', async () => {
    // Chunked with a tab or in capitals is well framed: both requests are read, and the second has no token.
    const chunked = (te: string) =>
      exchange(port, [
        `GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding:${te}\r\n\r\n0\r\n\r\n` +
          `GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nConnection: close\r\n\r\n`,
      ]);
    expect((await chunked('\tchunked')).statuses).toEqual([200, 401]);
    expect((await chunked(' CHUNKED')).statuses).toEqual([200, 401]);
    // The first answer is now in the read cache: the tokenless request for the same URL is not given it.
    const cached = await exchange(port, [
      `GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\n\r\n` +
        `GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer berth.made.up\r\n\r\n` +
        `GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nConnection: close\r\n\r\n`,
    ]);
    expect(cached.statuses).toEqual([200, 401, 401]);
  });

  it('never reads a request out of a body, also when it answers before reading the body (401, 404, 413)', async () => {
    const inner = hidden('from-a-body');
    const ping = `GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\nConnection: close\r\n\r\n`;
    // No token: 401 at once; the body is skipped as a body, and the next request is the ping.
    const unauthorized = await exchange(port, [
      `POST /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${inner.length}\r\n\r\n`,
      inner,
      ping,
    ]);
    expect(unauthorized.statuses).toEqual([401, 204]);
    const unknownRoute = await exchange(port, [
      `POST /api/v2/nothing-here HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${inner.length}\r\n\r\n`,
      inner,
      ping,
    ]);
    expect(unknownRoute.statuses).toEqual([404, 204]);
    // Over the 1 MiB body limit, declared and chunked: 413, then the connection is closed.
    const pad = 'x'.repeat(1024 * 1024 + 10);
    const declared = await exchange(port, [
      `POST /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${pad.length + inner.length}\r\n\r\n`,
      pad,
      inner,
    ]);
    expect(declared.statuses).toEqual([413]);
    const chunked = await exchange(port, [
      `POST /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/vnd.api+json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `${pad.length.toString(16)}\r\n${pad}\r\n`,
      `${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`,
    ]);
    expect(chunked.statuses).toEqual([413]);
  });

  it('ran none of the hidden requests', async () => {
    const names = await organizations();
    expect(names.filter((n) => n.startsWith('smuggled-') || n === 'from-a-body')).toEqual([]);
    expect(serve.stderr()).not.toMatch(/unexpected error/);
  });

  it('keeps answering other clients through a flood of idle and slow sockets, and closes each flood socket by its timeouts', async () => {
    // 250 sockets that send nothing, 100 that stop in the middle of their headers, 50 that send a
    // whole request and then idle on the kept-alive connection: 400 connections held open at once,
    // from two addresses (each under the cap of connections per address, 256: the timeouts are
    // tested here; serve-connections-per-address.test.ts tests the cap).
    const flood: { socket: Socket; closed: boolean; text: string }[] = [];
    const open = (first?: string) =>
      new Promise<void>((ready) => {
        const localAddress = `127.0.0.${2 + (flood.length % 2)}`;
        const entry = { socket: connect({ port, host: '127.0.0.1', localAddress }), closed: false, text: '' };
        entry.socket.setEncoding('latin1');
        entry.socket.on('data', (d: string) => (entry.text += d));
        entry.socket.on('error', () => {});
        entry.socket.on('close', () => (entry.closed = true));
        entry.socket.on('connect', () => {
          if (first) entry.socket.write(first);
          ready();
        });
        flood.push(entry);
      });
    await Promise.all([
      ...Array.from({ length: 250 }, () => open()),
      ...Array.from({ length: 100 }, () => open('GET /api/v2/organizations HTTP/1.1\r\nHost: berth.test\r\nX-Slow: ')),
      ...Array.from({ length: 50 }, () => open('GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\n\r\n')),
    ]);
    const floodStarted = performance.now();

    // Meanwhile other clients are answered, each well within a generous bound.
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await fetch(`${serve.url}/api/v2/organizations`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(performance.now() - started).toBeLessThan(5_000);
    }

    // The server closes every flood socket on its own, once the headers timeout (1 s) or the
    // keep-alive timeout (1 s) has passed: none can hold a connection open for long.
    await expect.poll(() => flood.filter((f) => !f.closed).length, { timeout: 20_000, interval: 200 }).toBe(0);
    const elapsed = performance.now() - floodStarted;
    expect(elapsed).toBeLessThan(20_000);
    // Those that never finished their headers were told why (408); the idle keep-alive ones had their answer.
    expect(flood.slice(0, 350).every((f) => f.text === '' || /^HTTP\/1\.1 408 /.test(f.text))).toBe(true);
    expect(flood.slice(250, 350).every((f) => /^HTTP\/1\.1 408 /.test(f.text))).toBe(true);
    expect(flood.slice(350).every((f) => /^HTTP\/1\.1 204 /.test(f.text))).toBe(true);
    expect(serve.child.exitCode).toBeNull();
    expect((await fetch(`${serve.url}/api/v2/ping`)).status).toBe(204);
  }, 60_000);
});

/**
 * Past its file descriptor limit, `serve` cannot accept more connections: node accepts and closes
 * them at once (libuv's reserve descriptor) until the timeouts free descriptors. It must neither
 * crash nor stay unreachable once the flood is over.
 */
describe('a socket flood past the descriptor limit of serve', () => {
  const tmp = tempDb();
  let child: ReturnType<typeof spawn> | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    tmp.cleanup();
  });

  it('survives 3 floods of 400 sockets with `ulimit -n 100`, and answers again once its timeouts closed them', async () => {
    const args = ['serve', '--port', '0', '--database', tmp.db, '--rate-limit', '0', '--headers-timeout', '1'];
    child = spawn('sh', ['-c', 'ulimit -n 100 && exec "$0" "$@"', process.execPath, BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', BERTH_DB: '', BERTH_DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    await expect.poll(() => /listening on (\S+)/.exec(stderr)?.[1], { timeout: 20_000 }).toBeDefined();
    const url = /listening on (\S+)/.exec(stderr)![1];
    const port = Number(new URL(url).port);
    const ping = async () => {
      try {
        return (await fetch(`${url}/api/v2/ping`, { signal: AbortSignal.timeout(5_000) })).status;
      } catch {
        return 0;
      }
    };
    for (let round = 0; round < 3; round++) {
      const sockets = Array.from({ length: 400 }, () => {
        const entry = { socket: connect(port, '127.0.0.1'), connected: false, closed: false };
        entry.socket.on('error', () => {});
        // Read (and drop) the 408: a socket whose data is never read never sees its end.
        entry.socket.resume();
        entry.socket.on('connect', () => (entry.connected = true));
        entry.socket.on('close', () => (entry.closed = true));
        return entry;
      });
      // Every flood socket that got through is closed by the server: at once when it had no
      // descriptor for it, else after the headers timeout (1 s). (A few may still be waiting in
      // the kernel's queue, retrying their SYN: those are given up here.)
      await new Promise((r) => setTimeout(r, 1_500));
      await expect
        .poll(() => sockets.filter((s) => s.connected && !s.closed).length, { timeout: 30_000, interval: 200 })
        .toBe(0);
      for (const s of sockets) s.socket.destroy();
      await expect.poll(ping, { timeout: 30_000, interval: 250 }).toBe(204);
      expect(child.exitCode, stderr).toBeNull();
    }
    expect(stderr).not.toMatch(/unexpected error|EMFILE/);
  }, 90_000);

  it('lives on when its checkpoint worker fails (as when it cannot open a file), and still stops', async () => {
    // The worker of a file that does not exist fails at once: without a handler, that ended the process.
    let failed = false;
    const checkpointer = startCheckpointer(`${tmp.dir}/no-such.db`, 100, () => (failed = true));
    await expect.poll(() => failed, { timeout: 10_000 }).toBe(true);
    await checkpointer.stop();
  });
});
