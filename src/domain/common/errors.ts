/**
 * The one typed error of berth. Services throw it, the API renders it as a JSON:API error
 * document, the client turns error documents back into it, and the CLI maps it to an exit code.
 */
export interface ErrorItem {
  status: number;
  title: string;
  detail?: string;
  pointer?: string;
  parameter?: string;
}

export class BerthError extends Error {
  readonly status: number;
  readonly items: ErrorItem[];
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(items: ErrorItem[], headers: Record<string, string> = {}) {
    const first = items[0] ?? { status: 500, title: 'internal server error' };
    super(first.detail ? `${first.title}: ${first.detail}` : first.title);
    this.name = 'BerthError';
    this.status = first.status;
    this.items = items;
    this.headers = headers;
  }

  get title(): string {
    return this.items[0]?.title ?? '';
  }

  get detail(): string | undefined {
    return this.items[0]?.detail;
  }
}

const make =
  (status: number, title: string) =>
  (detail?: string, extra: Partial<ErrorItem> = {}) =>
    new BerthError([{ status, title, detail, ...extra }]);

export const badRequest = make(400, 'bad request');
export const unauthorized = make(401, 'unauthorized');
export const forbidden = make(403, 'forbidden');
export const notFound = make(404, 'not found');
export const conflict = make(409, 'conflict');

/**
 * The refusal of a caller who may see a resource but may not act on it: the same 404 as an
 * unknown resource (the spec's "existence is not distinguished from lack of permission"; HCP
 * Terraform: "forbidden requests with a valid token result in a 404"), whose detail names the
 * action: `not found, or you are not authorized to <action>`. 403 stays where the spec names it.
 */
export function notAuthorized(action: string): BerthError {
  return notFound(`not found, or you are not authorized to ${action}`);
}
export const payloadTooLarge = make(413, 'payload too large');
export const unsupportedMediaType = make(415, 'unsupported media type');

/** One 422 `invalid attribute` error for an attribute at a JSON pointer. */
export function invalid(pointer: string, detail: string): BerthError {
  return new BerthError([{ status: 422, title: 'invalid attribute', detail, pointer }]);
}

/** Collects several validation failures and throws them together as one 422. */
export class Problems {
  private readonly list: ErrorItem[] = [];

  add(pointer: string, detail: string): void {
    this.list.push({ status: 422, title: 'invalid attribute', detail, pointer });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new BerthError(this.list);
  }
}
