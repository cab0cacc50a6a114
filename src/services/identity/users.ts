import { BerthError, conflict, forbidden, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { canOnInstance } from '../../domain/permissions/policy.js';
import {
  PENDING_USERNAME_LIKE,
  shownUsername,
  type User,
  type UserInput,
  type UserView,
} from '../../domain/identity/user.js';
import { containsInsensitive } from '../../store/like.js';
import type { UsersTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inPage, LIMIT_ONE } from '../../store/literal-limit.js';
import { plural } from '../../domain/common/plural.js';

function toUser(row: UsersTable): User {
  return {
    id: row.id,
    username: shownUsername(row.username),
    email: row.email,
    isSiteAdmin: row.site_admin === 1,
    createdAt: row.created_at,
  };
}

function requireAdmin(ctx: ServiceContext): void {
  if (!canOnInstance(ctx.actor, 'instance:manage-users')) throw notFound();
}

export async function createUser(ctx: ServiceContext, input: UserInput): Promise<User> {
  requireAdmin(ctx);
  const row: UsersTable = {
    id: newId('user'),
    username: input.username,
    email: input.email,
    site_admin: input.isSiteAdmin ? 1 : 0,
    created_at: ctx.clock.now().toISOString(),
  };
  await writeTransaction(ctx, async (tx) => {
    const taken = await tx.selectFrom('users').select('id').where('username', '=', input.username).executeTakeFirst();
    if (taken) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'Username has already been taken',
          pointer: '/data/attributes/username',
        },
      ]);
    }
    // A person invited before they had an account: their invitations' placeholder (the oldest
    // with this email, compared without case) becomes their user, so the pending invitations
    // are theirs to accept.
    const placeholder = await tx
      .selectFrom('users')
      .select('id')
      .where('username', 'like', PENDING_USERNAME_LIKE)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase()))
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    if (placeholder) {
      row.id = placeholder.id;
      await tx
        .updateTable('users')
        .set({ username: row.username, email: row.email, site_admin: row.site_admin, created_at: row.created_at })
        .where('id', '=', placeholder.id)
        .execute();
    } else await tx.insertInto('users').values(row).execute();
  });
  return toUser(row);
}

/**
 * The users of the instance: every row of `users` but the placeholders of invitations to emails
 * nobody has an account for (domain/identity/user.ts, `pendingUsername`). A placeholder is no user: it is
 * not listed, counted, searched, found by id, deleted or given a token; only its invitations
 * show it, as the email they were sent to.
 */
export function accounts(db: Tx) {
  return db.selectFrom('users').where('username', 'not like', PENDING_USERNAME_LIKE);
}

export async function listUsers(ctx: ServiceContext, page: PageRequest, q?: string): Promise<Paged<User>> {
  requireAdmin(ctx);
  let query = accounts(ctx.db);
  if (q) {
    query = query.where((eb) => eb.or([containsInsensitive('username', q), containsInsensitive('email', q)]));
  }
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('username').$call(inPage(page)).execute();
  return { items: rows.map(toUser), total: Number(n), page };
}

/** A user by id: the user itself or a site administrator may read it. */
export async function getUser(ctx: ServiceContext, id: string): Promise<User> {
  const self = ctx.actor.kind === 'user' && ctx.actor.userId === id;
  if (!self && !canOnInstance(ctx.actor, 'instance:manage-users')) throw notFound();
  const row = await accounts(ctx.db).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`user ${id} not found`);
  return toUser(row);
}

/** Whether the caller may see the user's details (email, account settings): itself or a site administrator. */
export function seesUserDetails(ctx: ServiceContext, id: string): boolean {
  return (ctx.actor.kind === 'user' && ctx.actor.userId === id) || canOnInstance(ctx.actor, 'instance:manage-users');
}

/**
 * Whether the user is an active member of an organization the caller belongs to (a user's active
 * membership, or a team or organization token's organization).
 */
async function sharesOrganization(ctx: ServiceContext, id: string): Promise<boolean> {
  const a = ctx.actor;
  let query = ctx.db
    .selectFrom('organization_memberships as target')
    .select('target.id')
    .where('target.user_id', '=', id)
    .where('target.status', '=', 'active');
  switch (a.kind) {
    case 'user':
      query = query
        .innerJoin('organization_memberships as mine', 'mine.organization_id', 'target.organization_id')
        .where('mine.user_id', '=', a.userId)
        .where('mine.status', '=', 'active');
      break;
    case 'team':
    case 'organization':
      query = query.where('target.organization_id', '=', a.organizationId);
      break;
    default:
      return false;
  }
  return (await query.limit(LIMIT_ONE).executeTakeFirst()) !== undefined;
}

/**
 * `GET /users/:id`: the user itself and site administrators see it all; a caller that shares an
 * organization with the user sees its public face (username, avatar), as HCP Terraform shows users
 * to the people they work with; anyone else gets 404.
 */
export async function showUser(ctx: ServiceContext, id: string): Promise<UserView> {
  const details = seesUserDetails(ctx, id);
  if (!details && !(await sharesOrganization(ctx, id))) throw notFound(`user ${id} not found`);
  const row = await accounts(ctx.db).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`user ${id} not found`);
  return { user: toUser(row), details };
}

/**
 * Users by id, in username order, with no permission check: for documents that include the users
 * of something the caller was allowed to see (a team's members, an organization's memberships).
 */
export async function usersByIds(db: Tx, ids: string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await accounts(db)
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('username')
    .execute();
  return rows.map(toUser);
}

export async function deleteUser(ctx: ServiceContext, id: string): Promise<void> {
  requireAdmin(ctx);
  if (ctx.actor.kind === 'user' && ctx.actor.userId === id) throw forbidden('you cannot delete yourself');
  // The 404 is thrown inside the transaction: a request that fails must commit nothing (its
  // audit record rides on the commit).
  await writeTransaction(ctx, async (tx) => {
    // A user who holds workspace locks is not deleted: the locks would name someone who no longer
    // exists and could only be force-unlocked. The site administrator releases them first.
    const held = await tx
      .selectFrom('workspaces')
      .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
      .select(['workspaces.name as workspace', 'organizations.name as organization'])
      .where('workspaces.locked', '=', 1)
      .where('workspaces.locked_by_kind', '=', 'users')
      .where('workspaces.locked_by_id', '=', id)
      .orderBy('organizations.name')
      .orderBy('workspaces.name')
      .execute();
    if (held.length > 0) {
      const names = held.map((w) => `${w.organization}/${w.workspace}`);
      throw conflict(
        `user ${id} holds the lock of ${plural(held.length, 'workspace')}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}; unlock them (force-unlock) before deleting the user`,
      );
    }
    // An invitation's placeholder is no user to delete (deleting its invitations removes it).
    const result = await tx
      .deleteFrom('users')
      .where('id', '=', id)
      .where('username', 'not like', PENDING_USERNAME_LIKE)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(`user ${id} not found`);
  });
}
