import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/**
 * Requests in flight when `serve` begins to shut down are answered, with `Connection: close`: a
 * keep-alive client told `keep-alive` would send its next request on a connection the server is
 * about to close, and meet a reset.
 */
describe('serve shutting down with keep-alive clients in flight', () => {
  const tmp = tempDb();
  let server: RunningServer;
  const CLIENTS = 16;

  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('answers every request in flight with Connection: close', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const inFlight: { req: ClientRequest; body: Buffer; answer: Promise<IncomingMessage & { text: string }> }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const body = Buffer.from(
        JSON.stringify({ data: { type: 'organizations', attributes: { name: `org-${i}`, email: `o${i}@acme.test` } } }),
      );
      const req = httpRequest(`${server.url}/api/v2/organizations`, {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${server.createdToken}`,
          'Content-Type': 'application/vnd.api+json',
          'Content-Length': String(body.length),
          Expect: '100-continue',
        },
      });
      const answer = new Promise<IncomingMessage & { text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(Object.assign(res, { text })));
        });
        req.on('error', reject);
      });
      // Once the server said "100 Continue" it is handling the request: half the body for now.
      await new Promise<void>((resolve) => req.once('continue', resolve));
      req.write(body.subarray(0, 10));
      inFlight.push({ req, body, answer });
    }
    const closed = server.close();
    await new Promise((r) => setTimeout(r, 50));
    for (const r of inFlight) r.req.end(r.body.subarray(10));
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    await closed;
    agent.destroy();
    expect(answers.map((a) => a.statusCode)).toEqual(Array(CLIENTS).fill(201));
    expect(answers.map((a) => a.headers.connection)).toEqual(Array(CLIENTS).fill('close'));
  });
});
