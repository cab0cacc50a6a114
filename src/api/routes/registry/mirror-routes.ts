import { Hono } from 'hono';
import { notFound } from '../../../domain/common/errors.js';
import { MAX_PROVIDER_ARCHIVE_BYTES } from '../../../domain/registry/provider-limits.js';
import { mirrorIndex, mirrorVersion } from '../../../services/registry/mirror-index.js';
import { deleteMirrorArchive, parseHashes, pushMirrorArchive } from '../../../services/registry/mirror-push.js';
import type { AppEnv } from '../../env.js';
import { uploadChunks } from './provider-upload-body.js';

/**
 * An organization's provider network mirror, `/api/registry/mirror/:org/` (the `url` of a CLI
 * configuration's `network_mirror`): the protocol's two reads, and berth's push and delete of one
 * archive (`berth registry mirror push`). Token-authenticated; the JSON is `application/json`,
 * which Terraform requires.
 */
const PATH = '/mirror/:org/:hostname/:namespace/:type/:file';

export function mirrorRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get(PATH, async (c) => {
    const { org, hostname, namespace, type, file } = c.req.param();
    const json = (body: unknown) =>
      c.body(JSON.stringify(body), 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    if (file === 'index.json') return json(await mirrorIndex(c.get('ctx'), org, hostname, namespace, type));
    if (file.endsWith('.json'))
      return json(await mirrorVersion(c.get('ctx'), org, hostname, namespace, type, file.slice(0, -'.json'.length)));
    throw notFound(`no mirror document ${file}`);
  });
  r.put(PATH, async (c) => {
    const { org, hostname, namespace, type, file } = c.req.param();
    const hashes = parseHashes(c.req.queries('hash') ?? []);
    const pushed = await pushMirrorArchive(
      c.get('ctx'),
      { organization: org, hostname, namespace, type, filename: file },
      hashes,
      uploadChunks(c, MAX_PROVIDER_ARCHIVE_BYTES, 'a provider archive'),
    );
    return c.json(pushed, pushed.replaced ? 200 : 201);
  });
  r.delete(PATH, async (c) => {
    const { org, hostname, namespace, type, file } = c.req.param();
    await deleteMirrorArchive(c.get('ctx'), { organization: org, hostname, namespace, type, filename: file });
    return c.body(null, 204);
  });
  return r;
}
