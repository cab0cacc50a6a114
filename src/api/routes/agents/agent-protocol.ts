import type { IncomingMessage } from 'node:http';
import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import { badRequest, payloadTooLarge, unauthorized } from '../../../domain/common/errors.js';
import type { Clock } from '../../../domain/common/clock.js';
import { MAX_PLAN_JSON_BYTES, MAX_SAVED_PLAN_BYTES } from '../../../domain/common/limits.js';
import { MAX_CONFIGURATION_BYTES } from '../../../domain/runs/run-execution.js';
import {
  agentRunOps,
  authenticateAgentToken,
  claimForAgent,
  pingAgent,
  registerAgent,
  type AgentCredential,
} from '../../../services/agents/agent-protocol.js';
import { pingIntervalMs, sweepAgents } from '../../../services/agents/agent-liveness.js';
import type { PhaseResult } from '../../../services/runs/run-phases.js';
import type { Phase } from '../../../services/runs/run-rows.js';
import type { DB } from '../../../store/schema.js';
import { readJson } from '../../body.js';
import { requestBodyLimit } from '../../body-limit.js';
import { requestHeader } from '../../node-headers.js';
import { RateLimiter, rateLimitHeaders, rateLimitedError } from '../../rate-limit.js';

/**
 * Requests per second an agent token may make by default (`berth serve --agent-rate-limit`). One
 * `berth agent` running a chatty apply (300 resources printing three lines each) over loopback
 * sent at most about 250 a second, nearly all log chunks (each sent as soon as the previous one is
 * stored); it claims and asks whether to stop about once a second, and pings every 5 s. 1000
 * leaves that four times over (twice for two such runs at once); agents that share a token share
 * its budget. A refused agent waits for Retry-After and sends again (runner/http-port.ts), its log
 * chunks gathering meanwhile: it loses nothing.
 */
export const DEFAULT_AGENT_RATE_LIMIT = 1000;

/** The header that names the calling agent (its id, from registration). */
export const AGENT_HEADER = 'x-berth-agent';

interface ProtocolEnv {
  Variables: { cred: AgentCredential };
}

/**
 * The agent protocol, under `/api/agent` (docs/api.md, "The agent protocol"): what `berth agent`
 * (runner/http-port.ts) calls, authenticated by an agent token of a pool and nothing else (a user,
 * team or organization token gets 401 here; an agent token gets 401 under `/api/v2`). Plain JSON
 * and raw bytes, not JSON:API: HCP Terraform's own agent protocol is private, this one is berth's.
 */
export function agentProtocolRoutes(options: {
  db: Kysely<DB>;
  clock: Clock;
  agentTimeoutMs: number;
  /** Requests per second per agent token; 0 or absent: none (serve gives DEFAULT_AGENT_RATE_LIMIT). */
  rateLimit?: number;
  /** serve executes runs itself (what the runs an agent's applied run triggers need, triggered-runs.ts). */
  executesRuns?: boolean;
}) {
  const { db, clock } = options;
  const now = () => clock.now();
  const r = new Hono<ProtocolEnv>();
  // A fixed one-second window per agent token (rate-limit.ts), on the app's clock.
  const limiter =
    options.rateLimit && options.rateLimit > 0
      ? new RateLimiter(options.rateLimit, { now: () => clock.now().getTime() })
      : null;

  r.use('*', async (c, next) => {
    const header = requestHeader(c as Context, 'authorization');
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized('an Authorization: Bearer header with an agent token is required');
    const cred = await authenticateAgentToken(db, match[1], now());
    c.set('cred', cred);
    if (limiter) {
      const decision = limiter.take(`agent-token:${cred.tokenId}`);
      if (!decision.allowed) throw rateLimitedError(decision, ' with this agent token', rateLimitHeaders(decision));
    }
    await next();
  });
  // The largest body is a configuration archive, a saved plan or a JSON plan with its provider schemas.
  const maxBody = Math.max(MAX_CONFIGURATION_BYTES, MAX_SAVED_PLAN_BYTES, MAX_PLAN_JSON_BYTES);
  r.use(
    '*',
    requestBodyLimit(maxBody, () => {
      throw payloadTooLarge(`agent request bodies are limited to ${maxBody} bytes`);
    }),
  );

  const agentId = (c: Context<ProtocolEnv>) => requestHeader(c as Context, AGENT_HEADER);
  // The request's id (request-id.ts, the app's first middleware), for the audit records.
  const requestIdOf = (c: Context<ProtocolEnv>) => ((c as Context).get('requestId') as string | undefined) ?? null;
  const ops = (c: Context<ProtocolEnv>) =>
    agentRunOps(db, c.get('cred'), agentId(c), now, options.executesRuns === true);
  const phaseOf = (c: Context<ProtocolEnv>): Phase => {
    const p = c.req.param('phase');
    if (p !== 'plan' && p !== 'apply') throw badRequest(`the phase is plan or apply, not ${p}`);
    return p;
  };
  const bytes = async (c: Context<ProtocolEnv>) => Buffer.from(await c.req.arrayBuffer());
  const field = (body: Record<string, unknown> | null, name: string): string | undefined => {
    const v = body?.[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
    return v;
  };

  r.post('/register', async (c) => {
    const body = await readJson(c, { optional: true });
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const ip = incoming?.socket?.remoteAddress?.replace(/^::ffff:/, '') ?? null;
    const cred = c.get('cred');
    const agent = await registerAgent(db, cred, field(body, 'name'), ip, now(), requestIdOf(c));
    return c.json(
      {
        id: agent.id,
        name: agent.name,
        'agent-pool': { id: cred.poolId, name: cred.poolName },
        'ping-interval-ms': pingIntervalMs(options.agentTimeoutMs),
      },
      201,
    );
  });
  r.post('/ping', async (c) => {
    const body = await readJson(c, { optional: true });
    const status = field(body, 'status') ?? 'idle';
    const runs = body?.runs;
    if (
      runs !== undefined &&
      (!Array.isArray(runs) || runs.length > 1000 || !runs.every((id) => typeof id === 'string'))
    )
      throw badRequest('runs must be a list of run ids (at most 1000)');
    const agent = await pingAgent(db, c.get('cred'), agentId(c), status, runs, now(), requestIdOf(c));
    // Each ping also looks for agents gone quiet (serve sweeps on its own as well).
    await sweepAgents(db, now(), options.agentTimeoutMs);
    return c.json({ id: agent.id, status: agent.status });
  });
  r.post('/claim', async (c) => {
    const claim = await claimForAgent(db, c.get('cred'), agentId(c), now());
    return c.json({ claim });
  });
  r.get('/configuration-versions/:id', async (c) => {
    const archive = await ops(c).configuration(c.req.param('id'));
    return c.body(new Uint8Array(archive), 200, { 'Content-Type': 'application/octet-stream' });
  });
  r.post('/runs/:id/logs/:phase', async (c) => {
    await ops(c).appendLog(c.req.param('id'), phaseOf(c), await bytes(c));
    return c.body(null, 204);
  });
  r.post('/runs/:id/finish/:phase', async (c) => {
    const body = await readJson(c);
    const result = parseResult(body);
    await ops(c).finishPhase(c.req.param('id'), phaseOf(c), result);
    return c.body(null, 204);
  });
  r.get('/runs/:id/state', async (c) => {
    const state = await ops(c).currentState(c.req.param('id'));
    if (!state) return c.body(null, 204);
    return c.body(new Uint8Array(state), 200, { 'Content-Type': 'application/json' });
  });
  r.get('/runs/:id/variables', async (c) => c.json(await ops(c).variables(c.req.param('id'))));
  r.put('/runs/:id/state', async (c) => {
    await ops(c).storeState(c.req.param('id'), await bytes(c));
    return c.body(null, 204);
  });
  // The state an interrupted apply left on the agent's machine: { stateVersionId } or null.
  r.put('/runs/:id/interrupted-state', async (c) =>
    c.json(await ops(c).keepInterruptedState(c.req.param('id'), await bytes(c))),
  );
  r.put('/runs/:id/plan', async (c) => {
    await ops(c).storePlan(c.req.param('id'), await bytes(c));
    return c.body(null, 204);
  });
  // The JSON plan, then the provider schemas: `plan-bytes` is the length of the first.
  r.put('/runs/:id/plan-json', async (c) => {
    const body = await bytes(c);
    const raw = c.req.query('plan-bytes') ?? '';
    const split = /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
    if (!(split <= body.length))
      throw badRequest('plan-bytes must be the length of the JSON plan at the start of the body');
    await ops(c).storePlanJson(c.req.param('id'), body.subarray(0, split), body.subarray(split));
    return c.body(null, 204);
  });
  r.get('/runs/:id/plan', async (c) => {
    const plan = await ops(c).savedPlan(c.req.param('id'));
    if (!plan) return c.body(null, 204);
    return c.body(new Uint8Array(plan), 200, { 'Content-Type': 'application/octet-stream' });
  });
  r.get('/runs/:id/stop', async (c) => c.json({ stop: await ops(c).stopRequested(c.req.param('id')) }));
  return r;
}

const OUTCOMES = ['finished', 'errored', 'canceled'];

/** A phase's result as the agent sends it (runner/http-port.ts): checked, since it is a caller's input. */
function parseResult(body: Record<string, unknown> | null): PhaseResult {
  const outcome = body?.outcome;
  if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome))
    throw badRequest('outcome must be finished, errored or canceled');
  const result: PhaseResult = { outcome: outcome as PhaseResult['outcome'] };
  if (typeof body?.errorMessage === 'string') result.errorMessage = body.errorMessage.slice(0, 2000);
  if (typeof body?.hasChanges === 'boolean') result.hasChanges = body.hasChanges;
  const counts = body?.counts as Record<string, unknown> | undefined;
  if (counts && typeof counts === 'object') {
    const n = (k: string) =>
      Number.isSafeInteger(counts[k]) && (counts[k] as number) >= 0 ? (counts[k] as number) : 0;
    result.counts = { additions: n('additions'), changes: n('changes'), destructions: n('destructions') };
  }
  return result;
}
