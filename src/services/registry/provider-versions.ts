import { invalid } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { checkPattern, protocolsOf, VERSION } from '../../domain/registry/provider-names.js';
import type { ProviderAddress, ProviderVersion } from '../../domain/registry/provider-registry.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import { mayManageProviders, providerOrganization } from './provider-access.js';
import { removeArchives } from './provider-archives.js';
import { addressOf, platformIdsOf, providerRow, toVersion, versionRow, type VersionRow } from './provider-rows.js';
import { platformArchives } from './registry-providers.js';

/**
 * HCP's Provider Versions API (go-tfe's registry_provider_version.go): the versions of a private
 * provider. A version names the GPG key (of its organization) whose signature of its SHA256SUMS
 * it will carry; its SHA256SUMS and signature are uploaded to its signed links
 * (provider-uploads.ts), its platforms' archives likewise.
 */

export interface VersionInput {
  version: string;
  keyId: string;
  protocols: string[];
}

export function parseVersionInput(attributes: Record<string, unknown>): VersionInput {
  const version = checkPattern(
    '/data/attributes/version',
    'Version',
    attributes.version,
    VERSION,
    'a semantic version',
  );
  const keyId = attributes['key-id'];
  if (typeof keyId !== 'string' || !/^[0-9A-Fa-f]{16}$/.test(keyId))
    throw invalid('/data/attributes/key-id', 'Key ID must be the 16 hex digits of a GPG key of the namespace');
  return { version, keyId: keyId.toUpperCase(), protocols: protocolsOf(attributes.protocols) };
}

/** The private provider the caller may read (manage, with `manage`), in `tx`. */
export async function privateProvider(ctx: ServiceContext, address: ProviderAddress, tx: Tx, manage = false) {
  const org = await providerOrganization(ctx, address.organization, { manage, db: tx });
  if (address.registryName !== 'private')
    throw invalid('/data', 'only providers of the private registry have versions and platforms');
  const provider = await providerRow(tx, org.id, address);
  return { org, provider, address: addressOf(provider, org.name) };
}

async function viewOf(ctx: ServiceContext, tx: Tx, row: VersionRow, address: ProviderAddress, manage: boolean) {
  const platforms = await platformIdsOf(tx, [row.id]);
  return toVersion(row, address, manage, platforms.get(row.id)!);
}

export async function createVersion(
  ctx: ServiceContext,
  address: ProviderAddress,
  input: VersionInput,
): Promise<ProviderVersion> {
  return writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const { org, provider, address: addr } = await privateProvider(ctx, address, tx, true);
    const key = await tx
      .selectFrom('registry_gpg_keys')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('key_id', '=', input.keyId)
      .executeTakeFirst();
    if (!key)
      throw invalid('/data/attributes/key-id', `Key ID ${input.keyId} is no GPG key of the namespace ${org.name}`);
    const taken = await tx
      .selectFrom('registry_provider_versions')
      .select('id')
      .where('provider_id', '=', provider.id)
      .where('version', '=', input.version)
      .executeTakeFirst();
    if (taken) throw invalid('/data/attributes/version', 'Version has already been taken');
    const now = ctx.clock.now().toISOString();
    const row: VersionRow = {
      seq: 0,
      id: newId('provver'),
      provider_id: provider.id,
      version: input.version,
      key_id: input.keyId,
      protocols: JSON.stringify(input.protocols),
      shasums: null,
      shasums_sig: null,
      created_at: now,
      updated_at: now,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('registry_provider_versions').values(values).execute();
    await tx.updateTable('registry_providers').set({ updated_at: now }).where('id', '=', provider.id).execute();
    return toVersion(row, addr, true, []);
  });
}

export async function listVersions(
  ctx: ServiceContext,
  address: ProviderAddress,
  page: PageRequest,
): Promise<Paged<ProviderVersion>> {
  const { org, provider, address: addr } = await privateProvider(ctx, address, ctx.db);
  const base = ctx.db.selectFrom('registry_provider_versions').where('provider_id', '=', provider.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  const platforms = await platformIdsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const manage = mayManageProviders(ctx, org.facts);
  return {
    items: rows.map((r) => toVersion(r, addr, manage, platforms.get(r.id)!)),
    total: Number(n),
    page,
  };
}

export async function getVersion(
  ctx: ServiceContext,
  address: ProviderAddress,
  version: string,
): Promise<ProviderVersion> {
  const { org, provider, address: addr } = await privateProvider(ctx, address, ctx.db);
  const row = await versionRow(ctx.db, provider.id, version);
  return viewOf(ctx, ctx.db, row, addr, mayManageProviders(ctx, org.facts));
}

export async function deleteVersion(ctx: ServiceContext, address: ProviderAddress, version: string): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const { provider } = await privateProvider(ctx, address, tx, true);
    const row = await versionRow(tx, provider.id, version);
    const archives = await platformArchives(tx, { versionId: row.id });
    await tx.deleteFrom('registry_provider_versions').where('id', '=', row.id).execute();
    await removeArchives(tx, archives);
  });
}
