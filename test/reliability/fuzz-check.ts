import { sql } from 'kysely';
import { TestApi } from '../helpers/api.js';
import { pathOf, withSeededIds, type FuzzRequest } from './fuzz-arbitraries.js';
import { routeKey } from './routes.js';
import { databaseChecksum, seedOrganization, type SeededOrg } from './seed.js';

/** Responses that are not JSON:API documents by design: discovery, health checks and raw state downloads. */
const NON_JSONAPI = new Set([
  'GET /.well-known/terraform.json',
  'GET /healthz',
  'GET /readyz',
  'GET /api/v2/state-versions/:id/content',
  'GET /api/v2/state-versions/:id/json-content',
  'GET /api/v2/configuration-versions/:id/download',
  'GET /api/v2/run-logs/:phase/:expires/:signature',
]);

/**
 * The registry's protocols (Terraform's module and provider registry protocols, the network mirror)
 * and its signed file URLs answer what Terraform reads: plain JSON or bytes (docs/api.md). Their
 * refusals are JSON:API errors like every other.
 */
const REGISTRY_PROTOCOL = /^\/api\/registry\/(v1|mirror|files)\//;

/**
 * OAuth endpoints of `terraform login` (docs/api.md "terraform login (login.v1)"): the token
 * endpoint answers as OAuth 2.0 says, in JSON (`{"error": ...}` on refusal, `{"access_token": ...}`
 * on success); the authorization page redirects a browser (302, no body) or refuses with a
 * JSON:API error.
 */
const OAUTH = new Set(['POST /api/v2/terraform-login/token', 'GET /terraform-login/authorize']);

/** What is wrong with an answer of an OAuth endpoint, or null. */
function oauthProblem(res: { status: number; contentType: string | null; text: string }, where: string): string | null {
  if (res.status === 302) return res.text === '' ? null : `302 with a body: ${where}`;
  const type = res.contentType ?? '';
  if (!type.startsWith('application/json') && !type.startsWith('application/vnd.api+json'))
    return `content type ${res.contentType}: ${where}`;
  let doc: any;
  try {
    doc = JSON.parse(res.text);
  } catch {
    return `not JSON: ${where}`;
  }
  if (res.status >= 400)
    return typeof doc?.error === 'string' || Array.isArray(doc?.errors) ? null : `refusal without an error: ${where}`;
  return typeof doc?.access_token === 'string' ? null : `success without access_token: ${where}`;
}

export interface World {
  api: TestApi;
  acme: SeededOrg;
  globex: SeededOrg;
  checksum: string;
  /** SQLite's count of rows written on the connection: unchanged means nothing was written. */
  changes: number;
}

async function totalChanges(api: TestApi): Promise<number> {
  return (await sql<{ n: number }>`select total_changes() as n`.execute(api.store.db)).rows[0].n;
}

export async function send(
  w: World,
  req: FuzzRequest,
): Promise<{ status: number; contentType: string | null; text: string }> {
  const headers: Record<string, string> = {};
  if (req.contentType !== null) headers['Content-Type'] = req.contentType;
  if (req.auth === 'admin') headers.Authorization = `Bearer ${w.api.adminToken}`;
  else if (req.auth === 'owner') headers.Authorization = `Bearer ${w.acme.ownerToken}`;
  else if (req.auth === 'garbage') headers.Authorization = 'Bearer berth.not-a-real-token';
  else if (req.auth === 'other-scheme') headers.Authorization = 'Basic YWRtaW46YWRtaW4=';
  let body: string | Uint8Array | undefined;
  if (req.body.kind === 'json') body = JSON.stringify(withSeededIds(req.body.value, w.acme, w.globex));
  else if (req.body.kind === 'text') body = req.body.text;
  else if (req.body.kind === 'bytes') body = Uint8Array.from(req.body.bytes);
  const method = req.route.method;
  if (method === 'GET' || method === 'HEAD') body = undefined;
  const res = await w.api.app.fetch(
    new Request(`http://berth.test${pathOf(req, w.acme, w.globex)}`, { method, headers, body }),
  );
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** What is wrong with the answer to `req`, or null. */
export async function problemWith(w: World, req: FuzzRequest): Promise<string | null> {
  const res = await send(w, req);
  const where = `${req.route.method} ${pathOf(req, w.acme, w.globex).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return `5xx: ${where}`;
  // The full checksum only when something was written (rows written and rolled back count too).
  const changes = await totalChanges(w.api);
  let changed = false;
  if (changes !== w.changes) {
    w.changes = changes;
    const after = await databaseChecksum(w.api);
    changed = after !== w.checksum;
    w.checksum = after;
  }
  if (res.status >= 400 && changed) return `rejected request changed the database: ${where}`;
  if (OAUTH.has(routeKey(req.route))) return oauthProblem(res, where);
  if (res.text === '')
    return res.status === 204 ||
      res.status === 202 ||
      // A state download, or a log read past its end (go-tfe's reader asks until ETX).
      (res.status === 200 && (req.route.path.endsWith('/content') || req.route.path.includes('/run-logs/')))
      ? null
      : `empty body: ${where}`;
  if (res.status < 400 && (NON_JSONAPI.has(routeKey(req.route)) || REGISTRY_PROTOCOL.test(req.route.path))) return null;
  if (res.contentType !== 'application/vnd.api+json') return `content type ${res.contentType}: ${where}`;
  let doc: any;
  try {
    doc = JSON.parse(res.text);
  } catch {
    return `not JSON: ${where}`;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return `not a document: ${where}`;
  if (res.status >= 400) {
    if (!Array.isArray(doc.errors) || doc.errors.length === 0) return `no errors array: ${where}`;
    for (const e of doc.errors) {
      if (typeof e?.status !== 'string' || typeof e?.title !== 'string')
        return `error object without status/title: ${where}`;
      if (Number(e.status) < 400 || Number(e.status) >= 500) return `error status ${e.status}: ${where}`;
    }
    if (!doc.errors.some((e: any) => e.status === String(res.status)))
      return `no error with the response status: ${where}`;
    if ('data' in doc) return `errors and data together: ${where}`;
  } else if (!('data' in doc)) return `success without data: ${where}`;
  return null;
}

export async function freshWorld(): Promise<World> {
  const api = await TestApi.create();
  const acme = await seedOrganization(api, 'acme');
  const globex = await seedOrganization(api, 'globex');
  return { api, acme, globex, checksum: await databaseChecksum(api), changes: await totalChanges(api) };
}
