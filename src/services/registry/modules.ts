import { invalid, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import type { ModuleAddress, ModuleCreateInput, RegistryModule, RegistryName } from '../../domain/registry/module.js';
import { containsInsensitive } from '../../store/like.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import {
  moduleRowAt,
  moduleRowsAt,
  readableRegistry,
  requireManage,
  storedNamespace,
  toModules,
} from './module-rows.js';

/**
 * Registry modules (HCP's Private Registry Modules API, without VCS): created by name and
 * provider, read by their address or id, listed, changed (`no-code`) and deleted by name (every
 * provider), by provider, or (module-versions.ts) by version. Members of the organization read
 * them; its owners, teams with "manage modules" and its token manage them.
 */

export async function createModule(
  ctx: ServiceContext,
  organization: string,
  input: ModuleCreateInput,
): Promise<RegistryModule> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const registry = await readableRegistry(ctx, organization, tx);
    requireManage(ctx, registry);
    const namespace = storedNamespace(input.registryName, input.namespace ?? '');
    const taken = await tx
      .selectFrom('registry_modules')
      .select('id')
      .where('organization_id', '=', registry.organizationId)
      .where('registry_name', '=', input.registryName)
      .where('namespace', '=', namespace)
      .where('name', '=', input.name)
      .where('provider', '=', input.provider)
      .executeTakeFirst();
    if (taken) throw invalid('/data/attributes/name', 'Name has already been taken for this provider');
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId('mod'),
      organization_id: registry.organizationId,
      registry_name: input.registryName,
      namespace,
      name: input.name,
      provider: input.provider,
      no_code: input.noCode ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('registry_modules').values(row).execute();
    return (await toModules(tx, ctx, registry, [{ ...row, seq: 0 }]))[0];
  });
}

export interface ModuleFilters {
  q?: string;
  registryName?: string;
  provider?: string;
  organizationName?: string;
}

/** The organization's modules, in creation order; `q` searches name, namespace and provider. */
export async function listModules(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
  filters: ModuleFilters = {},
): Promise<Paged<RegistryModule>> {
  const registry = await readableRegistry(ctx, organization);
  let base = ctx.db.selectFrom('registry_modules').where('organization_id', '=', registry.organizationId);
  if (filters.registryName) base = base.where('registry_name', '=', filters.registryName);
  if (filters.provider) base = base.where('provider', '=', filters.provider);
  // Every module of this registry is its organization's: another name matches none.
  if (filters.organizationName && filters.organizationName !== registry.organizationName)
    return { items: [], total: 0, page };
  if (filters.q) {
    const q = filters.q;
    base = base.where((eb) =>
      eb.or([
        containsInsensitive('registry_modules.name', q),
        containsInsensitive('registry_modules.provider', q),
        containsInsensitive('registry_modules.namespace', q),
      ]),
    );
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return { items: await toModules(ctx.db, ctx, registry, rows), total: Number(n), page };
}

export async function getModule(ctx: ServiceContext, address: ModuleAddress): Promise<RegistryModule> {
  const registry = await readableRegistry(ctx, address.organization);
  const row = await moduleRowAt(ctx.db, registry, address);
  return (await toModules(ctx.db, ctx, registry, [row]))[0];
}

/** A module by its id (`GET /registry-modules/:id`); 404 unless the caller may read its organization's registry. */
export async function getModuleById(ctx: ServiceContext, id: string): Promise<RegistryModule> {
  const found = await ctx.db
    .selectFrom('registry_modules')
    .innerJoin('organizations', 'organizations.id', 'registry_modules.organization_id')
    .selectAll('registry_modules')
    .select('organizations.name as org_name')
    .where('registry_modules.id', '=', id)
    .executeTakeFirst();
  const missing = () => notFound(`registry module ${id} not found`);
  if (!found) throw missing();
  const registry = await readableRegistry(ctx, found.org_name).catch(() => {
    throw missing();
  });
  const { org_name: _org, ...row } = found;
  return (await toModules(ctx.db, ctx, registry, [row]))[0];
}

export async function updateModule(
  ctx: ServiceContext,
  address: ModuleAddress,
  input: { noCode?: boolean },
): Promise<RegistryModule> {
  return writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const registry = await readableRegistry(ctx, address.organization, tx);
    const row = await moduleRowAt(tx, registry, address);
    requireManage(ctx, registry);
    const changes: { no_code?: number; updated_at: string } = { updated_at: ctx.clock.now().toISOString() };
    if (input.noCode !== undefined) changes.no_code = input.noCode ? 1 : 0;
    await tx.updateTable('registry_modules').set(changes).where('id', '=', row.id).execute();
    return (await toModules(tx, ctx, registry, [{ ...row, ...changes }]))[0];
  });
}

/**
 * Deletes the module's providers at the address (every provider of the name when `provider` is
 * absent), with their versions and archives. None there is a 404.
 */
export async function deleteModules(
  ctx: ServiceContext,
  address: { organization: string; registryName: RegistryName; namespace: string; name: string; provider?: string },
): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, address.organization), async (tx) => {
    const registry = await readableRegistry(ctx, address.organization, tx);
    const rows = await moduleRowsAt(tx, registry, address);
    requireManage(ctx, registry);
    await tx
      .deleteFrom('registry_modules')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  });
}
