import { badRequest, forbidden, invalid, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { readArmoredKey } from '../../domain/registry/gpg-armor.js';
import { MAX_ASCII_ARMOR_CHARS } from '../../domain/registry/provider-limits.js';
import type { GpgKey } from '../../domain/registry/provider-registry.js';
import type { RegistryGpgKeysTable } from '../../store/schema.js';
import { inPage } from '../../store/literal-limit.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { Selectable } from 'kysely';
import type { ServiceContext } from '../context.js';
import { inOrganizationNamed } from '../write-scope.js';
import { providerOrganization } from './provider-access.js';

/**
 * HCP's GPG Keys API (`/api/registry/private/v2/gpg-keys`; go-tfe's gpg_key.go): the public keys
 * whose signatures of SHA256SUMS a private provider's versions carry. A key belongs to one
 * organization (its `namespace`); its `key-id` is read from the armor, never given.
 */

type Row = Selectable<RegistryGpgKeysTable>;

/** At most this many namespaces in one list's `filter[namespace]`. */
export const MAX_GPG_NAMESPACES = 20;

const toKey = (row: Row, namespace: string): GpgKey => ({
  id: row.id,
  namespace,
  keyId: row.key_id,
  asciiArmor: row.ascii_armor,
  trustSignature: row.trust_signature,
  source: row.source,
  sourceUrl: row.source_url,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The key id of an armored key, or a 422 at the attribute. */
function keyIdOf(armor: unknown): string {
  const pointer = '/data/attributes/ascii-armor';
  if (typeof armor !== 'string' || armor.trim() === '') throw invalid(pointer, 'Ascii armor is required');
  if (armor.length > MAX_ASCII_ARMOR_CHARS)
    throw invalid(pointer, `Ascii armor is too long (maximum is ${MAX_ASCII_ARMOR_CHARS} characters)`);
  const key = readArmoredKey(armor);
  if (typeof key === 'string') throw invalid(pointer, `Ascii armor is not an OpenPGP public key: ${key}`);
  return key.keyId;
}

function namespaceOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalid('/data/attributes/namespace', 'Namespace is required');
  return value;
}

async function refuseTaken(tx: Tx, organizationId: string, keyId: string): Promise<void> {
  const taken = await tx
    .selectFrom('registry_gpg_keys')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  if (taken) throw invalid('/data/attributes/ascii-armor', `Key ${keyId} has already been added to this namespace`);
}

export async function createGpgKey(
  ctx: ServiceContext,
  attributes: { namespace?: unknown; 'ascii-armor'?: unknown },
): Promise<GpgKey> {
  const namespace = namespaceOf(attributes.namespace);
  const keyId = keyIdOf(attributes['ascii-armor']);
  return writeTransaction(inOrganizationNamed(ctx, namespace), async (tx) => {
    const org = await providerOrganization(ctx, namespace, { manage: true, db: tx });
    await refuseTaken(tx, org.id, keyId);
    const now = ctx.clock.now().toISOString();
    const row: Row = {
      seq: 0,
      id: newId('gpgkey'),
      organization_id: org.id,
      key_id: keyId,
      ascii_armor: attributes['ascii-armor'] as string,
      trust_signature: '',
      source: '',
      source_url: null,
      created_at: now,
      updated_at: now,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('registry_gpg_keys').values(values).execute();
    return toKey(row, org.name);
  });
}

/** The keys of the namespaces named (each one the caller may read, else 404), oldest first. */
export async function listGpgKeys(
  ctx: ServiceContext,
  namespaces: string[],
  page: PageRequest,
): Promise<Paged<GpgKey>> {
  if (namespaces.length === 0) throw badRequest('filter[namespace] is required: one or more organization names');
  if (namespaces.length > MAX_GPG_NAMESPACES)
    throw badRequest(`filter[namespace] may name at most ${MAX_GPG_NAMESPACES} organizations`);
  const orgs = new Map<string, string>();
  for (const name of namespaces) {
    const org = await providerOrganization(ctx, name);
    orgs.set(org.id, org.name);
  }
  const ids = [...orgs.keys()];
  const base = ctx.db.selectFrom('registry_gpg_keys').where('organization_id', 'in', ids);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return { items: rows.map((r) => toKey(r, orgs.get(r.organization_id)!)), total: Number(n), page };
}

async function keyIn(tx: Tx, organizationId: string, keyId: string): Promise<Row> {
  const row = await tx
    .selectFrom('registry_gpg_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('key_id', '=', keyId.toUpperCase())
    .executeTakeFirst();
  if (!row) throw notFound(`GPG key ${keyId} not found`);
  return row;
}

export async function getGpgKey(ctx: ServiceContext, namespace: string, keyId: string): Promise<GpgKey> {
  const org = await providerOrganization(ctx, namespace);
  return toKey(await keyIn(ctx.db, org.id, keyId), org.name);
}

/** The keys of an organization by key id (for the registry protocol's `signing_keys`). */
export async function gpgKeysByKeyId(tx: Tx, organizationId: string, keyIds: string[]): Promise<Row[]> {
  if (keyIds.length === 0) return [];
  return tx
    .selectFrom('registry_gpg_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('key_id', 'in', keyIds)
    .execute();
}

/**
 * Moves a key to another namespace (the only attribute an update changes, as HCP). The caller
 * must manage both; another namespace it may not is answered "namespace not authorized", the
 * words go-tfe looks for.
 */
export async function updateGpgKey(
  ctx: ServiceContext,
  namespace: string,
  keyId: string,
  attributes: { namespace?: unknown },
): Promise<GpgKey> {
  const target = namespaceOf(attributes.namespace);
  return writeTransaction(ctx, async (tx) => {
    const from = await providerOrganization(ctx, namespace, { manage: true, db: tx });
    const row = await keyIn(tx, from.id, keyId);
    if (target === from.name) return toKey(row, from.name);
    const to = await providerOrganization(ctx, target, { manage: true, db: tx }).catch(() => {
      throw forbidden('namespace not authorized', { pointer: '/data/attributes/namespace' });
    });
    await refuseTaken(tx, to.id, row.key_id);
    const now = ctx.clock.now().toISOString();
    await tx
      .updateTable('registry_gpg_keys')
      .set({ organization_id: to.id, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    return toKey({ ...row, organization_id: to.id, updated_at: now }, to.name);
  });
}

export async function deleteGpgKey(ctx: ServiceContext, namespace: string, keyId: string): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, namespace), async (tx) => {
    const org = await providerOrganization(ctx, namespace, { manage: true, db: tx });
    const row = await keyIn(tx, org.id, keyId);
    await tx.deleteFrom('registry_gpg_keys').where('id', '=', row.id).execute();
  });
}
