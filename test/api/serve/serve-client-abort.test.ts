import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/**
 * A client that hangs up in the middle of its request body: Node reports it as ECONNRESET, the
 * code of a broken database connection too. It must not be taken for a database outage (a 503
 * and a stack trace per abort): one access log line, status 499, and nothing else.
 */
describe('serve when clients disconnect mid-body', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let port: number;
  const lines: string[] = [];
  let onLine = () => {};
  /** Resolves once `n` non-empty lines were logged (waits for the log, not for a time). */
  const logged = (n: number) =>
    new Promise<void>((resolve) => {
      onLine = () => {
        if (lines.filter((l) => l !== '').length >= n) resolve();
      };
      onLine();
    });

  /** Sends the head and part of a body, then closes the connection. */
  const abort = (method: string, path: string, token: string) =>
    new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `${method} ${path} HTTP/1.1\r\nHost: berth.test\r\nAuthorization: Bearer ${token}\r\n` +
            `Content-Type: application/vnd.api+json\r\nContent-Length: 1000\r\n\r\n{"data":{"type":`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => {
        lines.push(...l.split('\n'));
        onLine();
      },
      rateLimit: 0,
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('logs each abort as one access line with status 499: no 503, no stack trace, no database error', async () => {
    const token = server.createdToken!;
    for (let i = 0; i < 10; i++) {
      await abort('POST', '/api/v2/organizations', token);
      await abort('PATCH', '/api/v2/organizations/none', token);
    }
    // Every abort reached the app and was answered (to no one): wait for its log line (as many
    // lines as aborts; a stack trace or a 503 would be among them) before the server stops.
    await logged(20);
    await server.close();
    const all = lines.filter((l) => l !== '');
    expect(all.filter((l) => / 499 /.test(l))).toHaveLength(20);
    // Each line starts with the time of the answer (UTC ISO-8601), then the request.
    expect(all.filter((l) => /^\S+Z POST \/api\/v2\/organizations 499 /.test(l))).toHaveLength(10);
    expect(all.filter((l) => !/ 499 /.test(l))).toEqual([]);
    // Nothing was created.
    const again = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
    try {
      const res = await fetch(`${again.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await res.json()) as any).data).toEqual([]);
    } finally {
      server = again;
    }
  });
});
