import { Hono } from 'hono';
import * as keys from '../../../services/registry/gpg-keys.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf } from '../../query.js';
import { serializeGpgKey } from './provider-serializers.js';

/**
 * HCP's GPG Keys API, at `/api/registry/private/v2/gpg-keys` (mounted under /api/registry with a
 * token; not under /api/v2, so not in the audit trail: docs/api.md). The registry name must be
 * `private` (go-tfe refuses any other before sending).
 */
export function gpgKeyRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/private/v2/gpg-keys', async (c) => {
    const namespaces = (c.req.queries('filter[namespace]') ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
    return sendCollection(c, await keys.listGpgKeys(c.get('ctx'), namespaces, pageOf(c)), serializeGpgKey);
  });
  r.post('/private/v2/gpg-keys', async (c) => {
    const { attributes } = await readResource(c, 'gpg-keys', { untyped: true });
    return sendResource(c, serializeGpgKey(await keys.createGpgKey(c.get('ctx'), attributes)), { status: 201 });
  });
  r.get('/private/v2/gpg-keys/:namespace/:keyId', async (c) =>
    sendResource(
      c,
      serializeGpgKey(await keys.getGpgKey(c.get('ctx'), c.req.param('namespace'), c.req.param('keyId'))),
    ),
  );
  r.patch('/private/v2/gpg-keys/:namespace/:keyId', async (c) => {
    const { attributes } = await readResource(c, 'gpg-keys', { untyped: true });
    const key = await keys.updateGpgKey(c.get('ctx'), c.req.param('namespace'), c.req.param('keyId'), attributes);
    return sendResource(c, serializeGpgKey(key));
  });
  r.delete('/private/v2/gpg-keys/:namespace/:keyId', async (c) => {
    await keys.deleteGpgKey(c.get('ctx'), c.req.param('namespace'), c.req.param('keyId'));
    return c.body(null, 204);
  });
  return r;
}
