import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createServer as createHttpsServer } from 'node:https';
import { getRequestListener, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { getPath } from 'hono/utils/url';
import { ensureSiteAdminToken } from '../services/identity/tokens.js';
import { loadSettings, saveEdition } from '../services/instance/settings.js';
import { savePrivateDestinations } from '../services/notifications/delivery-settings.js';
import { smtpUrlProblem } from '../services/notifications/email-sender.js';
import type { InstanceSettings } from '../services/context.js';
import type { DatabaseLocation } from '../store/location.js';
import { openStore, type Durability } from '../store/open.js';
import { attachSecretKey, keyAttachmentLines } from '../store/secrets/attach.js';
import { secretKeySource } from '../store/secrets/key-source.js';
import type { SandboxConfig } from '../runner/sandbox.js';
import { createApp } from './app.js';
import { requestActors, tokenExpiries } from './auth.js';
import { JSONAPI, renderedDocument } from './documents.js';
import { requestIdOf } from './request-id.js';
import { LOCAL_SITE_ADMIN, type Actor } from '../domain/permissions/actor.js';
import { systemClock, type Clock } from '../domain/common/clock.js';
import { DEFAULT_STATE_URL_TTL_SECONDS, MAX_STATE_URL_TTL_SECONDS } from '../domain/state/state-url.js';
import { pruneRetainedData } from '../services/instance/data-retention.js';
import { recoverStagedStateFiles } from '../services/state/state-content.js';
import { stateUrlChecker } from '../services/state/state-urls.js';
import { BerthError } from '../domain/common/errors.js';
import { errorResponse, internalError } from './errors.js';
import { cachedAnswers, stampFailures, type NodeListener } from './cached-answers.js';
import { expectationFailed, refuse, refuseConnect, requestProblem } from './refusals.js';
import { databaseErrorAnswer, isDatabaseUnavailable } from '../store/database-errors.js';
import { AccessLog, loggedPath } from './access-log.js';
import { logRunMoves } from './run-lifecycle-log.js';
import { serveLogger, type ServeLogger } from './serve-log.js';
import { DEFAULT_READ_CACHE, ReadCache } from './read-cache.js';
import { FairGate, MAX_CONCURRENT_READS, TokenSubjects, gateSubject, readsPerSubject } from './read-gate.js';
import { consoleAssetRoutes } from './console-assets.js';
import { Connections, ConnectionsPerAddress, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from './connections.js';
import { IdleCollector } from './idle-gc.js';
import {
  answerClientError,
  DEFAULT_LIMITS,
  limitsProblem,
  nodeServerOptions,
  uriTooLong,
  type ServerLimits,
} from './limits.js';
import {
  DEFAULT_RATE_LIMIT,
  KnownTokens,
  RateLimiter,
  rateLimitHeaders,
  failedAuthenticationKey,
  rateLimitKey,
  rateLimitedError,
  subjectKey,
  tokenKey,
  type RateDecision,
} from './rate-limit.js';
import { DEFAULT_AGENT_RATE_LIMIT } from './routes/agents/agent-protocol.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** The database: a SQLite file path, a `postgres://` URL, or a parsed location. */
  database: string | DatabaseLocation;
  /** SQLite: how commits are flushed (store/sqlite.ts); absent: `BERTH_DURABILITY`, else `full`. */
  durability?: Durability;
  /** When given, stored as the instance's edition before serving. */
  edition?: InstanceSettings['edition'];
  /** Where log lines go (stderr in the CLI). */
  log: (line: string) => void;
  /**
   * The log's format and level (`--log-format`, `--log-level`; serve-log.ts), for the access log
   * and the runs' lifecycle lines; `log` is then its `line`. Absent: text, from info on, over `log`.
   */
  logger?: ServeLogger;
  /**
   * Milliseconds between runs of the retention pruning task (self-hosted edition); 0 or absent
   * turns it off. The first run comes one interval after the start.
   */
  pruneIntervalMs?: number;
  /**
   * The clock of the app (token expiry, timestamps), of the read cache's token expiries, of the
   * pruning task and of the rate limiter's windows (tests fix it).
   */
  clock?: Clock;
  /** Serve HTTPS with this PEM certificate (chain) and key instead of plain HTTP. */
  tls?: { cert: Buffer | string; key: Buffer | string };
  /** Requests per second per user (team, organization; per client address without a token) under /api/v2; 0 turns it off. Default 30. */
  rateLimit?: number;
  /**
   * Entries of the read cache of GET answers (read-cache.ts); 0 turns it off. Default 1000.
   */
  readCacheEntries?: number;
  /**
   * When set, the read cache's counters (GET lookups, hits, answers stored) are written to this
   * file as JSON when the server stops (`BERTH_READ_CACHE_STATS`; the benchmarks read it).
   */
  readCacheStatsFile?: string;
  /** Seconds the signed hosted-state URLs work (default 300, at most a day). */
  stateUrlTtlSeconds?: number;
  /**
   * Connections one client address may hold open at once; past it, its new connections are closed
   * at once (connections.ts). 0 turns it off. Default 256.
   */
  maxConnectionsPerAddress?: number;
  /** Header size, URL length and timeouts; each missing one takes its default (DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  /** The built web console served at `/` (default: dist/console beside the CLI bundle). */
  consoleDir?: string;
  /**
   * Execute runs (`berth serve` does when it finds a terraform binary): the binary, its version
   * (`terraform version -json`, asked once at start-up: the default terraform-version of new
   * workspaces) and the executor's bounds.
   */
  executeRuns?: {
    terraformPath: string;
    terraformVersion: string;
    concurrency: number;
    timeLimitMs: number;
    heartbeatTimeoutMs?: number;
    /** The names clients reach this berth by (`--hostname`); runs also get `localhost:PORT` and `127.0.0.1:PORT`. */
    hostnames?: string[];
    /** The certificate file of `tls` (an absolute path), which terraform in runs is told to trust. */
    tlsCertFile?: string;
    /** The sandbox of every phase (runner/sandbox.ts); null: none (`--sandbox off`). */
    sandbox?: SandboxConfig | null;
  };
  /** The scheduler (src/scheduler/: auto-destroy, health assessments; without executeRuns, agent workspaces' auto-destroys). */
  scheduler?: { intervalMs?: number; assessmentIntervalMinutes?: number };
  /** Milliseconds without a ping after which an agent is gone and its runs end errored (`--agent-timeout`; 30 s). */
  agentTimeoutMs?: number;
  /** Requests per second per agent token under /api/agent (`--agent-rate-limit`; DEFAULT_AGENT_RATE_LIMIT); 0 turns it off. */
  agentRateLimit?: number;
  /** Milliseconds after its last ping after which an exited or errored agent is deleted (`--agent-retention`; 24 h; 0: never). */
  agentRetentionMs?: number;
  /**
   * The key file of sensitive values (`--secret-key-file`, BERTH_SECRET_KEY_FILE); absent:
   * BERTH_SECRET_KEY, else `<SQLite file>.key` (store/secrets/key-source.ts).
   */
  secretKeyFile?: string;
  /**
   * Notifications (services/notifications/, src/scheduler/notification-deliverer.ts): the SMTP
   * server of email notifications (`--smtp-url`), their sender, whether notification URLs may
   * name private or loopback addresses (`--notification-private-destinations`, stored in the
   * database when given), and the deliverer's round interval (tests).
   */
  notifications?: {
    smtpUrl?: string;
    emailFrom?: string;
    privateDestinations?: 'allow' | 'deny';
    intervalMs?: number;
    timeoutMs?: number;
  };
}

/** A start-up problem that is the operator's to fix (bad TLS files, bad limits, address in use). */
export class ServeSetupError extends Error {
  override name = 'ServeSetupError';
}

export interface RunningServer {
  url: string;
  edition: InstanceSettings['edition'];
  /** The database, for the log: a SQLite path, or a PostgreSQL URL without its password. */
  database: string;
  /** SQLite's durability (absent on PostgreSQL, where it is the server's). */
  durability?: Durability;
  /** The site-administrator token created at this start, if the database had none. */
  createdToken: string | null;
  /** The start-up lines about the key of sensitive values: its file and id (never the key), what this start did. */
  secretKeyLines: string[];
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/**
 * Server-only code: the HTTP listener around the API app, an access log line per request
 * (method, path, status, milliseconds), and a clean shutdown. Only `berth serve` loads this.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const problem = limitsProblem(limits);
  if (problem) throw new ServeSetupError(problem);
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (!Number.isInteger(rateLimit) || rateLimit < 0)
    throw new ServeSetupError(
      `the rate limit must be a whole number of requests per second, 0 for none, not ${rateLimit}`,
    );
  // A given clock (tests) drives the rate limiter's windows too; else the monotonic clock does.
  const clock = options.clock;
  const appClock = clock ?? systemClock;
  const limiter = rateLimit > 0 ? new RateLimiter(rateLimit, clock ? { now: () => clock.now().getTime() } : {}) : null;

  const maxConnectionsPerAddress = options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 0)
    throw new ServeSetupError(
      `the connections per address must be a whole number, 0 for no limit, not ${maxConnectionsPerAddress}`,
    );

  const stateUrlTtlSeconds = options.stateUrlTtlSeconds ?? DEFAULT_STATE_URL_TTL_SECONDS;
  if (!Number.isInteger(stateUrlTtlSeconds) || stateUrlTtlSeconds < 1 || stateUrlTtlSeconds > MAX_STATE_URL_TTL_SECONDS)
    throw new ServeSetupError(
      `the state URL lifetime must be a whole number of seconds from 1 to ${MAX_STATE_URL_TTL_SECONDS}, not ${stateUrlTtlSeconds}`,
    );

  const smtpProblem = options.notifications?.smtpUrl ? smtpUrlProblem(options.notifications.smtpUrl) : null;
  if (smtpProblem) throw new ServeSetupError(`--smtp-url: ${smtpProblem}`);
  const store = await openStore(options.database, { durability: options.durability });
  // The key of sensitive values (store/secrets/): created beside a new SQLite database; a missing
  // or wrong one stops serve here, before anything could need it.
  const secrets = await attachSecretKey(store, secretKeySource(options.database, options.secretKeyFile), {
    create: true,
  });
  if (secrets.problem) {
    await store.close();
    throw new ServeSetupError(secrets.problem);
  }
  await store.optimize();
  // Statistics go stale as an organization grows while serve runs (a hundred teams and a thousand
  // invitations made after the start: its member lists were read with full scans, 50x slower):
  // refreshed every half minute, which is quick while they are current.
  const statistics = setInterval(() => {
    store.optimize().catch((err) => options.log(`statistics: ${(err as Error)?.message ?? String(err)}`));
  }, STATISTICS_INTERVAL_MS);
  statistics.unref();
  store.offloadCheckpoints();
  if (options.edition) await saveEdition(store.db, options.edition);
  if (options.notifications?.privateDestinations)
    await savePrivateDestinations(store.db, options.notifications.privateDestinations);
  const settings: InstanceSettings = {
    ...(await loadSettings(store.db)),
    stateUrlTtlSeconds,
    executesRuns: options.executeRuns !== undefined,
    terraformVersion: options.executeRuns?.terraformVersion,
    // The base URL of links is known once serve listens (below).
    notifications: {
      smtpUrl: options.notifications?.smtpUrl,
      emailFrom: options.notifications?.emailFrom,
      timeoutMs: options.notifications?.timeoutMs,
    },
  };
  // Hosted-state URLs are counted by their signature, checked here without a database read.
  const signedStateUrl = limiter ? await stateUrlChecker({ db: store.db, clock: appClock }) : undefined;
  // Tokens that authenticated, with their subjects (user, team, organization): only they are
  // counted against their subject before the API reads them (rate-limit.ts).
  const knownTokens = new KnownTokens();
  // What each request under /api/v2 was counted against, while it is answered.
  const counting = new WeakMap<object, Counting>();
  // A token the API has just accepted: learned with its subject; a request counted against
  // another bucket (its address: the token was not known yet) moves to its subject's, and is
  // refused there (before its route runs) when the subject's budget is spent.
  const countAgainstSubject = (authorization: string, actor: Actor, incoming: object | undefined) => {
    const subject = subjectKey(actor);
    knownTokens.add(tokenKey(authorization)!, subject);
    const counted = incoming && counting.get(incoming);
    if (!counted || counted.key === subject) return;
    if (counted.key !== null) limiter!.refund(counted.key);
    counted.key = subject;
    const decision = limiter!.take(subject);
    Object.assign(counted.headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
  };
  const reportError = (err: unknown) => options.log(errorLine(err));
  const app = createApp({
    db: store.db,
    settings,
    clock: appClock,
    agentTimeoutMs: options.agentTimeoutMs,
    agentRateLimit: options.agentRateLimit ?? DEFAULT_AGENT_RATE_LIMIT,
    onUnexpectedError: reportError,
    onAuthenticated: limiter
      ? (authorization, actor, incoming) => countAgainstSubject(authorization, actor, incoming)
      : undefined,
  });
  // The web console at `/` (docs/console.md): only serve mounts it, and it reads its files lazily.
  app.route('/', consoleAssetRoutes(options.consoleDir ?? fileURLToPath(new URL('./console/', import.meta.url))));
  // Big state files staged by a serve that died before recording them (state-content.ts).
  const recovered = await recoverStagedStateFiles({ db: store.db, clock: options.clock ?? systemClock });
  if (recovered.adopted + recovered.discarded > 0)
    options.log(
      `state files left by an interrupted upload: ${recovered.adopted} recorded, ${recovered.discarded} removed`,
    );

  // The retention pruning task: deletes what the data retention policies no longer keep.
  let pruneTimer: NodeJS.Timeout | null = null;
  let pruning: Promise<void> = Promise.resolve();
  if (options.pruneIntervalMs && options.pruneIntervalMs > 0 && settings.edition === 'self-hosted') {
    const ctx = { db: store.db, actor: LOCAL_SITE_ADMIN, clock: options.clock ?? systemClock, settings };
    pruneTimer = setInterval(() => {
      pruning = pruneRetainedData(ctx).then(
        (r) => {
          if (r.stateVersions > 0 || r.runs > 0)
            options.log(`prune: deleted ${r.stateVersions} state versions and ${r.runs} runs`);
        },
        (err) => options.log(`prune failed: ${(err as Error)?.message ?? String(err)}`),
      );
    }, options.pruneIntervalMs);
    pruneTimer.unref();
  }

  // The executor of runs (src/runner/), when serve found a terraform binary: started once serve listens.
  let executor: { stop(): Promise<void> } | null = null;
  // The scheduler (src/scheduler/): it queues runs; without an executor of serve's own, only those
  // that agents execute (the auto-destroys of agent workspaces).
  const { Scheduler, DEFAULT_ASSESSMENT_INTERVAL_MINUTES } = await import('../scheduler/scheduler.js');
  const scheduler = new Scheduler({
    db: store.db,
    clock: appClock,
    intervalMs: options.scheduler?.intervalMs,
    edition: settings.edition,
    assessmentIntervalMs:
      (options.scheduler?.assessmentIntervalMinutes ?? DEFAULT_ASSESSMENT_INTERVAL_MINUTES) * 60_000,
    executesRuns: options.executeRuns !== undefined,
    log: options.log,
  });
  scheduler.start();
  // Notifications: the outbox's deliverer (every instance delivers; each delivery is claimed by one).
  const { NotificationDeliverer } = await import('../scheduler/notification-deliverer.js');
  const deliverer = new NotificationDeliverer({
    db: store.db,
    clock: appClock,
    edition: settings.edition,
    delivery: settings.notifications!,
    intervalMs: options.notifications?.intervalMs,
    log: options.log,
  });
  // Agents (`berth agent`) that stop pinging: marked exited, their runs ended (services/agents/agent-liveness.ts).
  // Whether or not serve executes runs itself: agents execute those of agent workspaces either way.
  const { watchAgents, DEFAULT_AGENT_TIMEOUT_MS } = await import('../services/agents/agent-liveness.js');
  const agentWatch = watchAgents(
    store.db,
    () => appClock.now(),
    options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    options.log,
    options.agentRetentionMs,
  );

  // Access log lines are written in batches (access-log.ts).
  const logger = options.logger ?? serveLogger(options.log);
  const accessLog = new AccessLog(logger.raw, undefined, undefined, {
    format: logger.format,
    off: !logger.enabled('info'),
  });
  // Successful GET answers, reused while the database is unchanged (read-cache.ts).
  const readCache =
    options.readCacheEntries === 0
      ? null
      : new ReadCache(store.changeStamp, {
          ...DEFAULT_READ_CACHE,
          // Tokens expire by the app's clock.
          wallClock: () => appClock.now().getTime(),
          ...(options.readCacheEntries ? { maxEntries: options.readCacheEntries } : {}),
        });
  // Answers from the read cache are built with plain-object headers, which the HTTP adapter
  // writes directly; touching `response.headers` would build Fetch API objects for nothing.
  interface Answer {
    response: Response;
    requestId: string | null;
    /** Built here with the extra (rate limit) headers already in it; else they are still to be set. */
    cached: boolean;
    /** Whether the request was counted by the rate limiter (and allowed). */
    counted?: boolean;
  }
  // GETs are computed a few at a time (read-gate.ts): what reads may hold in memory is bounded,
  // and shared fairly between subjects (the token's user or organization, else the client's address).
  const reads = new FairGate(MAX_CONCURRENT_READS, readsPerSubject(store.kind));
  const tokenSubjects = new TokenSubjects();
  const answer = (
    request: Request,
    target: string,
    env: HttpBindings | Http2Bindings,
    extra: Record<string, string>,
  ): Promise<Answer> => {
    // The health checks are cheap and must answer whatever the readers queue: never gated.
    if (request.method !== 'GET' || HEALTH_PATH.test(target)) return compute(request, target, env, extra);
    const token = tokenKey(env.incoming.headers.authorization);
    const subject = (token && tokenSubjects.get(token)) ?? `address:${env.incoming.socket.remoteAddress}`;
    return reads.run(subject, async () => {
      const result = await compute(request, target, env, extra);
      // The token's subject, for its next requests (a refused token forgets it).
      const actor = requestActors.get(env.incoming);
      if (token && actor) tokenSubjects.set(token, gateSubject(actor));
      else if (token && result.response.status === 401) tokenSubjects.delete(token);
      return result;
    });
  };
  const compute = async (
    request: Request,
    target: string,
    env: HttpBindings | Http2Bindings,
    extra: Record<string, string>,
  ): Promise<Answer> => {
    const keep =
      readCache !== null &&
      request.method === 'GET' &&
      API_PATH.test(target) &&
      (stampFailures.has(env.incoming) || readCache.wantsAnswer());
    if (!keep) return { response: await app.fetch(request, env), requestId: null, cached: false };
    // Hits were answered before this (cached-answers.ts); compute, and keep the answer.
    const key = ReadCache.key(env.incoming.headers.authorization, target);
    let stamp: string;
    try {
      if (stampFailures.has(env.incoming)) throw stampFailures.get(env.incoming);
      stamp = await readCache.currentStamp();
    } catch (err) {
      // The database cannot say whether it changed: it is unreachable (the app's 503, with
      // Retry-After), or something unexpected happened (logged, answered without the cache).
      const refusal = databaseErrorAnswer(err);
      reportError(err);
      if (refusal?.status === 503)
        return { response: errorResponse(refusal, requestIdHeader()), requestId: null, cached: false };
      return { response: await app.fetch(request, env), requestId: null, cached: false };
    }
    const response = await app.fetch(request, env);
    // Only JSON:API documents are kept: a state download is bytes, served as they are. A document
    // made by the app's sendDocument is read back without touching `response.headers`.
    const doc = renderedDocument(response);
    const type = doc ? doc.headers['content-type'] : response.headers.get('content-type');
    if (response.status !== 200 || !type?.startsWith(JSONAPI)) return { response, requestId: null, cached: false };
    const headers: Record<string, string> = {};
    let requestId: string;
    let body: string;
    if (doc) {
      for (const name in doc.headers) if (name !== 'x-request-id') headers[name] = doc.headers[name];
      requestId = doc.headers['x-request-id'] ?? randomUUID();
      body = doc.body;
    } else {
      response.headers.forEach((value, name) => {
        if (name !== 'x-request-id') headers[name] = value;
      });
      requestId = response.headers.get('x-request-id') ?? randomUUID();
      // As text: the HTTP adapter writes a string body directly, without a stream.
      body = await response.text();
    }
    readCache.set(key, stamp, headers, body, tokenExpiries.get(env.incoming) ?? null);
    return {
      response: new Response(body, { status: 200, headers: { ...headers, ...extra, 'x-request-id': requestId } }),
      requestId,
      cached: true,
    };
  };
  let closing: Promise<void> | null = null;
  const logAccess = (method: string, target: string, status: number, started: number, requestId: string) =>
    accessLog.add(
      `${method} ${loggedPath(target)} ${status} ${(performance.now() - started).toFixed(1)}ms ${requestId}`,
    );
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
    const started = performance.now();
    const target = env.incoming.url ?? '/';
    let result: Answer;
    try {
      result = await respond(request, target, env);
    } catch (err) {
      // A bug of serve's own: still a JSON:API answer and a log line, never an empty 500.
      reportError(err);
      result = { response: errorResponse(internalError(), requestIdHeader()), requestId: null, cached: false };
    }
    const { response } = result;
    // Shutting down (even if it began while this request was in flight): the connection closes
    // after this answer, so that a keep-alive client does not send its next request into a reset.
    if (closing) response.headers.set('Connection', 'close');
    // Answered before its body arrived (an expired upload URL's 404, a 401, a 413): a little more
    // is read and dropped, keeping the connection; more than that, and it closes after the answer.
    else if (leavesMuchBodyUnread(env.incoming)) {
      response.headers.set('Connection', 'close');
      lingerOnClose(env.incoming);
    }
    if (result.counted && response.status === 401) {
      // A refused token (revoked) is forgotten: its next request counts as an unknown one's.
      const key = tokenKey(env.incoming.headers.authorization);
      if (key) knownTokens.delete(key);
    }
    // The path only: query strings may carry secrets (state content URLs); headers are never logged.
    const requestId = result.requestId ?? requestIdOf(env) ?? response.headers.get('x-request-id') ?? '-';
    logAccess(request.method, target, response.status, started, requestId);
    return response;
  };
  const respond = async (request: Request, target: string, env: HttpBindings | Http2Bindings): Promise<Answer> => {
    const tooLong = uriTooLong(target, limits.maxUrlLength);
    if (tooLong) return { response: tooLong, requestId: null, cached: false };
    const extra: Record<string, string> = {};
    let decision: RateDecision | null = null;
    let deferred = false;
    // The path the app routes on, not the raw target: an absolute-form target (`GET http://h/api/v2/...`),
    // a percent-encoded one (`/%61pi/v2/...`) or dot segments (`/./api/v2/...`) reach the same routes.
    const path = limiter ? getPath(request) : '';
    if (limiter && API_PATH.test(path)) {
      const q = target.indexOf('?');
      const key = rateLimitKey(
        {
          method: request.method,
          path,
          query: q === -1 ? '' : target.slice(q + 1),
          authorization: env.incoming.headers.authorization,
          address: env.incoming.socket.remoteAddress,
        },
        knownTokens,
        signedStateUrl,
      );
      if (key === null) {
        // An unknown token: counted once the API has read it (countAgainstSubject, or below).
        deferred = true;
        counting.set(env.incoming, { key: null, headers: extra });
      } else {
        decision = limiter.take(key);
        Object.assign(extra, rateLimitHeaders(decision));
        // `extra` is filled again if the API moves the request to its token's subject (countAgainstSubject).
        if (decision.allowed) counting.set(env.incoming, { key, headers: extra });
      }
    }
    let result: Answer =
      decision && !decision.allowed
        ? { response: tooManyRequests(decision), requestId: null, cached: false }
        : await answer(request, target, env, extra);
    if (limiter && !decision && !deferred && result.response.status === 401 && AGENT_PATH.test(path)) {
      // The agent protocol counts an agent's requests against its token once it is known
      // (agent-protocol.ts); a token it refused is a failed authentication of the address, as on
      // /api/v2, so that made-up agent tokens are limited too.
      const failed = limiter.take(failedAuthenticationKey(env.incoming.socket.remoteAddress));
      if (!failed.allowed) result = { response: tooManyRequests(failed), requestId: null, cached: false };
    }
    if (deferred && counting.get(env.incoming)?.key === null) {
      // The API did not accept the token: a failed authentication, counted against the address's
      // bucket for those (not the one of tokenless routes). Past its budget, a 429 instead.
      const failed = limiter!.take(failedAuthenticationKey(env.incoming.socket.remoteAddress));
      Object.assign(extra, rateLimitHeaders(failed));
      if (!failed.allowed) result = { response: tooManyRequests(failed), requestId: null, cached: false };
    }
    if (!result.cached && (decision || deferred)) {
      // A document of the app: made again with the headers as one plain object (documents.ts).
      const doc = renderedDocument(result.response);
      if (doc)
        result.response = new Response(doc.body, {
          status: result.response.status,
          headers: { ...doc.headers, ...extra },
        });
      else for (const [name, value] of Object.entries(extra)) result.response.headers.set(name, value);
    }
    return decision?.allowed || deferred ? { ...result, counted: true } : result;
  };

  // Requests the HTTP adapter would refuse with an empty answer get a JSON:API error first.
  const refusing = (next: NodeListener): NodeListener => {
    return (req, res) => {
      const problem = requestProblem(req);
      if (!problem) return next(req, res);
      const started = performance.now();
      const requestId = refuse(res, problem, closing ? { Connection: 'close' } : {});
      logAccess(req.method ?? '-', req.url ?? '-', problem.status, started, requestId);
    };
  };

  const serverOptions = nodeServerOptions(limits);
  const honoListener = getRequestListener(fetch, {
    hostname: options.host,
    // Only for what requestProblem lets through and the adapter still cannot read.
    errorHandler: (err) => {
      const bad = (err as Error)?.name === 'RequestError';
      if (!bad) reportError(err);
      const refusal = bad ? requestError(`the request cannot be read: ${(err as Error).message}`) : internalError();
      return errorResponse(refusal, requestIdHeader());
    },
  });
  // Node ignores what a request listener returns; hono's answers its own failures rather than rejecting.
  const fullPath = refusing((req, res) => void honoListener(req, res));
  // A full collection after a busy spell, once requests stop (idle-gc.ts).
  const collector = new IdleCollector();
  const answering = readCache
    ? cachedAnswers(
        {
          readCache,
          limiter,
          knownTokens,
          maxUrlLength: limits.maxUrlLength,
          apiPath: API_PATH,
          closing: () => closing !== null,
          logAccess: (line) => accessLog.add(line),
        },
        fullPath,
      )
    : fullPath;
  const listener: NodeListener = (req, res) => {
    collector.request();
    answering(req, res);
  };
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = options.tls
        ? createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener)
        : createHttpServer(serverOptions, listener);
      s.once('error', reject);
      s.listen(options.port, options.host, () => resolve(s));
    });
  } catch (err) {
    clearInterval(statistics);
    await store.close();
    throw new ServeSetupError(setupMessage(err, options));
  }
  // Only once listening works: a start that fails (the port in use) must not mint a token it never shows.
  const createdToken = await ensureSiteAdminToken(store.db, new Date());
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const connections = new Connections();
  connections.attach(server, options.tls !== undefined);
  if (maxConnectionsPerAddress > 0) new ConnectionsPerAddress(maxConnectionsPerAddress).attach(server);
  server.on('clientError', answerClientError);
  // An Expect other than 100-continue: node's own answer would be an empty 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = refuse(res, expectationFailed(req), { Connection: 'close' });
    logAccess(req.method ?? '-', req.url ?? '-', 417, started, requestId);
  });
  // CONNECT (a proxy tunnel): node would drop the connection without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const started = performance.now();
    logAccess('CONNECT', req.url ?? '-', 405, started, refuseConnect(socket));
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A line for each move of a run, whoever made it (run-lifecycle-log.ts).
  const stopRunLog = logRunMoves(logger);
  if (options.executeRuns) executor = await startExecutor(options, store.db, appClock, host, address.port);
  // Links in notifications name berth as clients reach it: its first --hostname, else its address.
  const names = options.executeRuns?.hostnames ?? [];
  settings.notifications!.baseUrl = `${options.tls ? 'https' : 'http'}://${names[0] ?? `${host}:${address.port}`}`;
  deliverer.start();
  if (!options.tls && !isLoopback(address.address)) {
    options.log(
      `warning: listening on ${address.address}, beyond loopback, without TLS: tokens and state cross the network in clear text. Serve HTTPS with --tls-cert and --tls-key, or put a TLS-terminating proxy in front.`,
    );
  }

  return {
    edition: settings.edition,
    database: store.path,
    durability: store.durability,
    url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`,
    createdToken,
    secretKeyLines: keyAttachmentLines(secrets),
    close() {
      if (pruneTimer) clearInterval(pruneTimer);
      stopRunLog();
      clearInterval(statistics);
      const executorStopped = Promise.all([executor?.stop(), scheduler.stop(), agentWatch.stop(), deliverer.stop()]);
      collector.stop();
      // Stop accepting; answer what arrives on open connections with Connection: close; close the
      // ones that stay quiet, cleanly (connections.ts): no client meets a reset.
      closing ??= connections
        .shutdown(server)
        .then(() => pruning)
        .then(() => executorStopped)
        .then(() => accessLog.flush())
        .then(() => {
          if (options.readCacheStatsFile)
            writeFileSync(
              options.readCacheStatsFile,
              JSON.stringify({
                enabled: readCache !== null,
                ...(readCache?.counters ?? { lookups: 0, hits: 0, stored: 0 }),
              }),
            );
        })
        .then(() => store.close());
      return closing;
    },
  };
}

/**
 * Starts the executor of runs (src/runner/): terraform in a run reaches this berth at its own
 * listening address (loopback for a wildcard one), under every name it is known by.
 */
async function startExecutor(
  options: ServeOptions,
  db: Parameters<typeof ensureSiteAdminToken>[0],
  clock: Clock,
  host: string,
  port: number,
): Promise<{ stop(): Promise<void> }> {
  const { hostnames = [], tlsCertFile, ...bounds } = options.executeRuns!;
  const { Executor } = await import('../runner/executor.js');
  const { inProcessPort } = await import('../runner/in-process-port.js');
  const { runTokenTtl } = await import('../services/runs/run-tokens.js');
  const reachable = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  const started = new Executor(inProcessPort(db, clock, { runTokenTtlMs: runTokenTtl(bounds.timeLimitMs) }), {
    ...bounds,
    log: options.log,
    apiUrl: `${options.tls ? 'https' : 'http'}://${reachable}:${port}`,
    hosts: [...hostnames, `localhost:${port}`, `127.0.0.1:${port}`],
    caFile: options.tls ? tlsCertFile : undefined,
  });
  started.start();
  return started;
}

const API_PATH = /^\/api\/v2(?:[/?]|$)/;
/** The agent protocol's paths (routes/agent-protocol.ts). */
const AGENT_PATH = /^\/api\/agent(?:[/?]|$)/;
/** How often serve refreshes the query planner's statistics (`store.optimize`). */
const STATISTICS_INTERVAL_MS = 30_000;
/** `/healthz` and `/readyz` (routes/health.ts), which the read gate never holds up. */
const HEALTH_PATH = /^\/(?:healthz|readyz)(?:\?|$)/;

/** What of a request body still to come, once its answer is ready, serve drains to keep the connection. */
const DRAIN_BYTES = 1024 * 1024;
/** How long a connection closed after an early answer still reads (and drops) what the client sends. */
const LINGER_MS = 2000;

/**
 * Whether the answer is ready while more than DRAIN_BYTES of the request body have yet to arrive
 * (or an unknown amount: a chunked body, or one the app began to read). Node then reads and drops
 * the rest; the HTTP adapter cuts the connection if that takes more than half a second, which a
 * client told to keep the connection alive meets as a reset on its next request.
 */
function leavesMuchBodyUnread(incoming: IncomingMessage | Http2Bindings['incoming']): incoming is IncomingMessage {
  if (!('httpVersionMajor' in incoming) || incoming.httpVersionMajor !== 1 || incoming.complete) return false;
  const length = Number(incoming.headers['content-length']);
  if (!Number.isSafeInteger(length) || incoming.readableDidRead) return true;
  return length - incoming.readableLength > DRAIN_BYTES;
}

/**
 * Closes the connection of an early answer without resetting it: the write side ends after the
 * answer, while what the client still sends is read and dropped for LINGER_MS (until it closes its
 * side). Closing at once would make the kernel answer the rest with a reset, which can make the
 * client lose the answer itself.
 */
function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let ending = false;
  // Node calls it once the answer is written (Connection: close); so does the adapter's drain.
  socket.destroySoon = () => {
    if (ending) return;
    ending = true;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** A fresh `X-Request-Id` for answers made outside the app (every answer carries one). */
function requestIdHeader(): Record<string, string> {
  return { 'X-Request-Id': randomUUID() };
}

function requestError(detail: string): BerthError {
  return new BerthError([{ status: 400, title: 'bad request', detail }]);
}

/**
 * The log line of an error: an unreachable database in one line (during an outage, every request
 * meets it: the log says so without a stack trace each time), anything else with its stack.
 */
export function errorLine(err: unknown): string {
  if (isDatabaseUnavailable(err)) {
    const code = (err as { code?: unknown })?.code;
    return `database unavailable: ${typeof code === 'string' ? `${code} ` : ''}${(err as Error)?.message ?? String(err)}`;
  }
  return `unexpected error: ${(err as Error)?.stack ?? String(err)}`;
}

/** The 429 of a refused request, with Retry-After (the X-RateLimit-* headers are set by serve). */
function tooManyRequests(decision: RateDecision): Response {
  return errorResponse(rateLimitedError(decision));
}

/** What a request under /api/v2 was counted against: its bucket, and the headers of its answer. */
interface Counting {
  /** null: not counted yet (an unknown token, until the API has read it). */
  key: string | null;
  headers: Record<string, string>;
}

/** Whether an address a server is bound to is reachable only from this machine. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase();
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

function setupMessage(err: unknown, options: ServeOptions): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE')
    return `cannot listen on ${options.host}:${options.port}: the address is already in use`;
  if (e?.code === 'EADDRNOTAVAIL') return `cannot listen on ${options.host}: no such address on this machine`;
  if (e?.code === 'EACCES') return `cannot listen on ${options.host}:${options.port}: permission denied`;
  if (options.tls) return `cannot serve HTTPS with this certificate and key: ${e?.message ?? String(err)}`;
  return `cannot listen on ${options.host}:${options.port}: ${e?.message ?? String(err)}`;
}
