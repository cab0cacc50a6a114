import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../src/runner/agent.js';
import { accessFixture, type AccessFixture } from '../helpers/access.js';
import { TestApi } from '../helpers/api.js';
import { EXECUTING, P } from '../helpers/run-execution.js';
import { createAgentPool, createAgentToken } from '../helpers/workspaces.js';

/**
 * A `berth agent` whose record berth no longer has (a pool manager deleted it once it was marked
 * exited, or serve pruned it after the retention) registers again at its next ping, instead of
 * pinging a 404 forever and never claiming a run again. Against the in-process API; the
 * registration's ping interval is shortened by the fake network so the pings come quickly.
 */
/** Waits for an event, however slow the machine (no bound on how fast it must come). */
const WAIT = { timeout: 20_000 };

describe('berth agent, deleted by berth while it was away', () => {
  let f: AccessFixture;
  let pool: string;
  let token: string;
  let agent: RunningAgent | undefined;
  const seen: string[] = [];
  const lines: string[] = [];

  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    const res = await f.api.app.fetch(req);
    if (!new URL(req.url).pathname.endsWith('/register') || res.status !== 201) return res;
    const body = (await res.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...body, 'ping-interval-ms': 25 }), {
      status: 201,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;

  beforeEach(async () => {
    seen.length = 0;
    lines.length = 0;
    f = await accessFixture(await TestApi.create({ settings: EXECUTING }));
    pool = await createAgentPool(f.api, 'acme', 'builders');
    token = await createAgentToken(f.api, pool, f.owner.token);
  });
  afterEach(async () => {
    await agent?.stop().catch(() => undefined);
    agent = undefined;
    await f.api.close();
  });

  const agentsOfPool = async () =>
    (await f.api.get(`${P}/agent-pools/${pool}/agents`, { token: f.owner.token })).body.data.map((a: any) => ({
      id: a.id,
      name: a.attributes.name,
      status: a.attributes.status,
    }));

  it('registers again after its record was deleted, and is listed as running under its name', async () => {
    agent = await startAgent({
      server: 'http://berth.test',
      token,
      name: 'rack-1',
      concurrency: 1,
      terraformPath: 'terraform',
      log: (line) => lines.push(line),
      fetchImpl,
    });
    const first = agent.registration.id;
    await expect.poll(() => seen.filter((s) => s === 'POST /api/agent/ping').length, WAIT).toBeGreaterThan(0);
    // Given up (as the sweep does to a silent agent), then deleted by a pool manager.
    await f.api.store.db.updateTable('agents').set({ status: 'exited' }).where('id', '=', first).execute();
    const deleted = await f.api.delete(`${P}/agents/${first}`, { token: f.owner.token });
    expect(deleted.status, deleted.text).toBe(204);

    await expect.poll(() => seen.filter((s) => s === 'POST /api/agent/register').length, WAIT).toBe(2);
    await expect.poll(() => lines.some((l) => l.includes('registered again as agent-')), WAIT).toBe(true);
    const listed = await agentsOfPool();
    expect(listed).toHaveLength(1);
    expect(listed[0].id).not.toBe(first);
    expect(listed[0]).toMatchObject({ name: 'rack-1', status: 'idle' });
  });
});
