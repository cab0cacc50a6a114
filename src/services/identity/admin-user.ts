import type { Kysely } from 'kysely';
import type { Actor } from '../../domain/permissions/actor.js';
import { newId } from '../../domain/common/ids.js';
import { freeUsername } from '../../domain/identity/user.js';
import { memoQuery } from '../../store/memo-query.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { LIMIT_ONE } from '../../store/literal-limit.js';

export const ADMIN_USERNAME = 'admin';

interface AdminRow {
  id: string;
  username: string;
}

/** The oldest site-administrator user: the one serve's first token and local mode act as. */
const firstAdmin = memoQuery((db, p: { yes: number }) =>
  db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('site_admin', '=', p.yes)
    .orderBy('created_at')
    .orderBy('id')
    .limit(LIMIT_ONE),
);

/** Usernames that would clash with the admin's name (`admin`, `admin-2`, ...). */
async function takenAdminNames(tx: Tx): Promise<Set<string>> {
  const rows = await tx
    .selectFrom('users')
    .select('username')
    .where('username', 'like', `${ADMIN_USERNAME}%`)
    .execute();
  return new Set(rows.map((r) => r.username));
}

/**
 * The oldest site-administrator user, created (as `admin`, or `admin-2`... when that name is
 * taken by someone else) when the instance has none. Call inside a write transaction.
 */
export async function ensureAdminUser(tx: Tx, now: string): Promise<AdminRow> {
  const found = await firstAdmin.first(tx, { yes: 1 });
  if (found) return found;
  const row = {
    id: newId('user'),
    username: freeUsername(ADMIN_USERNAME, await takenAdminNames(tx)),
    site_admin: 1,
    created_at: now,
    email: '',
  };
  row.email = `${row.username}@localhost`;
  await tx.insertInto('users').values(row).execute();
  return { id: row.id, username: row.username };
}

/**
 * Who local mode (no token, the operator of the database file) acts as: the site-administrator
 * user `admin`, created at first use. A read when it exists; a write only the first time.
 */
export async function localAdminActor(db: Kysely<DB>, now: Date): Promise<Actor> {
  const admin =
    (await firstAdmin.first(db, { yes: 1 })) ??
    (await writeTransaction(db, (tx) => ensureAdminUser(tx, now.toISOString())));
  return { kind: 'user', tokenId: null, userId: admin.id, username: admin.username, siteAdmin: true };
}
