import type { UserView } from '../../domain/identity/user.js';
import type { ServiceContext } from '../context.js';
import { showUser } from '../identity/users.js';
import { readableRunRow } from './run-rows.js';

/**
 * The user who created a run (`include=created_by`): a run records the token it was created with;
 * a user token names its user. Null when a team or organization token (or no token) created it, or
 * when the caller may not see that user (as `GET /users/:id` decides).
 */
export async function runCreator(ctx: ServiceContext, runId: string): Promise<UserView | null> {
  const { row } = await readableRunRow(ctx, ctx.db, runId);
  if (row.created_by_kind !== 'user' || !row.created_by_id) return null;
  const token = await ctx.db
    .selectFrom('tokens')
    .select('user_id')
    .where('id', '=', row.created_by_id)
    .executeTakeFirst();
  if (!token?.user_id) return null;
  return showUser(ctx, token.user_id).catch(() => null);
}
