import { Hono, type Context } from 'hono';
import { badRequest, payloadTooLarge } from '../../../domain/common/errors.js';
import type { StateVersion } from '../../../domain/state/state-version.js';
import type { ServiceContext } from '../../../services/context.js';
import { BACKING_DATA_ACTIONS } from '../../../domain/common/backing-data.js';
import { manageStateBackingData } from '../../../services/state/state-backing-data.js';
import { downloadStateFile, uploadStateFile, type StateFileKind } from '../../../services/state/state-content.js';
import { outputsOfVersion } from '../../../services/state/state-outputs.js';
import { parseRollbackRelationships, rollbackStateVersion } from '../../../services/state/state-rollback.js';
import type { StateUrlQuery } from '../../../services/state/state-urls.js';
import * as states from '../../../services/state/state-versions.js';
import { readResource } from '../../body.js';
import { requestBodyLimit } from '../../body-limit.js';
import { readStateBody } from '../../state-body.js';
import { sendCollection, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam, rejectUnknownFilters } from '../../query.js';
import { serializeStateVersion, serializeStateVersionOutput } from '../../serializers/state-version.js';

/** State files can be megabytes: their upload routes have their own, larger limit. */
export const STATE_BODY_LIMIT = 64 * 1024 * 1024;

/** The include values go-tfe offers for state versions; only `outputs` has records to sideload. */
export const STATE_VERSION_INCLUDES = ['created_by', 'run', 'run.created_by', 'run.configuration_version', 'outputs'];

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

/** The signature and expiry a hosted-state URL carries. */
const signedQuery = (c: Context<AppEnv>): StateUrlQuery => ({
  expires: c.req.query('expires'),
  signature: c.req.query('signature'),
});

/** A state version document, with its outputs in `included` when asked. */
async function sendVersion(
  c: Context<AppEnv>,
  sv: StateVersion,
  status: 200 | 201 = 200,
  include: Set<string> = includesOf(c, STATE_VERSION_INCLUDES),
): Promise<Response> {
  const included: ResourceObject[] = include.has('outputs')
    ? (await outputsOfVersion(c.get('ctx').db, sv.id)).map(serializeStateVersionOutput)
    : [];
  return sendResource(c, serializeStateVersion(sv, origin(c)), { status, included });
}

/** `GET /state-versions` names its workspace by two required filters. */
function workspaceFilter(c: Context<AppEnv>) {
  const organization = queryParam(c, 'filter[organization][name]');
  const name = queryParam(c, 'filter[workspace][name]');
  if (!organization)
    throw badRequest('filter[organization][name] is required', { parameter: 'filter[organization][name]' });
  if (!name) throw badRequest('filter[workspace][name] is required', { parameter: 'filter[workspace][name]' });
  return { organization, name };
}

const STATE_VERSION_LIST_FILTERS = [/^filter\[organization\]\[name\]$/, /^filter\[workspace\]\[name\]$/];

/** Token-authenticated state version routes. */
export function stateVersionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/workspaces/:id/state-versions', async (c) => {
    // `include` is checked before the write: a request refused for it changes nothing.
    const include = includesOf(c, STATE_VERSION_INCLUDES);
    const input = states.parseStateVersionAttributes((await readResource(c, 'state-versions')).attributes);
    const sv = await states.createStateVersion(c.get('ctx'), { id: c.req.param('id') }, input);
    return sendVersion(c, sv, 201, include);
  });
  // HCP Terraform's rollback: a new version copied from an earlier one of the workspace (201, as its docs say).
  r.patch('/workspaces/:id/state-versions', async (c) => {
    const include = includesOf(c, STATE_VERSION_INCLUDES);
    const sourceId = parseRollbackRelationships((await readResource(c, 'state-versions')).relationships);
    const sv = await rollbackStateVersion(c.get('ctx'), { id: c.req.param('id') }, sourceId);
    return sendVersion(c, sv, 201, include);
  });
  r.get('/workspaces/:id/state-versions', async (c) => {
    // The workspace is in the path: no filter is known here.
    rejectUnknownFilters(c, []);
    const paged = await states.listStateVersions(c.get('ctx'), { id: c.req.param('id') }, pageOf(c));
    return sendCollection(c, paged, (sv) => serializeStateVersion(sv, origin(c)));
  });
  r.get('/state-versions', async (c) => {
    // go-tfe's StateVersionListOptions sends these two (both required); any other is a 400.
    rejectUnknownFilters(c, STATE_VERSION_LIST_FILTERS);
    const paged = await states.listStateVersions(c.get('ctx'), workspaceFilter(c), pageOf(c));
    return sendCollection(c, paged, (sv) => serializeStateVersion(sv, origin(c)));
  });
  r.get('/workspaces/:id/current-state-version', async (c) =>
    sendVersion(c, await states.currentStateVersion(c.get('ctx'), { id: c.req.param('id') })),
  );
  r.get('/state-versions/:id', async (c) =>
    sendVersion(c, await states.getStateVersion(c.get('ctx'), c.req.param('id'))),
  );
  for (const action of BACKING_DATA_ACTIONS) {
    r.post(`/state-versions/:id/actions/${action}`, async (c) => {
      await manageStateBackingData(c.get('ctx'), c.req.param('id'), action);
      return c.body(null, 204);
    });
  }
  return r;
}

/**
 * The hosted-state URLs: authorized by their signature and expiry (`expires`, `signature`), so
 * they are mounted before token authentication, with the larger body limit. `content` is the raw
 * state, `json-content` its `terraform show -json` form; both are served exactly as uploaded.
 */
export function stateContentRoutes(context: Pick<ServiceContext, 'db' | 'clock'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  // Decided on node's Content-Length header when there is one: hono's own limit would wrap the
  // body in a web stream, which, left unread by an early answer (an expired URL's 404), stops
  // node from draining the rest and the kept-alive connection was cut (body-limit.ts).
  const limit = requestBodyLimit(STATE_BODY_LIMIT, () => {
    throw payloadTooLarge(`state uploads are limited to ${STATE_BODY_LIMIT} bytes`);
  });
  const files: [string, StateFileKind][] = [
    ['content', 'state'],
    ['json-content', 'json-state'],
  ];
  for (const [path, kind] of files) {
    r.put(`/state-versions/:id/${path}`, limit, async (c) => {
      await uploadStateFile(
        { ...context, commitHook: c.get('commitHook') },
        c.req.param('id'),
        kind,
        signedQuery(c),
        () => readStateBody(c),
      );
      return c.body(null, 200);
    });
    r.get(`/state-versions/:id/${path}`, async (c) => {
      const id = c.req.param('id');
      const body = await downloadStateFile(context, id, kind, signedQuery(c));
      // A state holds secrets: never kept by a cache, never sniffed into something a browser runs.
      return c.body(new Uint8Array(body), 200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': `attachment; filename="${id}${kind === 'state' ? '.tfstate' : '.json'}"`,
      });
    });
  }
  return r;
}
