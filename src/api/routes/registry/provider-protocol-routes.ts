import { Hono } from 'hono';
import { protocolDownload, protocolVersions } from '../../../services/registry/provider-protocol.js';
import type { AppEnv } from '../../env.js';

/**
 * Terraform's Provider Registry Protocol (`providers.v1` in the discovery document:
 * `/api/registry/v1/providers/`), with the caller's token (Terraform sends the credentials it
 * has for the host; a run's token reads its organization's). Plain JSON, as Terraform reads it.
 */
/** Where discovery's `providers.v1` points. */
export const PROVIDERS_V1_PATH = '/api/registry/v1/providers/';

export function providerProtocolRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/v1/providers/:namespace/:type/versions', async (c) => {
    const versions = await protocolVersions(c.get('ctx'), c.req.param('namespace'), c.req.param('type'));
    return c.json({ versions }, 200, { 'Cache-Control': 'no-store' });
  });
  r.get('/v1/providers/:namespace/:type/:version/download/:os/:arch', async (c) => {
    const d = await protocolDownload(
      c.get('ctx'),
      c.req.param('namespace'),
      c.req.param('type'),
      c.req.param('version'),
      c.req.param('os'),
      c.req.param('arch'),
    );
    const origin = new URL(c.req.url).origin;
    return c.json(
      {
        protocols: d.protocols,
        os: d.os,
        arch: d.arch,
        filename: d.filename,
        download_url: `${origin}${d.downloadPath}`,
        shasums_url: `${origin}${d.shasumsPath}`,
        shasums_signature_url: `${origin}${d.shasumsSignaturePath}`,
        shasum: d.shasum,
        signing_keys: { gpg_public_keys: d.signingKeys },
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });
  return r;
}
