/**
 * How the client reaches an API: in-process (local mode hands the Request to the app's `fetch`)
 * or over HTTP (`--server URL`). Both see the same Request and Response.
 */
export interface Transport {
  /** Base URL that paths such as `/api/v2/organizations` are resolved against. */
  readonly baseUrl: string;
  send(request: Request): Promise<Response>;
  /**
   * Sends a request whose body is a stream, once (no copy kept for a retry, so that an upload of
   * any size passes through bounded memory). Only the HTTP transport streams; without it, the
   * caller sends the bytes in memory (local mode).
   */
  sendStream?(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Raised when the server cannot be reached at all (connection refused, DNS, TLS, timeout). */
export class ServerUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach the berth server at ${url}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ServerUnreachableError';
  }
}

export const RATE_LIMIT_RETRIES = 8;
export const RATE_LIMIT_MAX_WAIT_MS = 10_000;

/**
 * How long to wait after a 429: X-RateLimit-Reset (seconds, fractional) is the most precise,
 * then Retry-After (whole seconds), else one second. A little is added so that the retry lands
 * in the next window.
 */
export function retryDelayMs(headers: Headers): number {
  const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
  if (Number.isFinite(reset) && reset >= 0) return Math.ceil(reset * 1000) + 10;
  const after = Number.parseInt(headers.get('retry-after') ?? '', 10);
  if (Number.isFinite(after) && after >= 0) return after * 1000 + 10;
  return 1000;
}

export class HttpTransport implements Transport {
  readonly baseUrl: string;

  constructor(server: string) {
    this.baseUrl = server.replace(/\/+$/, '');
  }

  /**
   * Sends the request; a 429 (rate limited, as HCP Terraform and `berth serve` answer past 30
   * requests per second per token) is waited out and retried, up to RATE_LIMIT_RETRIES times
   * and as long as each wait is at most RATE_LIMIT_MAX_WAIT_MS, so that bulk commands pace
   * themselves instead of failing half-way.
   */
  async send(request: Request): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const spare = attempt < RATE_LIMIT_RETRIES ? request.clone() : null;
      let res: Response;
      try {
        res = await fetch(request);
      } catch (err) {
        throw new ServerUnreachableError(this.baseUrl, (err as { cause?: unknown }).cause ?? err);
      }
      if (res.status !== 429 || !spare) return res;
      const wait = retryDelayMs(res.headers);
      if (wait > RATE_LIMIT_MAX_WAIT_MS) return res;
      await res.arrayBuffer().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, wait));
      request = spare;
    }
  }

  async sendStream(request: Request): Promise<Response> {
    try {
      return await fetch(request);
    } catch (err) {
      throw new ServerUnreachableError(this.baseUrl, (err as { cause?: unknown }).cause ?? err);
    }
  }

  async close(): Promise<void> {}
}

export class InProcessTransport implements Transport {
  readonly baseUrl = 'http://berth.local';

  constructor(
    private readonly handler: (request: Request) => Response | Promise<Response>,
    private readonly onClose: () => Promise<void>,
  ) {}

  async send(request: Request): Promise<Response> {
    return this.handler(request);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
