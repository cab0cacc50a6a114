import { existsSync } from 'node:fs';
import { Agent, get as httpGet, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';

const waitFor = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('berth serve on SIGTERM', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('finishes the in-flight request, refuses new connections, closes the database cleanly and exits 0', async () => {
    const server = await startServe(tmp.db);
    try {
      const body = Buffer.from(
        JSON.stringify({ data: { type: 'organizations', attributes: { name: 'inflight', email: 'i@acme.test' } } }),
      );
      // A keep-alive client: the server must not wait for it to hang up after its answer.
      const agent = new Agent({ keepAlive: true });
      let req!: ClientRequest;
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req = httpRequest(`${server.url}/api/v2/organizations`, {
          method: 'POST',
          agent,
          headers: {
            Authorization: `Bearer ${server.token}`,
            'Content-Type': 'application/vnd.api+json',
            'Content-Length': String(body.length),
            // The server's "100 Continue" tells us it has the request and is handling it.
            Expect: '100-continue',
          },
        });
        req.on('response', (res: IncomingMessage) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
      });
      response.catch(() => {});
      await new Promise<void>((resolve) => req.once('continue', resolve));
      // Half the body now, the rest only after the server was told to stop.
      req.write(body.subarray(0, 20));

      server.child.kill('SIGTERM');
      await waitFor('the SIGTERM line', () => server.stderr().includes('received SIGTERM'));

      // No new connection is served. One made while the listener is being closed can be reset
      // rather than refused; either way it never gets an answer, and soon every one is refused.
      const attempt = () =>
        new Promise<string>((resolve) => {
          httpGet(`${server.url}/api/v2/ping`, { agent: false }, (res) => resolve(`answered ${res.statusCode}`)).on(
            'error',
            (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message),
          );
        });
      const outcomes = [await attempt()];
      while (outcomes.at(-1) !== 'ECONNREFUSED' && outcomes.length < 50) outcomes.push(await attempt());
      expect(outcomes.every((o) => o === 'ECONNREFUSED' || o === 'ECONNRESET')).toBe(true);
      expect(outcomes.at(-1)).toBe('ECONNREFUSED');

      req.end(body.subarray(20));
      const res = await response;
      expect(res.status).toBe(201);
      expect(JSON.parse(res.text).data.id).toBe('inflight');

      const code = await new Promise<number | null>((resolve) =>
        server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once('exit', (c) => resolve(c)),
      );
      expect(code).toBe(0);
      expect(server.stderr()).toContain('berth stopped');
      expect(server.stderr()).not.toMatch(/unexpected error|database is locked/);
      agent.destroy();
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }

    // Closed cleanly: SQLite checkpointed and removed its write-ahead log on the last close.
    expect(existsSync(`${tmp.db}-wal`)).toBe(false);
    const db = new Database(tmp.db, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const row = db.prepare('SELECT name FROM organizations WHERE name = ?').get('inflight') as
        { name: string } | undefined;
      expect(row?.name).toBe('inflight');
    } finally {
      db.close();
    }
  });
});
