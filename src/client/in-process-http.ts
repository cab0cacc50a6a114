/**
 * Small stand-ins for the Fetch API's Headers, Request and Response, used in local mode only.
 *
 * In Node 20 the global Request, Response and Headers come from the bundled undici, and touching
 * any of them loads all of it: about 30 ms, a third of the CLI's whole start-up budget. Local mode
 * never opens a socket, so it needs none of undici's networking: the client and the API app only
 * exchange a method, a URL, headers and a body that is already in memory. These classes carry
 * exactly that, with the subset of the Fetch API that berth's client and the hono app use.
 *
 * `installInProcessHttpObjects()` puts them in place of the globals, before anything touched the
 * real ones. Remote mode (`--server`) never calls it and keeps the real Fetch API.
 */

type HeadersInit = LocalHeaders | Record<string, string> | Iterable<readonly [string, string]> | undefined | null;
type BodyInit = string | Uint8Array | ArrayBuffer | null | undefined;

export class LocalHeaders {
  readonly #map = new Map<string, string>();

  constructor(init?: HeadersInit) {
    if (!init) return;
    if (init instanceof LocalHeaders) {
      for (const [k, v] of init.#map) this.#map.set(k, v);
    } else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const [k, v] of init as Iterable<readonly [string, string]>) this.append(k, v);
    } else {
      for (const [k, v] of Object.entries(init as Record<string, string>)) this.append(k, v);
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.#map.set(name.toLowerCase(), String(value));
  }
  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const old = this.#map.get(key);
    this.#map.set(key, old === undefined ? String(value) : `${old}, ${value}`);
  }
  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }
  forEach(fn: (value: string, key: string, parent: LocalHeaders) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
  getSetCookie(): string[] {
    const v = this.#map.get('set-cookie');
    return v === undefined ? [] : [v];
  }
  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function toBytes(body: BodyInit): Buffer | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** The body half shared by requests and responses: bytes held in memory, read once. */
class LocalBody {
  readonly #bytes: Buffer | null;
  #used = false;

  constructor(body: BodyInit) {
    this.#bytes = toBytes(body);
  }

  /** The bytes themselves (where the Fetch API has a stream); null without a body. */
  get body(): Buffer | null {
    return this.#bytes;
  }
  get bodyUsed(): boolean {
    return this.#used;
  }
  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ?? Buffer.alloc(0);
  }
  // eslint-disable-next-line @typescript-eslint/require-await -- async as in fetch's Body: a second read rejects, not throws
  async text(): Promise<string> {
    return this.#take().toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  // eslint-disable-next-line @typescript-eslint/require-await -- async as in fetch's Body: a second read rejects, not throws
  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

export interface LocalRequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit;
}

export class LocalRequest extends LocalBody {
  readonly url: string;
  readonly method: string;
  readonly headers: LocalHeaders;

  constructor(input: string | URL | LocalRequest, init: LocalRequestInit = {}) {
    const from = input instanceof LocalRequest ? input : null;
    const body = init.body !== undefined ? init.body : from?.body;
    super(body);
    this.url = input instanceof LocalRequest ? input.url : String(input);
    this.method = (init.method ?? from?.method ?? 'GET').toUpperCase();
    this.headers = new LocalHeaders(init.headers ?? from?.headers);
    if (this.body && !this.headers.has('content-length'))
      this.headers.set('content-length', String(this.body.byteLength));
  }

  clone(): LocalRequest {
    return new LocalRequest(this);
  }
}

export interface LocalResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

export class LocalResponse extends LocalBody {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LocalHeaders;

  constructor(body?: BodyInit, init: LocalResponseInit = {}) {
    super(body);
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new LocalHeaders(init.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  clone(): LocalResponse {
    return new LocalResponse(this.body, this);
  }
}

/** Replaces the global Headers, Request and Response with the in-process stand-ins. */
export function installInProcessHttpObjects(): void {
  for (const [name, value] of [
    ['Headers', LocalHeaders],
    ['Request', LocalRequest],
    ['Response', LocalResponse],
  ] as const) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
