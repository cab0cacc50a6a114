import { describe, expect, it } from 'vitest';
import { AgentProtocolError, HttpPort } from '../../src/runner/http-port.js';

/**
 * The agent's port over HTTP, against a fake `fetch`: what it sends (token, agent id, the runs it
 * executes), how it reads berth's answers, and that a short outage loses nothing.
 */

type Seen = { method: string; path: string; headers: Record<string, string>; body: string | null };

function fakeServer(answer: (seen: Seen, n: number) => Response | Error) {
  const seen: Seen[] = [];
  const fetchImpl = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const s: Seen = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      headers: init?.headers as Record<string, string>,
      body: init?.body === undefined ? null : typeof init.body === 'string' ? init.body : 'bytes',
    };
    seen.push(s);
    const a = answer(s, seen.length);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  }) as typeof fetch;
  return { seen, port: new HttpPort('http://berth.test:8080', 'agent-secret', fetchImpl, 0) };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const REG = {
  id: 'agent-AAAAAAAAAAAAAAAA',
  name: 'a',
  'agent-pool': { id: 'apool-1', name: 'p' },
  'ping-interval-ms': 5000,
};

describe('HttpPort', () => {
  it('registers, then names the agent and reports the runs it executes in its pings', async () => {
    const { seen, port } = fakeServer((s) => {
      if (s.path === '/api/agent/register') return json(REG, 201);
      if (s.path === '/api/agent/claim') return json({ claim: { runId: 'run-1', phase: 'plan' } });
      if (s.path === '/api/agent/ping') return json({ id: REG.id, status: 'busy' });
      return new Response(null, { status: 204 });
    });
    expect(await port.register('a')).toEqual({
      id: REG.id,
      name: 'a',
      agentPool: { id: 'apool-1', name: 'p' },
      pingIntervalMs: 5000,
    });
    expect(seen[0].headers).toEqual({ Authorization: 'Bearer agent-secret', 'Content-Type': 'application/json' });
    expect((await port.claim())?.runId).toBe('run-1');
    expect(port.busy).toBe(true);
    await port.ping();
    expect(seen.at(-1)).toMatchObject({
      path: '/api/agent/ping',
      headers: { 'X-Berth-Agent': REG.id },
      body: JSON.stringify({ status: 'busy', runs: ['run-1'] }),
    });
    await port.finishPhase('run-1', 'plan', { outcome: 'finished' });
    expect(port.busy).toBe(false);
    await port.ping();
    expect(seen.at(-1)?.body).toBe(JSON.stringify({ status: 'idle', runs: [] }));
    expect(await port.currentState('run-1')).toBeNull();
    expect(await port.recoverInterrupted()).toEqual([]);
  });

  it('tries again while berth is unreachable or answers 503, and then goes on', async () => {
    const { seen, port } = fakeServer((_s, n) => {
      if (n === 1) return new TypeError('fetch failed');
      if (n === 2) return new Response('restarting', { status: 503 });
      return new Response(null, { status: 204 });
    });
    await port.appendLog('run-1', 'plan', Buffer.from('hello'));
    expect(seen.map((s) => s.path)).toEqual(Array(3).fill('/api/agent/runs/run-1/logs/plan'));
  });

  it('gives up after its retries, with the error', async () => {
    const { seen, port } = fakeServer(() => new TypeError('fetch failed'));
    await expect(port.appendLog('run-1', 'plan', Buffer.from('x'))).rejects.toThrow('fetch failed');
    expect(seen).toHaveLength(6);
  });

  it("reads berth's refusals: 404 means the run is no longer this agent's, 401 a refused token", async () => {
    const { port } = fakeServer((s) =>
      s.path.endsWith('/stop') || s.path.startsWith('/api/agent/configuration-versions')
        ? json({ errors: [{ status: '404', title: 'not found', detail: 'run run-1 not found' }] }, 404)
        : json({ errors: [{ status: '401', title: 'unauthorized', detail: 'the agent token is deleted' }] }, 401),
    );
    expect(await port.stopRequested('run-1')).toBe('force');
    expect(await port.configuration('cv-1')).toBeNull();
    const err = await port.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentProtocolError);
    expect((err as AgentProtocolError).status).toBe(401);
    expect((err as AgentProtocolError).message).toContain('the agent token is deleted');
  });
});

describe('HttpPort and the agent rate limit', () => {
  it('waits for Retry-After and sends again on a 429, instead of failing the call', async () => {
    const waits: number[] = [];
    let n = 0;
    const seen: string[] = [];
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) => {
      seen.push(`${init?.method} ${new URL(input instanceof Request ? input.url : input).pathname}`);
      n += 1;
      if (n === 1) return Promise.resolve(json(REG, 201));
      // Two refusals, then the log chunk is stored.
      if (n === 2) return Promise.resolve(json({ errors: [{ status: '429' }] }, 429));
      if (n === 3)
        return Promise.resolve(
          new Response(JSON.stringify({ errors: [{ status: '429' }] }), {
            status: 429,
            headers: { 'Retry-After': '2' },
          }),
        );
      return Promise.resolve(new Response(null, { status: 204 }));
    }) as typeof fetch;
    const port = new HttpPort('http://berth.test:8080', 'agent-secret', fetchImpl, 0, (ms) => {
      waits.push(ms);
      return Promise.resolve();
    });
    await port.register('a');
    await port.appendLog('run-1', 'plan', Buffer.from('hello'));
    expect(seen).toEqual([
      'POST /api/agent/register',
      'POST /api/agent/runs/run-1/logs/plan',
      'POST /api/agent/runs/run-1/logs/plan',
      'POST /api/agent/runs/run-1/logs/plan',
    ]);
    // Without Retry-After: a second; with it, what it says.
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after many refusals in a row, with the 429', async () => {
    let calls = 0;
    const fetchImpl = (() => {
      calls += 1;
      return Promise.resolve(
        new Response(JSON.stringify({ errors: [{ status: '429', detail: 'slow down' }] }), {
          status: 429,
          headers: { 'Retry-After': '1' },
        }),
      );
    }) as unknown as typeof fetch;
    const port = new HttpPort('http://berth.test:8080', 'agent-secret', fetchImpl, 0, () => Promise.resolve());
    const err = await port.claim().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentProtocolError);
    expect((err as AgentProtocolError).status).toBe(429);
    expect(calls).toBe(121);
  });
});
