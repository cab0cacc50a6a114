import { BerthError, conflict, notFound, payloadTooLarge } from '../../domain/common/errors.js';
import {
  MAX_PROVIDER_ARCHIVE_BYTES,
  MAX_SHASUMS_BYTES,
  MAX_SHASUMS_SIGNATURE_BYTES,
} from '../../domain/registry/provider-limits.js';
import type { ProviderLinks, ProviderPlatform, ProviderVersion } from '../../domain/registry/provider-registry.js';
import {
  PROVIDER_URL_PURPOSES as P,
  providerUrlValid,
  type ProviderUrlSigner,
} from '../../domain/registry/provider-urls.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { signingKey } from '../state/state-urls.js';
import {
  archiveInfo,
  archiveStream,
  completeArchive,
  discardArchive,
  storeArchive,
  type Chunks,
} from './provider-archives.js';

/**
 * The signed file URLs of private providers (no token: the signature is the credential, as
 * HCP's): a version's SHA256SUMS and its signature, a platform's archive; uploaded once each
 * (a second upload is a 409, as on HCP), downloaded by Terraform through the registry protocol.
 */

type FileContext = Pick<ServiceContext, 'db' | 'clock'>;

export interface SignedQuery {
  expires: string | undefined;
  signature: string | undefined;
}

export type ShasumsKind = 'shasums' | 'shasums-sig';

/** The links a version offers its reader now: uploads to who may upload, downloads once uploaded. */
export function versionLinks(sign: ProviderUrlSigner, v: ProviderVersion): ProviderLinks {
  const links: ProviderLinks = {};
  if (v.shasumsUploaded) links.shasumsDownload = sign(P.shasumsDownload, v.id);
  else if (v.canUploadAsset) links.shasumsUpload = sign(P.shasumsUpload, v.id);
  if (v.shasumsSigUploaded) links.shasumsSigDownload = sign(P.shasumsSigDownload, v.id);
  else if (v.canUploadAsset) links.shasumsSigUpload = sign(P.shasumsSigUpload, v.id);
  return links;
}

export function platformLinks(sign: ProviderUrlSigner, p: ProviderPlatform): ProviderLinks {
  if (p.archiveId) return { binaryDownload: { archiveId: p.archiveId, query: sign(P.archiveDownload, p.archiveId) } };
  return p.canUploadAsset ? { binaryUpload: sign(P.binaryUpload, p.id) } : {};
}

async function requireSigned(
  ctx: FileContext,
  purpose: (typeof P)[keyof typeof P],
  id: string,
  query: SignedQuery,
  what: string,
) {
  const key = await signingKey(ctx.db);
  if (!providerUrlValid(key, purpose, id, query, ctx.clock.now()))
    throw notFound(`${what} not found (or the URL has expired: read it again for a new one)`);
}

/** Reads a small body whole, refusing it past `limit` bytes as soon as it gets there. */
async function smallBody(chunks: Chunks, limit: number, what: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of chunks) {
    size += c.byteLength;
    if (size > limit) throw payloadTooLarge(`${what} is limited to ${limit} bytes`);
    parts.push(Buffer.from(c));
  }
  return Buffer.concat(parts, size);
}

/** Stores a version's SHA256SUMS (`shasums`) or their detached signature (`shasums-sig`). */
export async function uploadShasums(
  ctx: FileContext,
  versionId: string,
  kind: ShasumsKind,
  query: SignedQuery,
  chunks: Chunks,
): Promise<void> {
  const sums = kind === 'shasums';
  await requireSigned(ctx, sums ? P.shasumsUpload : P.shasumsSigUpload, versionId, query, 'provider version');
  const body = await smallBody(
    chunks,
    sums ? MAX_SHASUMS_BYTES : MAX_SHASUMS_SIGNATURE_BYTES,
    sums ? 'a SHA256SUMS file' : 'a SHA256SUMS signature',
  );
  if (body.length === 0)
    throw new BerthError([{ status: 422, title: 'unprocessable entity', detail: `the ${kind} file is empty` }]);
  if (sums && !/^([0-9a-f]{64} {2}\S+\n?)+$/.test(body.toString('utf8')))
    throw new BerthError([
      {
        status: 422,
        title: 'unprocessable entity',
        detail: 'a SHA256SUMS file has lines of a SHA-256 in hex, two spaces and a file name',
      },
    ]);
  await writeTransaction(ctx.db, async (tx) => {
    const row = await tx
      .selectFrom('registry_provider_versions')
      .select(['shasums', 'shasums_sig'])
      .where('id', '=', versionId)
      .executeTakeFirst();
    if (!row) throw notFound('provider version not found');
    if ((sums ? row.shasums : row.shasums_sig) !== null)
      throw conflict(`the version's ${kind} file was already uploaded`);
    const now = ctx.clock.now().toISOString();
    await tx
      .updateTable('registry_provider_versions')
      .set(sums ? { shasums: body, updated_at: now } : { shasums_sig: body, updated_at: now })
      .where('id', '=', versionId)
      .execute();
  });
}

export async function downloadShasums(
  ctx: FileContext,
  versionId: string,
  kind: ShasumsKind,
  query: SignedQuery,
): Promise<Buffer> {
  const sums = kind === 'shasums';
  await requireSigned(ctx, sums ? P.shasumsDownload : P.shasumsSigDownload, versionId, query, 'provider version');
  const row = await ctx.db
    .selectFrom('registry_provider_versions')
    .select(['shasums', 'shasums_sig'])
    .where('id', '=', versionId)
    .executeTakeFirst();
  const body = sums ? row?.shasums : row?.shasums_sig;
  if (!body) throw notFound(`provider version ${kind} not found`);
  return Buffer.from(body);
}

/**
 * Stores a platform's archive from its signed upload link, streamed into the archive store; its
 * SHA-256 must be the platform's `shasum` (422 otherwise, and nothing is kept).
 */
export async function uploadBinary(
  ctx: FileContext,
  platformId: string,
  query: SignedQuery,
  chunks: Chunks,
): Promise<void> {
  await requireSigned(ctx, P.binaryUpload, platformId, query, 'provider platform');
  const owner = async () =>
    ctx.db
      .selectFrom('registry_provider_platforms')
      .innerJoin(
        'registry_provider_versions',
        'registry_provider_versions.id',
        'registry_provider_platforms.version_id',
      )
      .innerJoin('registry_providers', 'registry_providers.id', 'registry_provider_versions.provider_id')
      .select([
        'registry_providers.organization_id',
        'registry_provider_platforms.archive_id',
        'registry_provider_platforms.shasum',
      ])
      .where('registry_provider_platforms.id', '=', platformId)
      .executeTakeFirst();
  const found = await owner();
  if (!found) throw notFound('provider platform not found');
  if (found.archive_id !== null) throw conflict("the platform's archive was already uploaded");
  const stored = await storeArchive(ctx.db, ctx.clock, found.organization_id, chunks, MAX_PROVIDER_ARCHIVE_BYTES);
  try {
    if (stored.sha256 !== found.shasum)
      throw new BerthError([
        {
          status: 422,
          title: 'unprocessable entity',
          detail: `the archive's SHA-256 is ${stored.sha256}, not the platform's shasum ${found.shasum}`,
        },
      ]);
    await writeTransaction(ctx.db, async (tx) => {
      const row = await tx
        .selectFrom('registry_provider_platforms')
        .select('archive_id')
        .where('id', '=', platformId)
        .executeTakeFirst();
      if (!row) throw notFound('provider platform not found');
      if (row.archive_id !== null) throw conflict("the platform's archive was already uploaded");
      await completeArchive(tx, stored.id);
      await tx
        .updateTable('registry_provider_platforms')
        .set({ archive_id: stored.id, updated_at: ctx.clock.now().toISOString() })
        .where('id', '=', platformId)
        .execute();
    });
  } catch (err) {
    await discardArchive(ctx.db, stored.id).catch(() => undefined);
    throw err;
  }
}

/** A complete archive through its signed download URL: its size and a stream of its bytes. */
export async function downloadArchive(
  ctx: FileContext,
  archiveId: string,
  query: SignedQuery,
): Promise<{ size: number; sha256: string; body: ReadableStream<Uint8Array> }> {
  await requireSigned(ctx, P.archiveDownload, archiveId, query, 'provider archive');
  const info = await archiveInfo(ctx.db, archiveId);
  if (!info) throw notFound('provider archive not found');
  return { ...info, body: archiveStream(ctx.db, archiveId) };
}
