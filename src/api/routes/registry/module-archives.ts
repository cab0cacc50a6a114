import { Hono } from 'hono';
import { payloadTooLarge } from '../../../domain/common/errors.js';
import { MAX_MODULE_ARCHIVE_BYTES } from '../../../domain/registry/module.js';
import type { ServiceContext } from '../../../services/context.js';
import { moduleArchive, uploadModuleArchive } from '../../../services/registry/module-versions.js';
import { requestBodyLimit } from '../../body-limit.js';
import type { AppEnv } from '../../env.js';
import { readStateBody } from '../../state-body.js';

/**
 * A module version's archive at its signed URLs, mounted before token authentication (the
 * signature is the credential, as for configuration uploads): the upload (`links.upload`, with its
 * own body limit: the body is read under it, never past it) and the download terraform follows from
 * `X-Terraform-Get` (go-getter fetches it without credentials; its `.tar.gz` name tells go-getter
 * to unpack it).
 */
export function moduleArchiveRoutes(context: Pick<ServiceContext, 'db' | 'clock' | 'settings'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const limit = requestBodyLimit(MAX_MODULE_ARCHIVE_BYTES, () => {
    throw payloadTooLarge(`module archives are limited to ${MAX_MODULE_ARCHIVE_BYTES} bytes`);
  });
  const path = '/registry-module-versions/:id/object/module.tar.gz';
  r.put(path, limit, async (c) => {
    await uploadModuleArchive(
      { ...context, commitHook: c.get('commitHook') },
      c.req.param('id'),
      { expires: c.req.query('expires'), signature: c.req.query('signature') },
      await readStateBody(c),
    );
    return c.body(null, 200);
  });
  r.get(path, async (c) => {
    const body = await moduleArchive(context, c.req.param('id'), {
      expires: c.req.query('expires'),
      signature: c.req.query('signature'),
    });
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': 'application/gzip',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return r;
}
