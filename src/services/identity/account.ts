import { BerthError, notFound } from '../../domain/common/errors.js';
import type { AccountInput, User } from '../../domain/identity/user.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { getUser } from './users.js';

/**
 * Who `GET /account/details` describes: the user behind a user token, or, for a team or an
 * organization token, a service user standing for that team or organization (as HCP Terraform
 * answers), with the team or organization as its `authenticated-resource`.
 */
export type Account =
  | { kind: 'user'; user: User }
  | { kind: 'service'; id: string; username: string; resource: { type: 'teams' | 'organizations'; id: string } };

export async function currentAccount(ctx: ServiceContext): Promise<Account> {
  const a = ctx.actor;
  switch (a.kind) {
    case 'user':
      return { kind: 'user', user: await getUser(ctx, a.userId) };
    case 'team':
      return {
        kind: 'service',
        id: a.teamId,
        username: `api-team-${a.teamId}`,
        resource: { type: 'teams', id: a.teamId },
      };
    case 'organization': {
      const org = await ctx.db
        .selectFrom('organizations')
        .select('name')
        .where('id', '=', a.organizationId)
        .executeTakeFirst();
      if (!org) throw notFound('no account for this token');
      return {
        kind: 'service',
        id: a.organizationId,
        username: `api-org-${org.name}`,
        resource: { type: 'organizations', id: org.name },
      };
    }
    case 'site-admin':
    case 'audit-trail':
    case 'run':
      throw notFound('no account for this token');
  }
}

/**
 * A user changes their own username or email. Team and organization tokens have no account to
 * change (404). A username taken by another user is a 422.
 */
export async function updateAccount(ctx: ServiceContext, input: AccountInput): Promise<User> {
  const a = ctx.actor;
  if (a.kind !== 'user') throw notFound('no account for this token');
  await writeTransaction(ctx, async (tx) => {
    if (input.username !== undefined) {
      const taken = await tx
        .selectFrom('users')
        .select('id')
        .where('username', '=', input.username)
        .where('id', '!=', a.userId)
        .executeTakeFirst();
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
    }
    const changes: { username?: string; email?: string } = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    if (Object.keys(changes).length > 0)
      await tx.updateTable('users').set(changes).where('id', '=', a.userId).execute();
  });
  return getUser(ctx, a.userId);
}
