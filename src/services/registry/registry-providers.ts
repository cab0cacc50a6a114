import { invalid } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import {
  checkPattern,
  NAMESPACE,
  PROVIDER_NAME,
  registryNameOf,
  type RegistryName,
} from '../../domain/registry/provider-names.js';
import type { ProviderAddress, RegistryProvider } from '../../domain/registry/provider-registry.js';
import { containsInsensitive } from '../../store/like.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import { mayManageProviders, providerOrganization } from './provider-access.js';
import { removeArchives } from './provider-archives.js';
import { providerRow, toProvider, versionIdsOf, type ProviderRow } from './provider-rows.js';

/**
 * HCP's Private Registry Providers API (go-tfe's registry_provider.go): an organization's
 * providers, `private` ones (namespace: the organization's name; versions and platforms
 * published here) and `public` ones (a record of a public registry's provider the organization
 * uses; no versions).
 */

export interface ProviderInput {
  name: string;
  namespace: string;
  registryName: RegistryName;
}

export function parseProviderInput(attributes: Record<string, unknown>): ProviderInput {
  const registryName = registryNameOf(attributes['registry-name'] ?? 'private');
  return {
    name: checkPattern(
      '/data/attributes/name',
      'Name',
      attributes.name,
      PROVIDER_NAME,
      'a provider name (lowercase letters, digits and dashes)',
    ),
    namespace: checkPattern('/data/attributes/namespace', 'Namespace', attributes.namespace, NAMESPACE, 'a namespace'),
    registryName,
  };
}

export async function createProvider(
  ctx: ServiceContext,
  organization: string,
  input: ProviderInput,
): Promise<RegistryProvider> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const org = await providerOrganization(ctx, organization, { manage: true, db: tx });
    if (input.registryName === 'private' && input.namespace !== org.name)
      throw invalid(
        '/data/attributes/namespace',
        `Namespace of a private provider must be the organization's name, ${org.name}`,
      );
    const taken = await tx
      .selectFrom('registry_providers')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('registry_name', '=', input.registryName)
      .where('namespace', '=', input.namespace)
      .where('name', '=', input.name)
      .executeTakeFirst();
    if (taken) throw invalid('/data/attributes/name', 'Name has already been taken');
    const now = ctx.clock.now().toISOString();
    const row: ProviderRow = {
      seq: 0,
      id: newId('prov'),
      organization_id: org.id,
      registry_name: input.registryName,
      namespace: input.namespace,
      name: input.name,
      created_at: now,
      updated_at: now,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('registry_providers').values(values).execute();
    return toProvider(row, org.name, true, []);
  });
}

export interface ProviderListQuery {
  registryName?: RegistryName;
  search?: string;
}

export async function listProviders(
  ctx: ServiceContext,
  organization: string,
  query: ProviderListQuery,
  page: PageRequest,
): Promise<Paged<RegistryProvider>> {
  const org = await providerOrganization(ctx, organization);
  let base = ctx.db.selectFrom('registry_providers').where('organization_id', '=', org.id);
  if (query.registryName) base = base.where('registry_name', '=', query.registryName);
  if (query.search) base = base.where(containsInsensitive('name', query.search));
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  const versions = await versionIdsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const manage = mayManageProviders(ctx, org.facts);
  return {
    items: rows.map((r) => toProvider(r, org.name, manage, versions.get(r.id)!)),
    total: Number(n),
    page,
  };
}

export async function getProvider(ctx: ServiceContext, address: ProviderAddress): Promise<RegistryProvider> {
  const org = await providerOrganization(ctx, address.organization);
  const row = await providerRow(ctx.db, org.id, address);
  const versions = await versionIdsOf(ctx.db, [row.id]);
  return toProvider(row, org.name, mayManageProviders(ctx, org.facts), versions.get(row.id)!);
}

/** The archives of a provider's (or one version's) platforms, to remove with them. */
export async function platformArchives(tx: Tx, where: { providerId?: string; versionId?: string }): Promise<string[]> {
  let q = tx
    .selectFrom('registry_provider_platforms')
    .innerJoin('registry_provider_versions', 'registry_provider_versions.id', 'registry_provider_platforms.version_id')
    .select('registry_provider_platforms.archive_id');
  if (where.providerId) q = q.where('registry_provider_versions.provider_id', '=', where.providerId);
  if (where.versionId) q = q.where('registry_provider_versions.id', '=', where.versionId);
  return (await q.execute()).map((r) => r.archive_id).filter((x): x is string => x !== null);
}

/** Deletes the provider with its versions, platforms and their archives. */
export async function deleteProvider(ctx: ServiceContext, address: ProviderAddress): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const org = await providerOrganization(ctx, address.organization, { manage: true, db: tx });
    const row = await providerRow(tx, org.id, address);
    const archives = await platformArchives(tx, { providerId: row.id });
    await tx.deleteFrom('registry_providers').where('id', '=', row.id).execute();
    await removeArchives(tx, archives);
  });
}
