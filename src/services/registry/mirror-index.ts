import { notFound } from '../../domain/common/errors.js';
import { mirrorProviderOf, type MirrorProvider } from '../../domain/registry/mirror-paths.js';
import { compareVersions } from '../../domain/registry/provider-names.js';
import { PROVIDER_URL_PURPOSES as P } from '../../domain/registry/provider-urls.js';
import type { ServiceContext } from '../context.js';
import { providerOrganization, providerSigner } from './provider-access.js';

/**
 * An organization's provider network mirror (Terraform's "Provider Network Mirror Protocol", at
 * `/api/registry/mirror/:org/`): the packages pushed into it (mirror-push.ts), under the registry
 * hostname they came from, and the organization's own private providers, under any hostname
 * (the names berth is known by differ between clients: `serve --hostname`, `localhost:PORT`)
 * when the namespace is the organization's name. A pushed package wins over a private one of
 * the same version and platform. Archive URLs are signed paths: Terraform downloads them without
 * credentials.
 */

interface MirrorPackage {
  version: string;
  os: string;
  arch: string;
  filename: string;
  archiveId: string;
  hashes: string[];
}

async function packagesOf(ctx: ServiceContext, org: string, hostname: string, namespace: string, type: string) {
  const where = mirrorProviderOf(hostname, namespace, type);
  if (!where) throw notFound(`provider ${hostname}/${namespace}/${type} not found in the mirror`);
  const o = await providerOrganization(ctx, org);
  const pushed = await ctx.db
    .selectFrom('mirror_archives')
    .innerJoin('registry_archives', 'registry_archives.id', 'mirror_archives.archive_id')
    .select(['mirror_archives.version', 'mirror_archives.os', 'mirror_archives.arch', 'mirror_archives.filename'])
    .select(['mirror_archives.archive_id', 'mirror_archives.hashes', 'registry_archives.sha256'])
    .where('mirror_archives.organization_id', '=', o.id)
    .where('mirror_archives.hostname', '=', where.hostname)
    .where('mirror_archives.namespace', '=', where.namespace)
    .where('mirror_archives.type', '=', where.type)
    .where('registry_archives.complete', '=', 1)
    .execute();
  const out = new Map<string, MirrorPackage>();
  for (const r of pushed)
    out.set(`${r.version} ${r.os}_${r.arch}`, {
      version: r.version,
      os: r.os,
      arch: r.arch,
      filename: r.filename,
      archiveId: r.archive_id,
      hashes: [...(JSON.parse(r.hashes) as string[]), `zh:${r.sha256}`],
    });
  if (where.namespace === o.name) {
    const own = await ctx.db
      .selectFrom('registry_provider_platforms')
      .innerJoin(
        'registry_provider_versions',
        'registry_provider_versions.id',
        'registry_provider_platforms.version_id',
      )
      .innerJoin('registry_providers', 'registry_providers.id', 'registry_provider_versions.provider_id')
      .select([
        'registry_provider_versions.version',
        'registry_provider_platforms.os',
        'registry_provider_platforms.arch',
      ])
      .select([
        'registry_provider_platforms.filename',
        'registry_provider_platforms.archive_id',
        'registry_provider_platforms.shasum',
      ])
      .where('registry_providers.organization_id', '=', o.id)
      .where('registry_providers.registry_name', '=', 'private')
      .where('registry_providers.name', '=', where.type)
      .where('registry_provider_platforms.archive_id', 'is not', null)
      .execute();
    for (const r of own) {
      const key = `${r.version} ${r.os}_${r.arch}`;
      if (!out.has(key))
        out.set(key, {
          version: r.version,
          os: r.os,
          arch: r.arch,
          filename: r.filename,
          archiveId: r.archive_id!,
          hashes: [`zh:${r.shasum}`],
        });
    }
  }
  return { where, packages: [...out.values()] };
}

/** `index.json`: `{"versions": {"1.2.0": {}, ...}}`; 404 when the mirror has none. */
export async function mirrorIndex(ctx: ServiceContext, org: string, hostname: string, namespace: string, type: string) {
  const { where, packages } = await packagesOf(ctx, org, hostname, namespace, type);
  if (packages.length === 0) throw notFound(`provider ${describe(where)} not found in the mirror`);
  const versions: Record<string, Record<string, never>> = {};
  for (const v of [...new Set(packages.map((p) => p.version))].sort(compareVersions)) versions[v] = {};
  return { versions };
}

/** `VERSION.json`: `{"archives": {"linux_amd64": {"url": ..., "hashes": [...]}}}`. */
export async function mirrorVersion(
  ctx: ServiceContext,
  org: string,
  hostname: string,
  namespace: string,
  type: string,
  version: string,
) {
  const sign = await providerSigner(ctx);
  const { where, packages } = await packagesOf(ctx, org, hostname, namespace, type);
  const of = packages.filter((p) => p.version === version);
  if (of.length === 0) throw notFound(`provider ${describe(where)} ${version} not found in the mirror`);
  const archives: Record<string, { url: string; hashes: string[] }> = {};
  for (const p of of)
    archives[`${p.os}_${p.arch}`] = {
      url: `/api/registry/files/archives/${p.archiveId}/${encodeURIComponent(p.filename)}?${sign(P.archiveDownload, p.archiveId)}`,
      hashes: [...new Set(p.hashes)],
    };
  return { archives };
}

const describe = (p: MirrorProvider) => `${p.hostname}/${p.namespace}/${p.type}`;
