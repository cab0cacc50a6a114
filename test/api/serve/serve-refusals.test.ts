import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `head` on a new connection and reads one response (its Content-Length, or until the server closes). */
function raw(port: number, head: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    const done = () => {
      const [top = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = top.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      data += String(d);
      const end = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(data)?.[1];
      if (end === -1) return;
      if (/^HTTP\/1\.1 (204|304) /.test(data) || (length !== undefined && data.length - end - 4 >= Number(length)))
        done();
    });
    socket.on('close', done);
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(head)}: ${JSON.stringify(data)}`)), 5000);
  });
}

/**
 * Requests node or the HTTP adapter would refuse with an empty answer (or none at all): each gets
 * a JSON:API error document, with an X-Request-Id and an access log line, like every other answer.
 */
describe('refusals of the serve listener are JSON:API errors', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let port: number;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => lines.push(...l.split('\n')),
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  const refusals: [string, string, number, RegExp][] = [
    ['an HTTP/1.1 request without Host', 'GET /api/v2/ping HTTP/1.1\r\n\r\n', 400, /Host header/],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: berth.test\r\n\r\n', 400, /must be a path/],
    ['a backslash in the path', 'GET /api/v2\\organizations HTTP/1.1\r\nHost: berth.test\r\n\r\n', 400, /backslash/],
    ['a Host that is no host name', 'GET /api/v2/ping HTTP/1.1\r\nHost: a b\r\n\r\n', 400, /Host header/],
    ['Expect: 200-ok', 'GET /api/v2/ping HTTP/1.1\r\nHost: berth.test\r\nExpect: 200-ok\r\n\r\n', 417, /100-continue/],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, /CONNECT/],
  ];

  for (const [what, head, status, detail] of refusals) {
    it(`answers ${what} with a ${status} JSON:API error`, async () => {
      const res = await raw(port, head);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toBe('application/vnd.api+json');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const doc = JSON.parse(res.body);
      expect(doc.errors[0].status).toBe(String(status));
      expect(doc.errors[0].detail).toMatch(detail);
      const method = head.split(' ')[0];
      await expect
        .poll(() => lines.join('\n'))
        .toMatch(new RegExp(`^\\S+Z ${method} \\S+ ${status} .* ${res.headers['x-request-id']}$`, 'm'));
    });
  }

  it('answers what node cannot parse (a target that is host:port) as before: 400, JSON:API, connection closed', async () => {
    const res = await raw(port, 'GET berth.test:80 HTTP/1.1\r\nHost: berth.test\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.body).errors[0]).toMatchObject({ status: '400', title: 'bad request' });
  });

  it('still serves HTTP/1.0 without Host, and absolute-form targets', async () => {
    expect((await raw(port, 'GET /api/v2/ping HTTP/1.0\r\n\r\n')).status).toBe(204);
    expect((await raw(port, 'GET http://berth.test/api/v2/ping HTTP/1.1\r\nHost: berth.test\r\n\r\n')).status).toBe(
      204,
    );
    expect((await raw(port, `GET /api/v2/ping HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).status).toBe(204);
    expect((await raw(port, 'GET /api/v2/ping HTTP/1.1\r\nHost: [::1]:80\r\n\r\n')).status).toBe(204);
  });
});
