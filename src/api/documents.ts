import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { totalPages, type Paged } from '../domain/common/paging.js';

export const JSONAPI = 'application/vnd.api+json';

export interface ResourceIdentifier {
  id: string;
  type: string;
}

export interface Relationship {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  links?: Record<string, string>;
}

export interface ResourceObject extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, Relationship>;
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

export const API_PREFIX = '/api/v2';

/** A to-one relationship object. */
export function toOne(type: string, id: string | null | undefined, related?: string): Relationship {
  const rel: Relationship = { data: id ? { id, type } : null };
  if (id && related) rel.links = { related };
  return rel;
}

/** A relationship that carries only a link to its collection. */
export function linkOnly(related: string): Relationship {
  return { links: { related } };
}

function dedupe(included: ResourceObject[]): ResourceObject[] {
  const seen = new Set<string>();
  return included.filter((r) => {
    const key = `${r.type}\u0000${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A document answer as `sendDocument` made it: its headers (a plain object) and its JSON text. */
export interface RenderedDocument {
  headers: Record<string, string>;
  body: string;
}

const rendered = new WeakMap<Response, RenderedDocument>();

/** The headers and text of a response made by `sendDocument`, without reading the response. */
export function renderedDocument(res: Response): RenderedDocument | undefined {
  return rendered.get(res);
}

/**
 * Every JSON:API body goes out through here, with the JSON:API media type, `Cache-Control:
 * no-store` and the request's `X-Request-Id` (request-id.ts). The response is made here with a plain object of headers rather
 * than through hono's `c.body`, which makes a `Headers` object as soon as there are two: under
 * `serve`, the HTTP adapter writes a plain object as it is, while a `Headers` object costs its
 * making and reading back, a large share of a small request's time. `serve` reads the headers and
 * text back with `renderedDocument` (for the access log and the read cache) without touching
 * `response.headers`.
 */
export function sendDocument(
  c: Context,
  body: unknown,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
): Response {
  return sendDocumentText(c, JSON.stringify(body), status, headers);
}

/** `sendDocument` for a document already rendered as JSON text. */
function sendDocumentText(
  c: Context,
  text: string,
  status: ContentfulStatusCode,
  headers: Record<string, string>,
): Response {
  const requestId = c.get('requestId') as string | undefined;
  // What a token may read is never kept by a browser or a proxy (docs/api.md, "Transport").
  const all: Record<string, string> = { 'content-type': JSONAPI, 'cache-control': 'no-store', ...headers };
  if (requestId) all['x-request-id'] = requestId;
  const res = new Response(text, { status, headers: all });
  rendered.set(res, { headers: all, body: text });
  return res;
}

export function sendResource(
  c: Context,
  data: ResourceObject,
  options: { status?: ContentfulStatusCode; included?: ResourceObject[] } = {},
): Response {
  const body: Record<string, unknown> = { data };
  if (options.included && options.included.length > 0) body.included = dedupe(options.included);
  return sendDocument(c, body, options.status ?? 200);
}

/** Resources of `included` rendered at once by `sendLargeResource`: about 2 ms of JSON text each time. */
const INCLUDED_PER_SLICE = 100;

/**
 * `sendResource` for a document whose `included` may be long (a team's 1,000 memberships, each
 * naming up to 1,000 teams: 5 MB): its JSON text is rendered a slice at a time, with a turn of the
 * event loop between two, instead of in one piece that held every other request up for tens of
 * milliseconds. `included` may come as slices produced on demand (an async iterable): each is
 * rendered as soon as it is made and then dropped, so that the answer's objects never all live at
 * once (holding 5 MB of them across turns of the event loop made each young-generation garbage
 * collection copy them, pausing every request for 10-40 ms). The text is the same as
 * `sendResource`'s.
 */
export async function sendLargeResource(
  c: Context,
  data: ResourceObject,
  included: ResourceObject[] | AsyncIterable<ResourceObject[]>,
): Promise<Response> {
  const seen = new Set<string>();
  const parts: string[] = [];
  let first = true;
  for await (const slice of Array.isArray(included) ? slicesOf(included) : included) {
    if (!first) await new Promise((resolve) => setImmediate(resolve));
    first = false;
    const fresh = slice.filter((r) => {
      const key = `${r.type}\u0000${r.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (fresh.length > 0) parts.push(fresh.map((r) => JSON.stringify(r)).join(','));
  }
  const head = JSON.stringify(data);
  return sendDocumentText(
    c,
    parts.length === 0 ? `{"data":${head}}` : `{"data":${head},"included":[${parts.join(',')}]}`,
    200,
    {},
  );
}

function* slicesOf(resources: ResourceObject[]): Iterable<ResourceObject[]> {
  for (let start = 0; start < resources.length; start += INCLUDED_PER_SLICE)
    yield resources.slice(start, start + INCLUDED_PER_SLICE);
}

/** A list without pagination (e.g. tag bindings). */
export function sendList(
  c: Context,
  data: ResourceObject[],
  extra: { links?: Record<string, string>; included?: ResourceObject[] } = {},
): Response {
  const body: Record<string, unknown> = { data };
  if (extra.included && extra.included.length > 0) body.included = dedupe(extra.included);
  if (extra.links) body.links = extra.links;
  return sendDocument(c, body);
}

/**
 * Absolute links to the current request's URL with another page number and size: the URL is
 * parsed once for the five links of a collection.
 */
function pageLinker(c: Context): (number: number, size: number) => string {
  const url = new URL(c.req.url);
  const params = new URLSearchParams(url.search);
  params.delete('page[number]');
  params.delete('page[size]');
  const rest = params.toString();
  return (number, size) => {
    const page = new URLSearchParams(rest);
    page.set('page[number]', String(number));
    page.set('page[size]', String(size));
    url.search = page.toString();
    return url.toString();
  };
}

/**
 * A paginated collection: `meta.pagination` as HCP Terraform sends it, the same keys directly
 * under `meta` (what the OpenAPI-generated clients read), and absolute `links`.
 */
export function sendCollection<T>(
  c: Context,
  paged: Paged<T>,
  serialize: (item: T) => ResourceObject,
  included: ResourceObject[] = [],
  extraMeta: Record<string, unknown> = {},
): Response {
  const { number, size } = paged.page;
  const pages = totalPages(paged.total, size);
  const pagination = {
    'current-page': number,
    'page-size': size,
    'prev-page': number > 1 ? Math.min(number - 1, pages) : null,
    'next-page': number < pages ? number + 1 : null,
    'total-pages': pages,
    'total-count': paged.total,
  };
  const pageLink = pageLinker(c);
  const body: Record<string, unknown> = {
    data: paged.items.map(serialize),
    links: {
      self: pageLink(number, size),
      first: pageLink(1, size),
      prev: pagination['prev-page'] ? pageLink(pagination['prev-page'], size) : null,
      next: pagination['next-page'] ? pageLink(pagination['next-page'], size) : null,
      last: pageLink(pages, size),
    },
    meta: { pagination, ...pagination, ...extraMeta },
  };
  if (included.length > 0) body.included = dedupe(included);
  return sendDocument(c, body);
}
