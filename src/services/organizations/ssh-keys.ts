import { sql } from 'kysely';
import { invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import type { SshKey, SshKeyInput } from '../../domain/organizations/ssh-key.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from './organizations.js';
import { getWorkspace, readableWorkspace, type WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inOrganizationNamed, inOrganizationOf, inWorkspaceOrganization } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

interface KeyRow {
  id: string;
  organization_id: string;
  org_name: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Never selects the key text: it is write-only. */
function selectKeys(db: Tx) {
  return db
    .selectFrom('ssh_keys')
    .innerJoin('organizations', 'organizations.id', 'ssh_keys.organization_id')
    .select([
      'ssh_keys.id',
      'ssh_keys.organization_id',
      'organizations.name as org_name',
      'ssh_keys.name',
      'ssh_keys.created_at',
      'ssh_keys.updated_at',
    ]);
}

const toKey = (r: KeyRow): SshKey => ({
  id: r.id,
  organizationName: r.org_name,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The key the actor may see (a member of its organization), else 404. */
async function readableKey(ctx: ServiceContext, id: string, db: Tx): Promise<{ row: KeyRow; facts: OrgFacts }> {
  const row = await selectKeys(db).where('ssh_keys.id', '=', id).executeTakeFirst();
  const missing = () => notFound(`SSH key ${id} not found`);
  if (!row) throw missing();
  const facts = await orgFacts(db, ctx.actor, row.organization_id);
  if (!can(ctx.actor, 'organization:read', facts)) throw missing();
  return { row, facts };
}

function requireManage(ctx: ServiceContext, facts: OrgFacts): void {
  if (!can(ctx.actor, 'organization:manage-ssh-keys', facts))
    throw notAuthorized('manage the SSH keys of this organization');
}

/**
 * Names are unique in an organization regardless of case (the CLI finds keys by name): another
 * key with this name is a 422 at the name.
 */
async function refuseTakenName(tx: Tx, organizationId: string, name: string, exceptId?: string): Promise<void> {
  let query = tx
    .selectFrom('ssh_keys')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(${sql.ref('ssh_keys.name')})`, '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw invalid('/data/attributes/name', 'Name has already been taken');
}

export async function createSshKey(ctx: ServiceContext, organization: string, input: SshKeyInput): Promise<SshKey> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    requireManage(ctx, facts);
    await refuseTakenName(tx, org.id, input.name!);
    const now = ctx.clock.now().toISOString();
    const id = newId('sshkey');
    await tx
      .insertInto('ssh_keys')
      .values({ id, organization_id: org.id, name: input.name!, value: input.value!, created_at: now, updated_at: now })
      .execute();
    return toKey(await selectKeys(tx).where('ssh_keys.id', '=', id).executeTakeFirstOrThrow());
  });
}

/** The keys of an organization, in creation order; members of the organization may list them. */
export async function listSshKeys(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
): Promise<Paged<SshKey>> {
  const { row: org } = await readableOrganization(ctx, organization);
  const q = selectKeys(ctx.db).where('ssh_keys.organization_id', '=', org.id);
  const { n } = await ctx.db
    .selectFrom('ssh_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', org.id)
    .executeTakeFirstOrThrow();
  const rows = await q.orderBy('ssh_keys.seq').$call(inPage(page)).execute();
  return { items: rows.map(toKey), total: Number(n), page };
}

export async function getSshKey(ctx: ServiceContext, id: string): Promise<SshKey> {
  return toKey((await readableKey(ctx, id, ctx.db)).row);
}

export async function updateSshKey(ctx: ServiceContext, id: string, input: SshKeyInput): Promise<SshKey> {
  return writeTransaction(inOrganizationOf(ctx, 'ssh_keys', id), async (tx) => {
    const { row, facts } = await readableKey(ctx, id, tx);
    requireManage(ctx, facts);
    if (input.name !== undefined) await refuseTakenName(tx, row.organization_id, input.name, id);
    const changes: { name?: string; value?: string; updated_at: string } = {
      updated_at: ctx.clock.now().toISOString(),
    };
    if (input.name !== undefined) changes.name = input.name;
    if (input.value !== undefined) changes.value = input.value;
    await tx.updateTable('ssh_keys').set(changes).where('id', '=', id).execute();
    return toKey((await readableKey(ctx, id, tx)).row);
  });
}

/** Deletes the key; the foreign key unassigns it from every workspace that used it. */
export async function deleteSshKey(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'ssh_keys', id), async (tx) => {
    const { facts } = await readableKey(ctx, id, tx);
    requireManage(ctx, facts);
    await tx.deleteFrom('ssh_keys').where('id', '=', id).execute();
  });
}

/**
 * Assigns a key of the workspace's organization to it (null unassigns). Workspace admins only
 * (404 for readers, like an unknown workspace). A key that is unknown or belongs to another organization is a 404.
 */
export async function assignSshKey(ctx: ServiceContext, ref: WorkspaceRef, keyId: string | null): Promise<Workspace> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:update', facts)) throw notAuthorized('change the SSH key of this workspace');
    if (keyId !== null) {
      const key = await tx
        .selectFrom('ssh_keys')
        .select('id')
        .where('id', '=', keyId)
        .where('organization_id', '=', row.organization_id)
        .executeTakeFirst();
      if (!key) throw notFound(`SSH key ${keyId} not found in this organization`);
    }
    await tx
      .updateTable('workspaces')
      .set({ ssh_key_id: keyId, updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', row.id)
      .execute();
    return getWorkspace(ctx, { id: row.id }, tx);
  });
}
