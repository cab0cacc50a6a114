import { forgetToken, storedToken } from './token.js';

/** An error answer of the API, with the message to show (its `errors[0].detail`, else its title). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = (message: string) => void;
let onUnauthorized: Listener = () => {};

/** Called with the API's message when a request is refused with 401 (the token is forgotten first). */
export function whenUnauthorized(listener: Listener): void {
  onUnauthorized = listener;
}

interface ErrorDocument {
  errors?: { title?: string; detail?: string }[];
}

/** The message of an error answer: `errors[0].detail`, else its title, else the status. */
export async function errorMessage(res: Response): Promise<string> {
  try {
    const doc = (await res.json()) as ErrorDocument;
    const first = doc.errors?.[0];
    if (first?.detail) return first.detail;
    if (first?.title) return first.title;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `the server answered ${res.status} ${res.statusText}`.trim();
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** A token other than the stored one (the sign-in page checks the pasted token). */
  token?: string | null;
  /** Send no Authorization at all (the sign-in link exchange). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

/** Whether an error is the abort of a request the page no longer needs. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** One request to `/api/v2` + `path`: the parsed document, or an ApiError with the API's message. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/vnd.api+json' };
  const token = options.anonymous ? null : (options.token ?? storedToken());
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/vnd.api+json';
  let res: Response;
  try {
    res = await fetch(`/api/v2${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new ApiError(0, 'the server cannot be reached');
  }
  if (!res.ok) {
    const message = await errorMessage(res);
    if (res.status === 401 && options.token === undefined && !options.anonymous) {
      forgetToken();
      onUnauthorized(message);
    }
    throw new ApiError(res.status, message);
  }
  // No content (204), or an action's 202 with an empty body (run actions): nothing to parse.
  const text = await res.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A query string from parameters (undefined and empty values left out), with its `?`. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A path segment (an organization or workspace name) encoded for a URL. */
export const seg = (s: string) => encodeURIComponent(s);
