import { Hono } from 'hono';
import type { ServiceContext } from '../../../services/context.js';
import {
  MAX_PROVIDER_ARCHIVE_BYTES,
  MAX_SHASUMS_BYTES,
  MAX_SHASUMS_SIGNATURE_BYTES,
} from '../../../domain/registry/provider-limits.js';
import {
  downloadArchive,
  downloadShasums,
  uploadBinary,
  uploadShasums,
  type ShasumsKind,
} from '../../../services/registry/provider-uploads.js';
import type { AppEnv } from '../../env.js';
import { uploadChunks } from './provider-upload-body.js';

/**
 * The signed file URLs of the provider registry and the mirror, under `/api/registry/files/`
 * (no token: the `expires` and `signature` of the query are the credential; docs/api.md):
 * SHA256SUMS and their signature (PUT once, then GET), a platform's archive (PUT), and any
 * archive (GET, streamed a chunk at a time).
 */
export function providerFileRoutes(context: Pick<ServiceContext, 'db' | 'clock'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const signed = (q: (name: string) => string | undefined) => ({ expires: q('expires'), signature: q('signature') });
  for (const kind of ['shasums', 'shasums-sig'] as ShasumsKind[]) {
    const limit = kind === 'shasums' ? MAX_SHASUMS_BYTES : MAX_SHASUMS_SIGNATURE_BYTES;
    r.put(`/files/provider-versions/:id/${kind}`, async (c) => {
      await uploadShasums(
        context,
        c.req.param('id'),
        kind,
        signed((n) => c.req.query(n)),
        uploadChunks(c, limit, `a ${kind} file`),
      );
      return c.body(null, 200);
    });
    r.get(`/files/provider-versions/:id/${kind}`, async (c) => {
      const body = await downloadShasums(
        context,
        c.req.param('id'),
        kind,
        signed((n) => c.req.query(n)),
      );
      return c.body(new Uint8Array(body), 200, {
        'Content-Type': kind === 'shasums' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
    });
  }
  r.put('/files/provider-platforms/:id/binary', async (c) => {
    await uploadBinary(
      context,
      c.req.param('id'),
      signed((n) => c.req.query(n)),
      uploadChunks(c, MAX_PROVIDER_ARCHIVE_BYTES, 'a provider archive'),
    );
    return c.body(null, 200);
  });
  r.get('/files/archives/:id/:filename', async (c) => {
    const archive = await downloadArchive(
      context,
      c.req.param('id'),
      signed((n) => c.req.query(n)),
    );
    return c.body(archive.body, 200, {
      'Content-Type': 'application/zip',
      'Content-Length': String(archive.size),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return r;
}
