/**
 * How the client reaches an API: in-process (local mode hands the Request to the app's `fetch`)
 * or over HTTP (`--server URL`). Both see the same Request and Response.
 */
export interface Transport {
  /** Base URL that paths such as `/api/v2/organizations` are resolved against. */
  readonly baseUrl: string;
  send(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Raised when the server cannot be reached at all (connection refused, DNS, TLS, timeout). */
export class ServerUnreachableError extends Error {
  constructor(readonly url: string, cause: unknown) {
    super(`cannot reach the berth server at ${url}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ServerUnreachableError';
  }
}

export class HttpTransport implements Transport {
  readonly baseUrl: string;

  constructor(server: string) {
    this.baseUrl = server.replace(/\/+$/, '');
  }

  async send(request: Request): Promise<Response> {
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
