import type { Selectable } from 'kysely';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import {
  compareVersions,
  type ModuleAddress,
  type ModuleVersionStatus,
  type RegistryModule,
  type RegistryName,
} from '../../domain/registry/module.js';
import type { RegistryModulesTable } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';

/**
 * What the module registry's services share: the organization's registry as the caller may see
 * it, a module's row by its address, and a row as a domain module with its versions.
 */

export type ModuleRow = Selectable<RegistryModulesTable>;

export interface Registry {
  organizationId: string;
  organizationName: string;
  facts: OrgFacts;
}

/** The organization's registry, for a caller who may read its modules; else the organization's 404. */
export async function readableRegistry(ctx: ServiceContext, organization: string, db: Tx = ctx.db): Promise<Registry> {
  const { row, facts } = await readableOrganization(ctx, organization, db);
  if (!can(ctx.actor, 'registry-module:read', facts)) throw notFound(`organization ${organization} not found`);
  return { organizationId: row.id, organizationName: row.name, facts };
}

export function requireManage(ctx: ServiceContext, registry: Registry): void {
  if (!can(ctx.actor, 'registry-module:manage', registry.facts))
    throw notAuthorized('manage the modules of this organization');
}

/** The stored namespace of an address: '' for a private module (its namespace is its organization's name). */
export function storedNamespace(registryName: RegistryName, namespace: string): string {
  return registryName === 'private' ? '' : namespace;
}

const missing = (a: Omit<ModuleAddress, 'provider'> & { provider?: string }) =>
  notFound(
    `registry module ${[a.registryName, a.namespace, a.name, a.provider].filter(Boolean).join('/')} not found in ${a.organization}`,
  );

/**
 * The rows of the modules at an address (every provider of the name when `provider` is absent);
 * none is a 404. A private module's namespace must be its organization's name.
 */
export async function moduleRowsAt(
  db: Tx,
  registry: Registry,
  address: Omit<ModuleAddress, 'provider'> & { provider?: string },
): Promise<ModuleRow[]> {
  if (address.registryName === 'private' && address.namespace !== registry.organizationName) throw missing(address);
  let q = db
    .selectFrom('registry_modules')
    .selectAll()
    .where('organization_id', '=', registry.organizationId)
    .where('registry_name', '=', address.registryName)
    .where('namespace', '=', storedNamespace(address.registryName, address.namespace))
    .where('name', '=', address.name);
  if (address.provider !== undefined) q = q.where('provider', '=', address.provider);
  const rows = await q.orderBy('seq').execute();
  if (rows.length === 0) throw missing(address);
  return rows;
}

export async function moduleRowAt(db: Tx, registry: Registry, address: ModuleAddress): Promise<ModuleRow> {
  return (await moduleRowsAt(db, registry, address))[0];
}

/** Modules as the domain has them, with their versions (newest first). */
export async function toModules(
  db: Tx,
  ctx: ServiceContext,
  registry: Registry,
  rows: ModuleRow[],
): Promise<RegistryModule[]> {
  const ids = rows.map((r) => r.id);
  const versions =
    ids.length === 0
      ? []
      : await db
          .selectFrom('registry_module_versions')
          .select(['module_id', 'version', 'status'])
          .where('module_id', 'in', ids)
          .execute();
  const canManage = can(ctx.actor, 'registry-module:manage', registry.facts);
  return rows.map((r) => ({
    id: r.id,
    organizationName: registry.organizationName,
    registryName: r.registry_name as RegistryName,
    namespace: r.registry_name === 'private' ? registry.organizationName : r.namespace,
    name: r.name,
    provider: r.provider,
    noCode: r.no_code === 1,
    versions: versions
      .filter((v) => v.module_id === r.id)
      .map((v) => ({ version: v.version, status: v.status as ModuleVersionStatus }))
      .sort((a, b) => compareVersions(b.version, a.version)),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    canManage,
  }));
}
