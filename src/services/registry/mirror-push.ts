import { BerthError, invalid, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { archiveNameOf, MIRROR_HASH, mirrorProviderOf } from '../../domain/registry/mirror-paths.js';
import { MAX_MIRROR_HASHES, MAX_PROVIDER_ARCHIVE_BYTES } from '../../domain/registry/provider-limits.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import { providerOrganization } from './provider-access.js';
import { completeArchive, discardArchive, removeArchives, storeArchive, type Chunks } from './provider-archives.js';

/**
 * Pushes into an organization's mirror (`PUT /api/registry/mirror/:org/:hostname/:namespace/:type/:file`,
 * berth's own: what `berth registry mirror push` sends for each archive `terraform providers
 * mirror` wrote). The archive is streamed into the archive store; the `h1:` hashes the client
 * read from the mirror's `VERSION.json` are kept beside the `zh:` hash berth computes. A push of
 * a package already there replaces it (the old archive goes in the same transaction).
 */

export interface MirrorPushTarget {
  organization: string;
  hostname: string;
  namespace: string;
  type: string;
  filename: string;
}

function parseTarget(t: MirrorPushTarget) {
  const where = mirrorProviderOf(t.hostname, t.namespace, t.type);
  if (!where) throw notFound(`no mirror path ${t.hostname}/${t.namespace}/${t.type}`);
  const name = archiveNameOf(t.filename);
  if (!name || name.type !== where.type)
    throw invalid(
      '/filename',
      `the archive must be named terraform-provider-${where.type}_VERSION_OS_ARCH.zip, not ${JSON.stringify(t.filename.slice(0, 200))}`,
    );
  return { ...where, ...name, filename: t.filename };
}

export function parseHashes(values: string[]): string[] {
  if (values.length > MAX_MIRROR_HASHES) throw invalid('/hash', `at most ${MAX_MIRROR_HASHES} hashes`);
  for (const h of values)
    if (!MIRROR_HASH.test(h)) throw invalid('/hash', `${JSON.stringify(h.slice(0, 100))} is not an h1: or zh: hash`);
  // zh: is berth's to compute; a given one must match (checked after the upload).
  return [...new Set(values)];
}

export interface PushedArchive {
  hostname: string;
  namespace: string;
  type: string;
  version: string;
  os: string;
  arch: string;
  filename: string;
  size: number;
  hashes: string[];
  replaced: boolean;
}

export async function pushMirrorArchive(
  ctx: ServiceContext,
  target: MirrorPushTarget,
  hashes: string[],
  chunks: Chunks,
): Promise<PushedArchive> {
  const t = parseTarget(target);
  const org = await providerOrganization(ctx, target.organization, { manage: true });
  const stored = await storeArchive(ctx.db, ctx.clock, org.id, chunks, MAX_PROVIDER_ARCHIVE_BYTES);
  try {
    const zh = `zh:${stored.sha256}`;
    const wrong = hashes.find((h) => h.startsWith('zh:') && h !== zh);
    if (wrong)
      throw new BerthError([
        { status: 422, title: 'unprocessable entity', detail: `the archive's hash is ${zh}, not ${wrong}` },
      ]);
    const kept = hashes.filter((h) => h.startsWith('h1:'));
    const replaced = await writeTransaction(inOrganizationNamed(ctx, target.organization), async (tx) => {
      await providerOrganization(ctx, target.organization, { manage: true, db: tx });
      const old = await tx
        .selectFrom('mirror_archives')
        .select(['id', 'archive_id'])
        .where('organization_id', '=', org.id)
        .where('hostname', '=', t.hostname)
        .where('namespace', '=', t.namespace)
        .where('type', '=', t.type)
        .where('version', '=', t.version)
        .where('os', '=', t.os)
        .where('arch', '=', t.arch)
        .executeTakeFirst();
      if (old) {
        await tx.deleteFrom('mirror_archives').where('id', '=', old.id).execute();
        await removeArchives(tx, [old.archive_id]);
      }
      await completeArchive(tx, stored.id);
      await tx
        .insertInto('mirror_archives')
        .values({
          id: newId('mirarch'),
          organization_id: org.id,
          hostname: t.hostname,
          namespace: t.namespace,
          type: t.type,
          version: t.version,
          os: t.os,
          arch: t.arch,
          filename: t.filename,
          hashes: JSON.stringify(kept),
          archive_id: stored.id,
          created_at: ctx.clock.now().toISOString(),
        })
        .execute();
      return old !== undefined;
    });
    const { type, version, os, arch, hostname, namespace, filename } = t;
    return {
      hostname,
      namespace,
      type,
      version,
      os,
      arch,
      filename,
      size: stored.size,
      hashes: [...kept, zh],
      replaced,
    };
  } catch (err) {
    await discardArchive(ctx.db, stored.id).catch(() => undefined);
    throw err;
  }
}

export async function deleteMirrorArchive(ctx: ServiceContext, target: MirrorPushTarget): Promise<void> {
  const t = parseTarget(target);
  await writeTransaction(inOrganizationNamed(ctx, target.organization), async (tx) => {
    const org = await providerOrganization(ctx, target.organization, { manage: true, db: tx });
    const row = await tx
      .selectFrom('mirror_archives')
      .select(['id', 'archive_id'])
      .where('organization_id', '=', org.id)
      .where('hostname', '=', t.hostname)
      .where('namespace', '=', t.namespace)
      .where('type', '=', t.type)
      .where('version', '=', t.version)
      .where('os', '=', t.os)
      .where('arch', '=', t.arch)
      .executeTakeFirst();
    if (!row) throw notFound(`${t.filename} is not in the mirror`);
    await tx.deleteFrom('mirror_archives').where('id', '=', row.id).execute();
    await removeArchives(tx, [row.archive_id]);
  });
}
