import { BerthError } from '../domain/common/errors.js';
import {
  resourceBody,
  type Attributes,
  type ListResult,
  type Pagination,
  type Resource,
  type SingleResult,
} from './jsonapi.js';
import type { OrganizationAttributes, TokenAttributes, UserAttributes } from './resources.js';
import type { Transport } from './transport.js';

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** `limit`: stop after this many items (every item when absent). */
export interface ListAllOptions {
  limit?: number;
}

export interface PageOptions {
  page?: number;
  pageSize?: number;
}

/**
 * The typed API client. Every CLI command goes through it, in local mode and against a server
 * alike. Error documents come back as BerthError.
 */
export class BerthClient {
  /** Called after each page of a multi-page listAll (the CLI shows progress on a terminal). */
  onListProgress?: (fetched: number, total: number, done: boolean) => void;
  /**
   * Called when `limit` cut a list short: `shown` items of `total` (null when the server did not
   * say how many there are, only that there are more). The CLI says so on stderr.
   */
  onListCut?: (shown: number, total: number | null) => void;

  constructor(
    private readonly transport: Transport,
    private readonly token?: string,
  ) {}

  async close(): Promise<void> {
    await this.transport.close();
  }

  /** `T` is what the API answers with (the client does not check it). */
  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<{ status: number; body: T | null }> {
    const url = new URL(`${this.transport.baseUrl}/api/v2${path}`);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Accept: 'application/vnd.api+json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/vnd.api+json';
      body = JSON.stringify(options.body);
    }
    const res = await this.transport.send(new Request(url, { method, headers, body }));
    const text = await res.text();
    const parsed = parseJson(text);
    if (!res.ok) throw decodeError(res.status, parsed, text);
    return { status: res.status, body: parsed as T };
  }

  /**
   * Any request under `/api/v2`, with the client's credentials, answered as it comes: status,
   * content type and body text, error statuses included (`berth api`).
   */
  async send(
    method: string,
    pathAndQuery: string,
    body?: string,
  ): Promise<{ status: number; contentType: string | null; text: string }> {
    const headers: Record<string, string> = { Accept: 'application/vnd.api+json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/vnd.api+json';
    const res = await this.transport.send(
      new Request(`${this.transport.baseUrl}/api/v2${pathAndQuery}`, { method, headers, body }),
    );
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  }

  /**
   * A request to an absolute URL the API handed out (e.g. a hosted-state URL), through the same
   * transport; errors become BerthError like any other.
   */
  async raw(url: string, options: { method: string; body?: Buffer; contentType?: string }): Promise<Response> {
    const headers: Record<string, string> = {};
    if (options.contentType) headers['Content-Type'] = options.contentType;
    const res = await this.transport.send(new Request(url, { method: options.method, headers, body: options.body }));
    if (!res.ok) {
      const text = await res.text();
      throw decodeError(res.status, parseJson(text), text);
    }
    return res;
  }

  /**
   * A request outside `/api/v2` (the registry: `/api/registry/...`) with the client's credentials.
   * `file` is sent as the body: streamed from disk over HTTP, read into memory in local mode;
   * `bytes` is sent as it is, `json` as a JSON:API document (the GPG Keys API's). Errors become
   * BerthError unless `allow` lists the status (a 404 that says "not there yet").
   */
  async registry(
    method: string,
    path: string,
    options: { file?: string; bytes?: Buffer; json?: unknown; allow?: number[] } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/vnd.api+json, application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (options.json !== undefined || options.bytes) {
      headers['Content-Type'] = options.bytes ? 'application/octet-stream' : 'application/vnd.api+json';
      const body = options.bytes ?? JSON.stringify(options.json);
      const res = await this.transport.send(new Request(`${this.transport.baseUrl}${path}`, { method, headers, body }));
      return this.registryAnswer(res, options.allow);
    }
    const url = `${this.transport.baseUrl}${path}`;
    let res: Response;
    if (options.file && this.transport.sendStream) {
      const { createReadStream, statSync } = await import('node:fs');
      const { Readable } = await import('node:stream');
      headers['Content-Type'] = 'application/octet-stream';
      headers['Content-Length'] = String(statSync(options.file).size);
      const body = Readable.toWeb(createReadStream(options.file)) as ReadableStream<Uint8Array>;
      res = await this.transport.sendStream(new Request(url, { method, headers, body, duplex: 'half' }));
    } else {
      const body = options.file ? await (await import('node:fs/promises')).readFile(options.file) : undefined;
      if (body) headers['Content-Type'] = 'application/octet-stream';
      res = await this.transport.send(new Request(url, { method, headers, body }));
    }
    return this.registryAnswer(res, options.allow);
  }

  private async registryAnswer(res: Response, allow: number[] = []): Promise<Response> {
    if (!res.ok && !allow.includes(res.status)) {
      const text = await res.text();
      throw decodeError(res.status, parseJson(text), text);
    }
    return res;
  }

  async get<A extends Attributes = Attributes>(
    path: string,
    query?: RequestOptions['query'],
  ): Promise<SingleResult<A>> {
    return (await this.request<SingleResult<A>>('GET', path, { query })).body!;
  }

  async list<A extends Attributes = Attributes>(
    path: string,
    query: RequestOptions['query'] = {},
    page: PageOptions = {},
  ): Promise<ListResult<A>> {
    const body = (
      await this.request<Partial<ListDocument<A>>>('GET', path, {
        query: { ...query, 'page[number]': page.page, 'page[size]': page.pageSize },
      })
    ).body;
    return { data: body?.data ?? [], included: body?.included, pagination: body?.meta?.pagination };
  }

  /**
   * Every item of a list, following `next-page` until the last page or until `limit` items: the
   * one paging loop of the CLI. A list the API does not paginate (no `meta.pagination`) is one
   * page. Multi-page lists report their progress through `onListProgress`.
   */
  async listAll<A extends Attributes = Attributes>(
    path: string,
    query: RequestOptions['query'] = {},
    options: ListAllOptions = {},
  ): Promise<Resource<A>[]> {
    return (await this.listPages<A>(path, query, options)).data;
  }

  /** As listAll, with the `included` resources of every page. */
  async listPages<A extends Attributes = Attributes>(
    path: string,
    query: RequestOptions['query'] = {},
    { limit }: ListAllOptions = {},
  ): Promise<{ data: Resource<A>[]; included: Resource[] }> {
    const data: Resource<A>[] = [];
    const included: Resource[] = [];
    // One page size for every page, so that page numbers stay aligned.
    const pageSize = limit === undefined ? 100 : Math.min(100, limit);
    let page: number | null = 1;
    let totalCount: number | undefined;
    while (page !== null && (limit === undefined || data.length < limit)) {
      const result: ListResult<A> = await this.list<A>(path, query, { page, pageSize });
      data.push(...result.data);
      included.push(...(result.included ?? []));
      page = result.pagination?.['next-page'] ?? null;
      totalCount = result.pagination?.['total-count'];
      const total = Math.min(result.pagination?.['total-count'] ?? data.length, limit ?? Infinity);
      if (total > 100)
        this.onListProgress?.(Math.min(data.length, total), total, page === null || data.length >= total);
    }
    if (limit !== undefined) {
      if (totalCount !== undefined ? totalCount > limit : page !== null || data.length > limit)
        this.onListCut?.(Math.min(limit, data.length), totalCount ?? null);
    }
    return { data: limit === undefined ? data : data.slice(0, limit), included };
  }

  async create<A extends Attributes = Attributes>(
    path: string,
    type: string,
    attributes: Record<string, unknown>,
    relationships?: Record<string, unknown>,
  ): Promise<SingleResult<A>> {
    return (await this.request<SingleResult<A>>('POST', path, { body: resourceBody(type, attributes, relationships) }))
      .body!;
  }

  async update<A extends Attributes = Attributes>(
    path: string,
    type: string,
    attributes: Record<string, unknown>,
    relationships?: Record<string, unknown>,
  ): Promise<SingleResult<A>> {
    return (await this.request<SingleResult<A>>('PATCH', path, { body: resourceBody(type, attributes, relationships) }))
      .body!;
  }

  async delete(path: string, body?: unknown): Promise<void> {
    await this.request('DELETE', path, { body });
  }

  // Organizations
  organizations = {
    list: (page: PageOptions & { q?: string } = {}) =>
      this.list<OrganizationAttributes>('/organizations', { q: page.q }, page),
    listAll: (q?: string, options: ListAllOptions = {}) =>
      this.listAll<OrganizationAttributes>('/organizations', { q }, options),
    get: (name: string, include?: string) =>
      this.get<OrganizationAttributes>(`/organizations/${encodeURIComponent(name)}`, { include }),
    create: (attributes: Record<string, unknown>) =>
      this.create<OrganizationAttributes>('/organizations', 'organizations', attributes),
    update: (name: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      this.update<OrganizationAttributes>(
        `/organizations/${encodeURIComponent(name)}`,
        'organizations',
        attributes,
        relationships,
      ),
    entitlements: (name: string) => this.get(`/organizations/${encodeURIComponent(name)}/entitlement-set`),
    delete: (name: string) => this.delete(`/organizations/${encodeURIComponent(name)}`),
  };

  // Users and tokens
  users = {
    list: (q?: string, options: ListAllOptions = {}) => this.listAll<UserAttributes>('/admin/users', { q }, options),
    create: (attributes: Record<string, unknown>) => this.create<UserAttributes>('/admin/users', 'users', attributes),
    delete: (id: string) => this.delete(`/admin/users/${encodeURIComponent(id)}`),
    /** Finds a user by exact username (site administrators only). */
    byName: async (username: string): Promise<Resource<UserAttributes>> => {
      const found = (await this.users.list(username)).find((u) => u.attributes.username === username);
      if (!found) throw new BerthError([{ status: 404, title: 'not found', detail: `user ${username} not found` }]);
      return found;
    },
  };

  tokens = {
    createForUser: async (userId: string, description?: string, expiredAt?: string) =>
      (
        await this.request<SingleResult<TokenAttributes>>(
          'POST',
          `/users/${encodeURIComponent(userId)}/authentication-tokens`,
          { body: resourceBody('authentication-tokens', { description, 'expired-at': expiredAt }) },
        )
      ).body!,
    createSiteAdmin: async (description?: string) =>
      (
        await this.request<SingleResult<TokenAttributes>>('POST', '/admin/authentication-tokens', {
          body: resourceBody('authentication-tokens', { description }),
        })
      ).body!,
  };
}

/** A list document: a page of resources, what they include, and where the page stands. */
interface ListDocument<A extends Attributes> {
  data: Resource<A>[];
  included?: Resource[];
  meta?: { pagination?: Pagination };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A response body as JSON, or null when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Turns an error response back into the typed error. */
export function decodeError(status: number, body: unknown, text: string): BerthError {
  const errors: unknown[] | null = isObject(body) && Array.isArray(body.errors) ? body.errors : null;
  if (errors && errors.length > 0) {
    return new BerthError(
      errors.map((e) => {
        const item = isObject(e) ? e : {};
        const pointer = isObject(item.source) ? item.source.pointer : undefined;
        return {
          status: Number(item.status) || status,
          title: typeof e === 'string' ? e : typeof item.title === 'string' ? item.title : 'error',
          detail: typeof item.detail === 'string' ? item.detail : undefined,
          pointer: typeof pointer === 'string' ? pointer : undefined,
        };
      }),
    );
  }
  return new BerthError([{ status, title: `HTTP ${status}`, detail: text.slice(0, 200) || undefined }]);
}
