import type { Selectable } from 'kysely';
import { BerthError, conflict, invalid, notFound, payloadTooLarge } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import {
  looksGzipped,
  MAX_MODULE_ARCHIVE_BYTES,
  MODULE_DOWNLOAD_PURPOSE,
  MODULE_DOWNLOAD_TTL_SECONDS,
  MODULE_UPLOAD_PURPOSE,
  type ModuleAddress,
  type ModuleVersionStatus,
  type RegistryModuleVersion,
} from '../../domain/registry/module.js';
import { runUrlValid, signedRunQuery } from '../../domain/runs/run-execution.js';
import { DEFAULT_STATE_URL_TTL_SECONDS } from '../../domain/state/state-url.js';
import type { RegistryModuleVersionsTable } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { signingKey } from '../state/state-urls.js';
import { inOrganizationNamed } from '../write-scope.js';
import { moduleRowAt, readableRegistry, requireManage } from './module-rows.js';

/**
 * The versions of registry modules: created `pending` with a signed upload URL (only the create's
 * answer carries it, as a configuration version's), made `ok` by the upload of their tar.gz, read
 * and deleted. A version that is not `ok` is never listed by the registry protocol nor
 * downloaded. Uploads and downloads are signed with the instance's URL secret, the same mechanism
 * as configuration uploads (services/runs/configuration-versions.ts) and hosted state.
 */

type VersionRow = Selectable<RegistryModuleVersionsTable>;

function toVersion(row: VersionRow, uploadQuery: string | null = null): RegistryModuleVersion {
  return {
    id: row.id,
    moduleId: row.module_id,
    version: row.version,
    status: row.status as ModuleVersionStatus,
    size: row.size,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    uploadQuery,
  };
}

type UrlContext = Pick<ServiceContext, 'db' | 'clock' | 'settings'>;

async function signer(ctx: UrlContext, purpose: string, ttl: number) {
  const key = await signingKey(ctx.db);
  const now = ctx.clock.now();
  return (id: string) => signedRunQuery(key, purpose, id, now, ttl);
}

export async function createModuleVersion(
  ctx: ServiceContext,
  address: ModuleAddress,
  version: string,
): Promise<RegistryModuleVersion> {
  // Got before the transaction: the first use on a database stores the signing secret.
  const sign = await signer(
    ctx,
    MODULE_UPLOAD_PURPOSE,
    ctx.settings.stateUrlTtlSeconds ?? DEFAULT_STATE_URL_TTL_SECONDS,
  );
  return writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const registry = await readableRegistry(ctx, address.organization, tx);
    const mod = await moduleRowAt(tx, registry, address);
    requireManage(ctx, registry);
    if (mod.registry_name !== 'private')
      throw invalid(
        '/data/attributes/version',
        'a public module is a reference to the public registry: it has no versions here',
      );
    const taken = await tx
      .selectFrom('registry_module_versions')
      .select('id')
      .where('module_id', '=', mod.id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (taken) throw invalid('/data/attributes/version', `Version ${version} already exists for this module`);
    const now = ctx.clock.now().toISOString();
    const row: VersionRow = {
      seq: 0,
      id: newId('modver'),
      module_id: mod.id,
      version,
      status: 'pending',
      size: 0,
      created_by_kind: ctx.actor.kind,
      created_by_id: ctx.actor.tokenId,
      created_at: now,
      updated_at: now,
      uploaded_at: null,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('registry_module_versions').values(values).execute();
    await tx.updateTable('registry_modules').set({ updated_at: now }).where('id', '=', mod.id).execute();
    return toVersion(row, sign(row.id));
  });
}

async function versionRow(ctx: ServiceContext, address: ModuleAddress, version: string, db = ctx.db) {
  const registry = await readableRegistry(ctx, address.organization, db);
  const mod = await moduleRowAt(db, registry, address);
  const row = await db
    .selectFrom('registry_module_versions')
    .selectAll()
    .where('module_id', '=', mod.id)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) throw notFound(`version ${version} of registry module ${address.name}/${address.provider} not found`);
  return { registry, mod, row };
}

export async function getModuleVersion(
  ctx: ServiceContext,
  address: ModuleAddress,
  version: string,
): Promise<RegistryModuleVersion> {
  return toVersion((await versionRow(ctx, address, version)).row);
}

/** Deletes one version and its archive; the module stays (with its other versions, or none). */
export async function deleteModuleVersion(ctx: ServiceContext, address: ModuleAddress, version: string): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const { registry, mod, row } = await versionRow(ctx, address, version, tx);
    requireManage(ctx, registry);
    await tx.deleteFrom('registry_module_versions').where('id', '=', row.id).execute();
    await tx
      .updateTable('registry_modules')
      .set({ updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', mod.id)
      .execute();
  });
}

export interface SignedQuery {
  expires: string | undefined;
  signature: string | undefined;
}

async function organizationOfVersion(db: ServiceContext['db'], id: string) {
  return db
    .selectFrom('registry_module_versions')
    .innerJoin('registry_modules', 'registry_modules.id', 'registry_module_versions.module_id')
    .innerJoin('organizations', 'organizations.id', 'registry_modules.organization_id')
    .select(['organizations.name as org_name', 'registry_module_versions.status'])
    .where('registry_module_versions.id', '=', id)
    .executeTakeFirst();
}

/**
 * Stores the archive PUT to a version's signed upload URL: a gzip stream (422 otherwise) of at
 * most MAX_MODULE_ARCHIVE_BYTES (413), read whole by the route under that bound. It makes the
 * version `ok`, in one transaction with the archive: a version is never `ok` without all of it.
 * A version already uploaded is a 409 (a published version does not change under its users).
 */
export async function uploadModuleArchive(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'settings' | 'commitHook'>,
  id: string,
  query: SignedQuery,
  body: Buffer,
): Promise<void> {
  const key = await signingKey(ctx.db);
  if (!runUrlValid(key, MODULE_UPLOAD_PURPOSE, id, query.expires, query.signature, ctx.clock.now()))
    throw notFound('registry module version not found (or the upload URL has expired)');
  if (body.length > MAX_MODULE_ARCHIVE_BYTES)
    throw payloadTooLarge(`module archives are limited to ${MAX_MODULE_ARCHIVE_BYTES} bytes`);
  if (!looksGzipped(body))
    throw new BerthError([
      { status: 422, title: 'unprocessable entity', detail: 'the module must be a tar.gz archive (gzip data)' },
    ]);
  const found = await organizationOfVersion(ctx.db, id);
  if (!found) throw notFound(`registry module version ${id} not found`);
  await writeTransaction(inOrganizationNamed(ctx, found.org_name), async (tx) => {
    const now = ctx.clock.now().toISOString();
    const row = await tx.selectFrom('registry_module_versions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`registry module version ${id} not found`);
    if (row.status !== 'pending') throw conflict(`version ${row.version} is already uploaded: publish a new version`);
    await tx.insertInto('registry_module_files').values({ version_id: id, body }).execute();
    await tx
      .updateTable('registry_module_versions')
      .set({ status: 'ok', size: body.length, uploaded_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  });
}

/**
 * The registry protocol's versions of a private module (`GET .../versions`): only those whose
 * archive is in (`ok`). Readers of the organization's registry only; else 404.
 */
export async function protocolVersions(ctx: ServiceContext, address: ModuleAddress): Promise<string[]> {
  const registry = await readableRegistry(ctx, address.organization);
  const mod = await moduleRowAt(ctx.db, registry, address);
  const rows = await ctx.db
    .selectFrom('registry_module_versions')
    .select('version')
    .where('module_id', '=', mod.id)
    .where('status', '=', 'ok')
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.version);
}

/**
 * Where terraform downloads a version (`GET .../:version/download`): the signed query of the
 * archive's URL, valid MODULE_DOWNLOAD_TTL_SECONDS from now (by the injected clock). A version
 * that is not `ok` is a 404, as one that does not exist.
 */
export async function moduleDownload(
  ctx: ServiceContext,
  address: ModuleAddress,
  version: string,
): Promise<{ id: string; query: string }> {
  const sign = await signer(ctx, MODULE_DOWNLOAD_PURPOSE, MODULE_DOWNLOAD_TTL_SECONDS);
  const { mod, row } = await versionRow(ctx, address, version);
  if (mod.registry_name !== 'private' || row.status !== 'ok')
    throw notFound(
      `version ${version} of registry module ${address.name}/${address.provider} has no archive to download`,
    );
  return { id: row.id, query: sign(row.id) };
}

/** The archive at a signed download URL (fetched without credentials); 404 when unsigned, expired or not `ok`. */
export async function moduleArchive(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  id: string,
  query: SignedQuery,
): Promise<Buffer> {
  const key = await signingKey(ctx.db);
  if (!runUrlValid(key, MODULE_DOWNLOAD_PURPOSE, id, query.expires, query.signature, ctx.clock.now()))
    throw notFound('registry module archive not found (or the download URL has expired)');
  const file = await ctx.db
    .selectFrom('registry_module_files')
    .innerJoin('registry_module_versions', 'registry_module_versions.id', 'registry_module_files.version_id')
    .select('registry_module_files.body')
    .where('registry_module_files.version_id', '=', id)
    .where('registry_module_versions.status', '=', 'ok')
    .executeTakeFirst();
  if (!file) throw notFound('registry module archive not found');
  return Buffer.from(file.body);
}
