import type { ClaimedRun, EffectiveVariables, Phase, PhaseResult, RunnerPort } from './port.js';

/**
 * The executor's port in `berth agent`: the agent protocol (`/api/agent`, api/routes/agent-protocol.ts)
 * over HTTP, with the pool's agent token, so that the very same Executor runs on another machine.
 * The agent registers first (`register`); every later call names it (`X-Berth-Agent`).
 */

/** An answer of the agent protocol that is not a success. */
export class AgentProtocolError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentProtocolError';
  }
}

/** How many times a request is tried again while berth is unreachable, and the first wait (ms). */
const RETRIES = 5;
const RETRY_FIRST_MS = 500;
/**
 * How many times in a row a request refused with 429 (the agent token's rate limit) is sent again,
 * each after the Retry-After berth answered (at most RATE_LIMIT_MAX_WAIT_MS): minutes of waiting
 * before the call fails.
 */
const RATE_LIMIT_RETRIES = 120;
const RATE_LIMIT_MAX_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Registration {
  id: string;
  name: string;
  agentPool: { id: string; name: string };
  pingIntervalMs: number;
}

export class HttpPort implements RunnerPort {
  private agentId: string | null = null;
  /** Told when berth answers a call 409 (the agent may have been given up: agent.ts pings at once). */
  onConflict: (() => void) | null = null;
  /** Runs whose claimed phase is not finished yet: the agent is `busy` while there are some. */
  private readonly executing = new Set<string>();

  constructor(
    private readonly server: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch = fetch,
    /** The first wait before trying a request again (doubling each time). */
    private readonly retryFirstMs = RETRY_FIRST_MS,
    /** How the port waits before sending again (tests make it instant and record the waits). */
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {}

  get busy(): boolean {
    return this.executing.size > 0;
  }

  private async call(method: string, path: string, body?: Buffer | object): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (this.agentId) headers['X-Berth-Agent'] = this.agentId;
    let payload: RequestInit['body'];
    if (Buffer.isBuffer(body)) {
      headers['Content-Type'] = 'application/octet-stream';
      payload = new Uint8Array(body);
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await this.send(method, path, headers, payload);
    if (res.ok) return res;
    if (res.status === 409) this.onConflict?.();
    const text = await res.text().catch(() => '');
    let detail = text.slice(0, 500) || res.statusText;
    try {
      const doc = JSON.parse(text) as { errors?: { detail?: string; title?: string }[] };
      detail = doc.errors?.[0]?.detail ?? doc.errors?.[0]?.title ?? detail;
    } catch {
      // not a JSON error document: its text as it is
    }
    throw new AgentProtocolError(res.status, `${method} /api/agent${path}: ${res.status} ${detail}`);
  }

  /**
   * One request, tried again while berth cannot be reached or answers 502-504 (a restart, a proxy):
   * up to RETRIES more times, waiting twice as long each time, so that a short outage loses no
   * log and no phase end. A 429 (the agent token's rate limit) is sent again after the Retry-After
   * berth answered, up to RATE_LIMIT_RETRIES times in a row: the run goes on, only later.
   */
  private async send(method: string, path: string, headers: Record<string, string>, body: RequestInit['body']) {
    const url = new URL(`/api/agent${path}`, this.server);
    let limited = 0;
    for (let attempt = 0; ;) {
      const last = attempt >= RETRIES;
      try {
        const res = await this.fetchImpl(url, { method, headers, body });
        if (res.status === 429 && limited < RATE_LIMIT_RETRIES) {
          limited += 1;
          await res.body?.cancel();
          await this.wait(retryAfterMs(res.headers.get('retry-after')));
          continue;
        }
        if (last || ![502, 503, 504].includes(res.status)) return res;
        await res.body?.cancel();
      } catch (err) {
        if (last) throw err;
      }
      await this.wait(this.retryFirstMs * 2 ** attempt);
      attempt += 1;
    }
  }

  private async json<T>(method: string, path: string, body?: object): Promise<T> {
    return (await (await this.call(method, path, body)).json()) as T;
  }

  private async bytes(res: Response): Promise<Buffer | null> {
    if (res.status === 204) return null;
    return Buffer.from(await res.arrayBuffer());
  }

  /** Registers this agent with the token's pool (a new agent id; a second call registers anew). */
  async register(name: string | undefined): Promise<Registration> {
    this.agentId = null;
    const r = await this.json<{
      id: string;
      name: string;
      'agent-pool': { id: string; name: string };
      'ping-interval-ms': number;
    }>('POST', '/register', name ? { name } : {});
    this.agentId = r.id;
    return { id: r.id, name: r.name, agentPool: r['agent-pool'], pingIntervalMs: r['ping-interval-ms'] };
  }

  /** Says the agent is alive (`idle`/`busy`, as it is) or stops (`exited`). */
  /** With the runs it executes: their heartbeat (a run it no longer reports is not kept alive). */
  async ping(status?: 'exited'): Promise<void> {
    await this.json('POST', '/ping', { status: status ?? (this.busy ? 'busy' : 'idle'), runs: [...this.executing] });
  }

  async claim(): Promise<ClaimedRun | null> {
    const { claim } = await this.json<{ claim: ClaimedRun | null }>('POST', '/claim');
    if (claim) this.executing.add(claim.runId);
    return claim;
  }

  async configuration(configurationVersionId: string): Promise<Buffer | null> {
    try {
      return await this.bytes(
        await this.call('GET', `/configuration-versions/${encodeURIComponent(configurationVersionId)}`),
      );
    } catch (err) {
      if (err instanceof AgentProtocolError && err.status === 404) return null;
      throw err;
    }
  }

  async appendLog(runId: string, phase: Phase, chunk: Buffer): Promise<void> {
    await this.call('POST', `/runs/${encodeURIComponent(runId)}/logs/${phase}`, chunk);
  }

  async finishPhase(runId: string, phase: Phase, result: PhaseResult): Promise<void> {
    try {
      await this.call('POST', `/runs/${encodeURIComponent(runId)}/finish/${phase}`, result);
    } finally {
      this.executing.delete(runId);
    }
  }

  async currentState(runId: string): Promise<Buffer | null> {
    return this.bytes(await this.call('GET', `/runs/${encodeURIComponent(runId)}/state`));
  }

  async variables(runId: string): Promise<EffectiveVariables> {
    return this.json<EffectiveVariables>('GET', `/runs/${encodeURIComponent(runId)}/variables`);
  }

  async storeState(runId: string, state: Buffer): Promise<void> {
    await this.call('PUT', `/runs/${encodeURIComponent(runId)}/state`, state);
  }

  async keepInterruptedState(runId: string, state: Buffer): Promise<string> {
    const res = await this.call('PUT', `/runs/${encodeURIComponent(runId)}/interrupted-state`, state);
    const kept = (await res.json()) as { stateVersionId?: string } | null;
    return kept?.stateVersionId
      ? `kept the state left by the interrupted apply of run ${runId} as state version ${kept.stateVersionId} (not current)`
      : `did not keep the state left by run ${runId}: it is gone or was not applying`;
  }

  async storePlan(runId: string, plan: Buffer): Promise<void> {
    await this.call('PUT', `/runs/${encodeURIComponent(runId)}/plan`, plan);
  }

  /** One body: the JSON plan then the provider schemas, `plan-bytes` saying where the first ends. */
  async storePlanJson(runId: string, plan: Buffer, schemas: Buffer): Promise<void> {
    const path = `/runs/${encodeURIComponent(runId)}/plan-json?plan-bytes=${plan.length}`;
    await this.call('PUT', path, Buffer.concat([plan, schemas]));
  }

  async savedPlan(runId: string): Promise<Buffer | null> {
    return this.bytes(await this.call('GET', `/runs/${encodeURIComponent(runId)}/plan`));
  }

  /** A run berth no longer lets this agent see (ended without it, claimed by another): force. */
  async stopRequested(runId: string): Promise<'cancel' | 'force' | null> {
    try {
      return (await this.json<{ stop: 'cancel' | 'force' | null }>('GET', `/runs/${encodeURIComponent(runId)}/stop`))
        .stop;
    } catch (err) {
      if (err instanceof AgentProtocolError && err.status === 404) return 'force';
      throw err;
    }
  }

  /** The heartbeat of the runs this agent executes: its ping. */
  async heartbeat(): Promise<void> {
    await this.ping();
  }

  /** Runs interrupted elsewhere are berth's to end (its liveness sweep), not an agent's. */
  recoverInterrupted(): Promise<string[]> {
    return Promise.resolve([]);
  }
}

/** The wait a 429's Retry-After asks for (whole seconds; 1 s when absent or unreadable), at most a minute. */
function retryAfterMs(header: string | null): number {
  const seconds = header === null ? NaN : Number(header);
  const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
  return Math.min(RATE_LIMIT_MAX_WAIT_MS, Math.max(ms, 100));
}
