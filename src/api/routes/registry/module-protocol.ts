import { Hono, type Context } from 'hono';
import type { ModuleAddress } from '../../../domain/registry/module.js';
import { moduleDownload, protocolVersions } from '../../../services/registry/module-versions.js';
import type { AppEnv } from '../../env.js';
import { moduleArchivePath } from './module-documents.js';

/** Where the discovery document's `modules.v1` points (routes/meta.ts). */
export const MODULES_V1_PATH = '/api/registry/v1/modules/';

/** A protocol address names a private module of the organization its namespace names. */
function addressOf(c: Context<AppEnv>): ModuleAddress {
  const namespace = c.req.param('namespace')!;
  return {
    organization: namespace,
    registryName: 'private',
    namespace,
    name: c.req.param('name')!,
    provider: c.req.param('provider')!,
  };
}

/**
 * The module registry protocol (`modules.v1`), token-authenticated (terraform sends the host's
 * credentials; a run's token may read its organization's modules): the versions of a module
 * whose archive is in, and the download, answered 204 with `X-Terraform-Get`, a short-lived signed
 * URL of the archive (relative: terraform resolves it against the download's URL).
 */
export function moduleProtocolRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/v1/modules/:namespace/:name/:provider/versions', async (c) => {
    const address = addressOf(c);
    const versions = await protocolVersions(c.get('ctx'), address);
    return c.json({
      modules: [
        {
          source: `${address.namespace}/${address.name}/${address.provider}`,
          versions: versions.map((version) => ({ version })),
        },
      ],
    });
  });
  r.get('/v1/modules/:namespace/:name/:provider/:version/download', async (c) => {
    const { id, query } = await moduleDownload(c.get('ctx'), addressOf(c), c.req.param('version'));
    c.header('X-Terraform-Get', `${moduleArchivePath(id)}?${query}`);
    c.header('Cache-Control', 'no-store');
    return c.body(null, 204);
  });
  return r;
}
