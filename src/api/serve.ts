import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve as nodeServe } from '@hono/node-server';
import { ensureSiteAdminToken } from '../services/tokens.js';
import { loadSettings, saveEdition } from '../services/settings.js';
import type { InstanceSettings } from '../services/context.js';
import { openStore } from '../store/open.js';
import { createApp } from './app.js';
import { LOCAL_SITE_ADMIN } from '../domain/actor.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { pruneRetainedData } from '../services/data-retention.js';

export interface ServeOptions {
  host: string;
  port: number;
  dbPath: string;
  /** When given, stored as the instance's edition before serving. */
  edition?: InstanceSettings['edition'];
  /** Where log lines go (stderr in the CLI). */
  log: (line: string) => void;
  /**
   * Milliseconds between runs of the retention pruning task (self-hosted edition); 0 or absent
   * turns it off. The first run comes one interval after the start.
   */
  pruneIntervalMs?: number;
  /** The clock of the pruning task (tests fix it). */
  clock?: Clock;
}

export interface RunningServer {
  url: string;
  edition: InstanceSettings['edition'];
  /** The site-administrator token created at this start, if the database had none. */
  createdToken: string | null;
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/**
 * Server-only code: the HTTP listener around the API app, an access log line per request
 * (method, path, status, milliseconds), and a clean shutdown. Only `berth serve` loads this.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const store = await openStore(options.dbPath);
  if (options.edition) await saveEdition(store.db, options.edition);
  const settings = await loadSettings(store.db);
  const app = createApp({
    db: store.db,
    settings,
    onUnexpectedError: (err) => options.log(`unexpected error: ${(err as Error)?.stack ?? String(err)}`),
  });
  const createdToken = await ensureSiteAdminToken(store.db, new Date());

  // The retention pruning task: deletes what the data retention policies no longer keep.
  let pruneTimer: NodeJS.Timeout | null = null;
  let pruning: Promise<void> = Promise.resolve();
  if (options.pruneIntervalMs && options.pruneIntervalMs > 0 && settings.edition === 'self-hosted') {
    const ctx = { db: store.db, actor: LOCAL_SITE_ADMIN, clock: options.clock ?? systemClock, settings };
    pruneTimer = setInterval(() => {
      pruning = pruneRetainedData(ctx).then(
        (r) => {
          if (r.stateVersions > 0 || r.runs > 0) options.log(`prune: deleted ${r.stateVersions} state versions and ${r.runs} runs`);
        },
        (err) => options.log(`prune failed: ${(err as Error)?.message ?? String(err)}`),
      );
    }, options.pruneIntervalMs);
    pruneTimer.unref();
  }

  const fetch = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await app.fetch(request);
    const ms = (performance.now() - started).toFixed(1);
    options.log(`${request.method} ${new URL(request.url).pathname} ${response.status} ${ms}ms ${response.headers.get('x-request-id') ?? '-'}`);
    return response;
  };

  const server = await new Promise<Server>((resolve, reject) => {
    const s = nodeServe({ fetch, hostname: options.host, port: options.port }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | null = null;
  return {
    edition: settings.edition,
    url: `http://${host}:${address.port}`,
    createdToken,
    close() {
      if (pruneTimer) clearInterval(pruneTimer);
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })
        .then(() => pruning)
        .then(() => store.close());
      return closing;
    },
  };
}
