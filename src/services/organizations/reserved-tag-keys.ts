import { BerthError, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import {
  forbiddenOverrides,
  type ReservedTagKey,
  type ReservedTagKeyInput,
} from '../../domain/organizations/reserved-tag-key.js';
import type { TagBindingInput } from '../../domain/workspaces/tags.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from './organizations.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

function selectKeys(db: Tx) {
  return db
    .selectFrom('reserved_tag_keys')
    .innerJoin('organizations', 'organizations.id', 'reserved_tag_keys.organization_id')
    .select([
      'reserved_tag_keys.id',
      'reserved_tag_keys.organization_id',
      'reserved_tag_keys.key',
      'reserved_tag_keys.disable_overrides',
      'reserved_tag_keys.created_at',
      'reserved_tag_keys.updated_at',
      'organizations.name as org_name',
    ]);
}

type KeyRow = Awaited<ReturnType<ReturnType<typeof selectKeys>['executeTakeFirstOrThrow']>>;

const toKey = (r: KeyRow): ReservedTagKey => ({
  id: r.id,
  organizationName: r.org_name,
  key: r.key,
  disableOverrides: r.disable_overrides === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const keyTaken = () =>
  new BerthError([
    { status: 422, title: 'invalid attribute', detail: 'Key has already been taken', pointer: '/data/attributes/key' },
  ]);

async function keyHolder(tx: Tx, organizationId: string, key: string): Promise<string | undefined> {
  const row = await tx
    .selectFrom('reserved_tag_keys')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.id;
}

/** The reserved keys of an organization, in creation order: every member may read them. */
export async function listReservedTagKeys(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
): Promise<Paged<ReservedTagKey>> {
  const { row: org } = await readableOrganization(ctx, organization);
  const query = selectKeys(ctx.db).where('reserved_tag_keys.organization_id', '=', org.id);
  const { n } = await ctx.db
    .selectFrom(query.as('k'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('reserved_tag_keys.seq').$call(inPage(page)).execute();
  return { items: rows.map(toKey), total: Number(n), page };
}

/** Reserves a key (owners and the organization token); 422 when the organization already has it. */
export async function createReservedTagKey(
  ctx: ServiceContext,
  organization: string,
  input: ReservedTagKeyInput,
): Promise<ReservedTagKey> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (!can(ctx.actor, 'organization:manage-reserved-tags', facts))
      throw notAuthorized('manage the reserved tag keys of this organization');
    if (await keyHolder(tx, org.id, input.key!)) throw keyTaken();
    const id = newId('rtk');
    const now = ctx.clock.now().toISOString();
    await tx
      .insertInto('reserved_tag_keys')
      .values({
        id,
        organization_id: org.id,
        key: input.key!,
        disable_overrides: input.disableOverrides ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return toKey(await selectKeys(tx).where('reserved_tag_keys.id', '=', id).executeTakeFirstOrThrow());
  });
}

/** The key the actor may manage, else 404 (unknown, unreadable, or not the caller's to manage). */
async function manageableKey(ctx: ServiceContext, tx: Tx, id: string): Promise<KeyRow> {
  const row = await selectKeys(tx).where('reserved_tag_keys.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`reserved tag key ${id} not found`);
  const facts = await orgFacts(tx, ctx.actor, row.organization_id);
  if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`reserved tag key ${id} not found`);
  if (!can(ctx.actor, 'organization:manage-reserved-tags', facts))
    throw notAuthorized('manage the reserved tag keys of this organization');
  return row;
}

export async function updateReservedTagKey(
  ctx: ServiceContext,
  id: string,
  input: ReservedTagKeyInput,
): Promise<ReservedTagKey> {
  return writeTransaction(inOrganizationOf(ctx, 'reserved_tag_keys', id), async (tx) => {
    const row = await manageableKey(ctx, tx, id);
    const changes: { key?: string; disable_overrides?: number; updated_at?: string } = {};
    if (input.key !== undefined && input.key !== row.key) {
      if (await keyHolder(tx, row.organization_id, input.key)) throw keyTaken();
      changes.key = input.key;
    }
    if (input.disableOverrides !== undefined) changes.disable_overrides = input.disableOverrides ? 1 : 0;
    if (Object.keys(changes).length > 0) {
      changes.updated_at = ctx.clock.now().toISOString();
      await tx.updateTable('reserved_tag_keys').set(changes).where('id', '=', row.id).execute();
    }
    return toKey(await selectKeys(tx).where('reserved_tag_keys.id', '=', row.id).executeTakeFirstOrThrow());
  });
}

export async function deleteReservedTagKey(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'reserved_tag_keys', id), async (tx) => {
    const row = await manageableKey(ctx, tx, id);
    await tx.deleteFrom('reserved_tag_keys').where('id', '=', row.id).execute();
  });
}

/**
 * Refuses (422, one error per binding, at `pointer/<i>/attributes/key`) workspace bindings that
 * change the value the workspace's project gives a reserved key whose overrides are disabled.
 */
export async function checkTagOverrides(
  tx: Tx,
  organizationId: string,
  projectId: string,
  bindings: TagBindingInput[],
  pointer: string,
): Promise<void> {
  if (bindings.length === 0) return;
  const locked = await tx
    .selectFrom('reserved_tag_keys')
    .select('key')
    .where('organization_id', '=', organizationId)
    .where('disable_overrides', '=', 1)
    .where(
      'key',
      'in',
      bindings.map((b) => b.key),
    )
    .execute();
  if (locked.length === 0) return;
  const inherited = await tx
    .selectFrom('project_tag_bindings')
    .select(['key', 'value'])
    .where('project_id', '=', projectId)
    .execute();
  const refused = forbiddenOverrides(bindings, inherited, new Set(locked.map((k) => k.key)));
  if (refused.length === 0) return;
  throw new BerthError(
    refused.map(({ index, key }) => ({
      status: 422,
      title: 'invalid attribute',
      detail: `Key ${key} is reserved with overrides disabled: a workspace may not change the value its project gives it`,
      pointer: `${pointer}/${index}/attributes/key`,
    })),
  );
}
