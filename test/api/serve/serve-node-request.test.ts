import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/** Sends `request` on a new connection and reads one response with a Content-Length (or a 204). */
function send(port: number, request: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      const text = data.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      // A 204 has no body and no Content-Length.
      const length = text.startsWith('HTTP/1.1 204 ') ? '0' : /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
      if (
        end === -1 ||
        length === undefined ||
        data.length - Buffer.byteLength(text.slice(0, end + 4)) < Number(length)
      )
        return;
      socket.destroy();
      resolve({ status: Number(text.split(' ')[1]), body: text.slice(end + 4) });
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer: ${data.toString('utf8')}`)), 5000);
  });
}

const organization = (name: string) =>
  JSON.stringify({ data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } } });

/**
 * Under `serve`, the Authorization and Content-Type headers and JSON bodies are read straight
 * from node's request (src/api/node-headers.ts, src/api/body.ts), not through the Fetch API
 * objects of the HTTP adapter. What the Fetch path gave must stay: repeated headers joined (and so
 * refused), a byte order mark dropped, chunked bodies read, an undeclared body empty.
 */
describe('serve reads headers and bodies from node’s request as the Fetch API would', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let port: number;
  let token: string;

  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
    port = Number(new URL(server.url).port);
    token = server.createdToken!;
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  const head = (method: string, path: string, extra: string) =>
    `${method} ${path} HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\n${extra}\r\n`;

  it('authenticates a token, and refuses one sent in two Authorization lines (401, as when joined)', async () => {
    expect((await send(port, head('GET', '/api/v2/account/details', ''))).status).toBe(200);
    // Another target than above: the read cache keys its answers by node's (first) header.
    const twice = await send(port, head('GET', '/api/v2/account/details?twice', `Authorization: Bearer ${token}\r\n`));
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.body).errors[0].status).toBe('401');
  });

  it('reads a body framed by Content-Length, with or without a byte order mark', async () => {
    const body = organization('node-body');
    const plain = await send(
      port,
      head(
        'POST',
        '/api/v2/organizations',
        `Content-Type: application/vnd.api+json\r\nContent-Length: ${body.length}\r\n`,
      ) + body,
    );
    expect(plain.status).toBe(201);
    expect(JSON.parse(plain.body).data.id).toBe('node-body');

    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(organization('node-bom'))]);
    const withBom = await send(
      port,
      Buffer.concat([
        Buffer.from(
          head('POST', '/api/v2/organizations', `Content-Type: application/json\r\nContent-Length: ${bom.length}\r\n`),
        ),
        bom,
      ]),
    );
    expect(withBom.status).toBe(201);
    expect(JSON.parse(withBom.body).data.id).toBe('node-bom');
  });

  it('reads a chunked body, and takes a body with neither Content-Length nor Transfer-Encoding as empty', async () => {
    const body = organization('node-chunked');
    const chunked = await send(
      port,
      head(
        'POST',
        '/api/v2/organizations',
        'Content-Type: application/vnd.api+json\r\nTransfer-Encoding: chunked\r\n',
      ) + `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(201);

    const undeclared = await send(
      port,
      head('POST', '/api/v2/organizations', 'Content-Type: application/vnd.api+json\r\n'),
    );
    expect(undeclared.status).toBe(400);
    expect(JSON.parse(undeclared.body).errors[0].detail).toMatch(/body is empty/);
  });

  it('refuses a Content-Type sent in two lines (415, as when joined), and a foreign one', async () => {
    const body = organization('node-two-types');
    const twice = await send(
      port,
      head(
        'POST',
        '/api/v2/organizations',
        `Content-Type: application/vnd.api+json\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${body.length}\r\n`,
      ) + body,
    );
    expect(twice.status).toBe(415);
    const foreign = await send(
      port,
      head('POST', '/api/v2/organizations', `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\n`) + body,
    );
    expect(foreign.status).toBe(415);
  });

  it('judges the same Host the same way every time (the verdict is remembered)', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await send(port, 'GET /api/v2/ping HTTP/1.1\r\nHost: berth.test:8080\r\n\r\n')).status).toBe(204);
      expect((await send(port, 'GET /api/v2/ping HTTP/1.1\r\nHost: a b\r\n\r\n')).status).toBe(400);
    }
  });
});
