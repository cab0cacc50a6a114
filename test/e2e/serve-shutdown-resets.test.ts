import { Agent, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * Keep-alive clients sending request after request while `serve` receives SIGTERM (issue 32,
 * item 10): every request sent on a kept-alive connection is answered (the last ones with
 * `Connection: close`), none meets a reset or a connection closed under it. A client that was told
 * `Connection: close` stops: it knows the server is going away (a real one would reconnect, and
 * meet a refused connection).
 */
describe('berth serve on SIGTERM with keep-alive clients sending continuously', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  const CLIENTS = 16;
  const ROUNDS = 6;
  /** Requests each client has answered before the signal is sent. */
  const WARM = 10;

  interface Outcome {
    answered: number;
    toldToClose: boolean;
    /** A request that failed after it was sent on an open (kept-alive) connection. */
    failures: string[];
  }

  /** One client: one connection (kept alive) at a time, one request after the other. */
  function client(server: ServeProcess, token: string, warm: () => void): Promise<Outcome> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const outcome: Outcome = { answered: 0, toldToClose: false, failures: [] };
    const paths = ['/api/v2/ping', '/api/v2/organizations'];
    return new Promise((resolve) => {
      const finish = () => {
        agent.destroy();
        resolve(outcome);
      };
      const next = () => {
        const req = httpRequest(`${server.url}${paths[outcome.answered % 2]}`, {
          agent,
          headers: { Authorization: `Bearer ${token}` },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200 && res.statusCode !== 204)
              outcome.failures.push(`answered ${res.statusCode} on ${req.path}`);
            outcome.answered += 1;
            if (outcome.answered === WARM) warm();
            if (res.headers.connection === 'close') {
              outcome.toldToClose = true;
              return finish();
            }
            next();
          });
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          // A new connection refused (the listener is closed) is no reset: the server said it was
          // going away by closing the kept-alive one cleanly, between requests.
          if (!req.reusedSocket && err.code === 'ECONNREFUSED') return finish();
          outcome.failures.push(`${err.code ?? err.message} (${req.reusedSocket ? 'kept-alive' : 'new'} connection)`);
          finish();
        });
        req.end();
      };
      next();
    });
  }

  it(`resets no client over ${ROUNDS} rounds of ${CLIENTS} clients`, async () => {
    const failures: string[] = [];
    let token: string | null = null;
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServe(tmp.db);
      // The token is printed at the first start only.
      token ??= server.token;
      try {
        let warmed = 0;
        let allWarm!: () => void;
        const warm = new Promise<void>((resolve) => (allWarm = resolve));
        const clients = Array.from({ length: CLIENTS }, () =>
          client(server, token!, () => {
            if (++warmed === CLIENTS) allWarm();
          }),
        );
        await warm;
        const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
        server.child.kill('SIGTERM');
        const outcomes = await Promise.all(clients);
        expect(await exited).toBe(0);
        for (const [i, o] of outcomes.entries())
          failures.push(...o.failures.map((f) => `round ${round}, client ${i}: ${f}`));
        // Every client kept being answered until it was told to close (or its next connection was refused).
        expect(outcomes.every((o) => o.answered >= WARM)).toBe(true);
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
