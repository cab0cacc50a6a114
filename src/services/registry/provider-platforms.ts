import { invalid } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { checkPattern, FILENAME, PLATFORM_PART, SHA256_HEX } from '../../domain/registry/provider-names.js';
import type { ProviderAddress, ProviderPlatform } from '../../domain/registry/provider-registry.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import { mayManageProviders } from './provider-access.js';
import { removeArchives } from './provider-archives.js';
import { platformRow, toPlatform, versionRow, type PlatformRow } from './provider-rows.js';
import { privateProvider } from './provider-versions.js';

/**
 * HCP's Provider Platforms API (go-tfe's registry_provider_platform.go): the (os, arch) builds of
 * a version, each with the SHA-256 and file name of its zip archive, uploaded to its signed
 * `provider-binary-upload` link (provider-uploads.ts), which checks it against `shasum`.
 */

export interface PlatformInput {
  os: string;
  arch: string;
  shasum: string;
  filename: string;
}

export function parsePlatformInput(attributes: Record<string, unknown>): PlatformInput {
  const p = '/data/attributes';
  return {
    os: checkPattern(`${p}/os`, 'OS', attributes.os, PLATFORM_PART, 'an operating system such as linux'),
    arch: checkPattern(`${p}/arch`, 'Arch', attributes.arch, PLATFORM_PART, 'an architecture such as amd64'),
    shasum: checkPattern(`${p}/shasum`, 'Shasum', attributes.shasum, SHA256_HEX, 'a SHA-256 in hex').toLowerCase(),
    filename: checkPattern(`${p}/filename`, 'Filename', attributes.filename, FILENAME, 'a file name'),
  };
}

export type VersionAddress = ProviderAddress & { version: string };

export async function createPlatform(
  ctx: ServiceContext,
  address: VersionAddress,
  input: PlatformInput,
): Promise<ProviderPlatform> {
  return writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const { provider, address: addr } = await privateProvider(ctx, address, tx, true);
    const version = await versionRow(tx, provider.id, address.version);
    const taken = await tx
      .selectFrom('registry_provider_platforms')
      .select('id')
      .where('version_id', '=', version.id)
      .where('os', '=', input.os)
      .where('arch', '=', input.arch)
      .executeTakeFirst();
    if (taken)
      throw invalid('/data/attributes/os', `Platform ${input.os}_${input.arch} has already been added to this version`);
    const now = ctx.clock.now().toISOString();
    const row: PlatformRow = {
      seq: 0,
      id: newId('provpltfrm'),
      version_id: version.id,
      os: input.os,
      arch: input.arch,
      shasum: input.shasum,
      filename: input.filename,
      archive_id: null,
      created_at: now,
      updated_at: now,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('registry_provider_platforms').values(values).execute();
    return toPlatform(row, addr, version.version, true);
  });
}

export async function listPlatforms(
  ctx: ServiceContext,
  address: VersionAddress,
  page: PageRequest,
): Promise<Paged<ProviderPlatform>> {
  const { org, provider, address: addr } = await privateProvider(ctx, address, ctx.db);
  const version = await versionRow(ctx.db, provider.id, address.version);
  const base = ctx.db.selectFrom('registry_provider_platforms').where('version_id', '=', version.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  const manage = mayManageProviders(ctx, org.facts);
  return { items: rows.map((r) => toPlatform(r, addr, version.version, manage)), total: Number(n), page };
}

export async function getPlatform(
  ctx: ServiceContext,
  address: VersionAddress,
  os: string,
  arch: string,
): Promise<ProviderPlatform> {
  const { org, provider, address: addr } = await privateProvider(ctx, address, ctx.db);
  const version = await versionRow(ctx.db, provider.id, address.version);
  const row = await platformRow(ctx.db, version.id, os, arch);
  return toPlatform(row, addr, version.version, mayManageProviders(ctx, org.facts));
}

export async function deletePlatform(
  ctx: ServiceContext,
  address: VersionAddress,
  os: string,
  arch: string,
): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const { provider } = await privateProvider(ctx, address, tx, true);
    const version = await versionRow(tx, provider.id, address.version);
    const row = await platformRow(tx, version.id, os, arch);
    await tx.deleteFrom('registry_provider_platforms').where('id', '=', row.id).execute();
    await removeArchives(tx, [row.archive_id]);
  });
}
