import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { payloadTooLarge } from '../../domain/errors.js';
import type { ServiceContext } from '../../services/context.js';
import * as states from '../../services/state-versions.js';
import { readResource } from '../body.js';
import { sendCollection, sendResource } from '../documents.js';
import type { AppEnv } from '../env.js';
import { pageOf } from '../query.js';
import { serializeStateVersion } from '../serializers/state-version.js';

/** State files can be megabytes: their upload route has its own, larger limit. */
export const STATE_BODY_LIMIT = 64 * 1024 * 1024;

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

/** Token-authenticated state version routes. */
export function stateVersionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/workspaces/:id/state-versions', async (c) => {
    const input = states.parseStateVersionAttributes((await readResource(c, 'state-versions')).attributes);
    const sv = await states.createStateVersion(c.get('ctx'), { id: c.req.param('id') }, input);
    return sendResource(c, serializeStateVersion(sv, origin(c)), { status: 201 });
  });
  r.get('/workspaces/:id/state-versions', async (c) => {
    const paged = await states.listStateVersions(c.get('ctx'), { id: c.req.param('id') }, pageOf(c));
    return sendCollection(c, paged, (sv) => serializeStateVersion(sv, origin(c)));
  });
  r.get('/workspaces/:id/current-state-version', async (c) =>
    sendResource(
      c,
      serializeStateVersion(await states.currentStateVersion(c.get('ctx'), { id: c.req.param('id') }), origin(c)),
    ),
  );
  r.get('/state-versions/:id', async (c) =>
    sendResource(c, serializeStateVersion(await states.getStateVersion(c.get('ctx'), c.req.param('id')), origin(c))),
  );
  return r;
}

/**
 * The hosted-state URLs: authorized by the secret they carry (like signed URLs), so they are
 * mounted before token authentication, with the larger body limit.
 */
export function stateContentRoutes(context: Pick<ServiceContext, 'db' | 'clock'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.put(
    '/state-versions/:id/content',
    bodyLimit({
      maxSize: STATE_BODY_LIMIT,
      onError: () => {
        throw payloadTooLarge(`state uploads are limited to ${STATE_BODY_LIMIT} bytes`);
      },
    }),
    async (c) => {
      const bytes = Buffer.from(await c.req.arrayBuffer());
      await states.uploadStateBody(
        { ...context, commitHook: c.get('commitHook') },
        c.req.param('id'),
        c.req.query('secret') ?? '',
        bytes,
      );
      return c.body(null, 200);
    },
  );
  r.get('/state-versions/:id/content', async (c) => {
    const body = await states.downloadStateBody(context, c.req.param('id'), c.req.query('secret') ?? '');
    return c.body(body, 200, { 'Content-Type': 'application/json' });
  });
  return r;
}
