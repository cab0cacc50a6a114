import { notFound } from '../../domain/common/errors.js';
import { compareVersions } from '../../domain/registry/provider-names.js';
import { PROVIDER_URL_PURPOSES as P } from '../../domain/registry/provider-urls.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { gpgKeysByKeyId } from './gpg-keys.js';
import { providerOrganization, providerSigner } from './provider-access.js';
import { providerRow } from './provider-rows.js';

/**
 * Terraform's Provider Registry Protocol (`providers.v1`) over an organization's private
 * providers: the namespace is the organization's name. Only what Terraform can install is
 * listed: a version whose SHA256SUMS and signature are uploaded, with its platforms whose archive
 * is. The download document's URLs are signed (Terraform fetches them without credentials).
 */

export interface ProtocolVersion {
  version: string;
  protocols: string[];
  platforms: { os: string; arch: string }[];
}

async function installable(tx: Tx, providerId: string) {
  return tx
    .selectFrom('registry_provider_platforms')
    .innerJoin('registry_provider_versions', 'registry_provider_versions.id', 'registry_provider_platforms.version_id')
    .select([
      'registry_provider_versions.id as version_id',
      'registry_provider_versions.version',
      'registry_provider_versions.protocols',
      'registry_provider_versions.key_id',
      'registry_provider_platforms.os',
      'registry_provider_platforms.arch',
      'registry_provider_platforms.filename',
      'registry_provider_platforms.shasum',
      'registry_provider_platforms.archive_id',
    ])
    .where('registry_provider_versions.provider_id', '=', providerId)
    .where('registry_provider_versions.shasums', 'is not', null)
    .where('registry_provider_versions.shasums_sig', 'is not', null)
    .where('registry_provider_platforms.archive_id', 'is not', null)
    .execute();
}

async function privateProviderOf(ctx: ServiceContext, namespace: string, type: string) {
  const org = await providerOrganization(ctx, namespace).catch(() => {
    throw notFound(`provider ${namespace}/${type} not found`);
  });
  const provider = await providerRow(ctx.db, org.id, { registryName: 'private', namespace: org.name, name: type });
  return { org, provider };
}

export async function protocolVersions(
  ctx: ServiceContext,
  namespace: string,
  type: string,
): Promise<ProtocolVersion[]> {
  const { provider } = await privateProviderOf(ctx, namespace, type);
  const byVersion = new Map<string, ProtocolVersion>();
  for (const r of await installable(ctx.db, provider.id)) {
    let v = byVersion.get(r.version);
    if (!v)
      byVersion.set(
        r.version,
        (v = { version: r.version, protocols: JSON.parse(r.protocols) as string[], platforms: [] }),
      );
    v.platforms.push({ os: r.os, arch: r.arch });
  }
  return [...byVersion.values()].sort((a, b) => compareVersions(a.version, b.version));
}

export interface ProtocolDownload {
  protocols: string[];
  os: string;
  arch: string;
  filename: string;
  shasum: string;
  /** Paths with their signed query strings; the route makes them absolute. */
  downloadPath: string;
  shasumsPath: string;
  shasumsSignaturePath: string;
  signingKeys: {
    key_id: string;
    ascii_armor: string;
    trust_signature: string;
    source: string;
    source_url: string | null;
  }[];
}

export async function protocolDownload(
  ctx: ServiceContext,
  namespace: string,
  type: string,
  version: string,
  os: string,
  arch: string,
): Promise<ProtocolDownload> {
  const sign = await providerSigner(ctx);
  const { org, provider } = await privateProviderOf(ctx, namespace, type);
  const row = (await installable(ctx.db, provider.id)).find(
    (r) => r.version === version && r.os === os && r.arch === arch,
  );
  if (!row) throw notFound(`provider ${namespace}/${type} ${version} has no package for ${os}_${arch}`);
  const keys = await gpgKeysByKeyId(ctx.db, org.id, [row.key_id]);
  const files = '/api/registry/files';
  return {
    protocols: JSON.parse(row.protocols) as string[],
    os,
    arch,
    filename: row.filename,
    shasum: row.shasum,
    downloadPath: `${files}/archives/${row.archive_id}/${encodeURIComponent(row.filename)}?${sign(P.archiveDownload, row.archive_id!)}`,
    shasumsPath: `${files}/provider-versions/${row.version_id}/shasums?${sign(P.shasumsDownload, row.version_id)}`,
    shasumsSignaturePath: `${files}/provider-versions/${row.version_id}/shasums-sig?${sign(P.shasumsSigDownload, row.version_id)}`,
    signingKeys: keys.map((k) => ({
      key_id: k.key_id,
      ascii_armor: k.ascii_armor,
      trust_signature: k.trust_signature,
      source: k.source,
      source_url: k.source_url,
    })),
  };
}
