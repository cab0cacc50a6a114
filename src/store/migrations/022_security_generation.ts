import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../kind.js';

/**
 * The tables whose rows decide who a token is and what it may do: `authenticate` reads tokens,
 * users and teams; the access facts (`orgFacts`, `withGrants`) read teams, team_members,
 * team_projects and team_workspaces; organizations own teams and tokens (their deletion cascades
 * to both, which fires those tables' triggers too, but a change of the organization row itself
 * counts as well, so that nothing derived from an organization can outlive a change of it).
 */
export const SECURITY_TABLES = [
  'organizations',
  'users',
  'teams',
  'team_members',
  'tokens',
  'team_projects',
  'team_workspaces',
] as const;

/**
 * The security generation (services/identity/auth-cache.ts): a one-row table whose counter `n` every
 * insert, update and delete of a security table moves on, in the same transaction, by triggers.
 * So every path that writes those tables (services, the CLI in local mode, another `serve`,
 * foreign-key cascades such as a deleted workspace taking its team grants along, copies) moves
 * it, and a cache of authentication and access facts tagged with the generation it was read at
 * is valid exactly while the generation has not moved. `epoch` is random per database: a restore
 * gives it a new one (store/backup.ts), so no generation of another history can match.
 *
 * - SQLite: a row trigger per table and kind of change (foreign-key cascades fire them).
 * - PostgreSQL: one plpgsql function and a row trigger per table. Row triggers, not statement
 *   triggers: a statement that changes no row (a workspace deleted without team grants, whose
 *   cascade to team_workspaces deletes nothing) must not take the counter row's lock, or writes
 *   in different organizations would wait for each other on it. Only real changes of security
 *   rows do, and those are rare (tokens, teams, memberships, grants). The function is bound to
 *   the schema it was created in (`set search_path from current`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('epoch', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('security_generation')
    .values({ id: 1, epoch: randomBytes(8).toString('hex'), n: 0 })
    .execute();
  if (isPostgres(db)) {
    await sql`create function security_generation_bump() returns trigger language plpgsql
      set search_path from current as $$
      begin
        update security_generation set n = n + 1 where id = 1;
        return null;
      end $$`.execute(db);
    for (const table of SECURITY_TABLES) {
      await sql`create trigger ${sql.id(`${table}_security_generation`)}
        after insert or update or delete on ${sql.table(table)}
        for each row execute function security_generation_bump()`.execute(db);
    }
    return;
  }
  for (const table of SECURITY_TABLES) {
    for (const change of ['insert', 'update', 'delete'] as const) {
      await sql`create trigger ${sql.id(`${table}_security_generation_${change}`)}
        after ${sql.raw(change)} on ${sql.table(table)}
        begin update security_generation set n = n + 1 where id = 1; end`.execute(db);
    }
  }
}
