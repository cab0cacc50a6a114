import type { Selectable } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import type { RegistryName } from '../../domain/registry/provider-names.js';
import type {
  ProviderAddress,
  ProviderPlatform,
  ProviderVersion,
  RegistryProvider,
} from '../../domain/registry/provider-registry.js';
import type {
  RegistryProviderPlatformsTable,
  RegistryProvidersTable,
  RegistryProviderVersionsTable,
} from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';

/** The rows of providers, versions and platforms, found by the addresses the API's paths use. */

export type ProviderRow = Selectable<RegistryProvidersTable>;
export type VersionRow = Selectable<RegistryProviderVersionsTable>;
export type PlatformRow = Selectable<RegistryProviderPlatformsTable>;

export async function providerRow(tx: Tx, organizationId: string, a: Omit<ProviderAddress, 'organization'>) {
  const row = await tx
    .selectFrom('registry_providers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('registry_name', '=', a.registryName)
    .where('namespace', '=', a.namespace)
    .where('name', '=', a.name)
    .executeTakeFirst();
  if (!row) throw notFound(`provider ${a.namespace}/${a.name} not found`);
  return row;
}

export async function versionRow(tx: Tx, providerId: string, version: string): Promise<VersionRow> {
  const row = await tx
    .selectFrom('registry_provider_versions')
    .selectAll()
    .where('provider_id', '=', providerId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) throw notFound(`provider version ${version} not found`);
  return row;
}

export async function platformRow(tx: Tx, versionId: string, os: string, arch: string): Promise<PlatformRow> {
  const row = await tx
    .selectFrom('registry_provider_platforms')
    .selectAll()
    .where('version_id', '=', versionId)
    .where('os', '=', os)
    .where('arch', '=', arch)
    .executeTakeFirst();
  if (!row) throw notFound(`platform ${os}_${arch} not found`);
  return row;
}

export async function versionIdsOf(tx: Tx, providerIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(providerIds.map((id) => [id, []]));
  if (providerIds.length === 0) return out;
  const rows = await tx
    .selectFrom('registry_provider_versions')
    .select(['id', 'provider_id'])
    .where('provider_id', 'in', providerIds)
    .orderBy('seq')
    .execute();
  for (const r of rows) out.get(r.provider_id)!.push(r.id);
  return out;
}

export async function platformIdsOf(tx: Tx, versionIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(versionIds.map((id) => [id, []]));
  if (versionIds.length === 0) return out;
  const rows = await tx
    .selectFrom('registry_provider_platforms')
    .select(['id', 'version_id'])
    .where('version_id', 'in', versionIds)
    .orderBy('seq')
    .execute();
  for (const r of rows) out.get(r.version_id)!.push(r.id);
  return out;
}

export function toProvider(
  row: ProviderRow,
  organizationName: string,
  canDelete: boolean,
  versionIds: string[],
): RegistryProvider {
  return {
    id: row.id,
    organizationName,
    registryName: row.registry_name as RegistryName,
    namespace: row.namespace,
    name: row.name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    canDelete,
    versionIds,
  };
}

export function addressOf(row: ProviderRow, organization: string): ProviderAddress {
  return { organization, registryName: row.registry_name as RegistryName, namespace: row.namespace, name: row.name };
}

export function toVersion(
  row: VersionRow,
  address: ProviderAddress,
  manage: boolean,
  platformIds: string[],
): ProviderVersion {
  return {
    id: row.id,
    providerId: row.provider_id,
    version: row.version,
    keyId: row.key_id,
    protocols: JSON.parse(row.protocols) as string[],
    shasumsUploaded: row.shasums !== null,
    shasumsSigUploaded: row.shasums_sig !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    canDelete: manage,
    canUploadAsset: manage,
    platformIds,
    address,
  };
}

export function toPlatform(
  row: PlatformRow,
  address: ProviderAddress,
  version: string,
  manage: boolean,
): ProviderPlatform {
  return {
    id: row.id,
    versionId: row.version_id,
    os: row.os,
    arch: row.arch,
    shasum: row.shasum,
    filename: row.filename,
    binaryUploaded: row.archive_id !== null,
    archiveId: row.archive_id,
    canDelete: manage,
    canUploadAsset: manage,
    address: { ...address, version },
  };
}
