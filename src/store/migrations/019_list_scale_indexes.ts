import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../kind.js';

/**
 * Indexes for workspace lists at 100,000 workspaces (bench/list-scale.mjs): one for the
 * current-run order, and a substring index of workspace names for `search[name]` and
 * `search[wildcard-name]` (store/name-search.ts tells how the services use it). Before it, a name
 * search read every name of the organization: `search[name]=svc17-` (505 matches) took 26 ms at
 * 100,000 workspaces, 19 times its time at 1,000.
 *
 * - SQLite: an FTS5 table of the trigrams of `name_lower`, its rowid the workspace's `seq`, its
 *   text read from `workspaces` itself (external content: nothing stored twice), kept in step by
 *   triggers, so that every path that writes workspaces (services, copies, restores, cascades)
 *   keeps it right. `case_sensitive 0`: the index folds case like LIKE does, so whatever LIKE
 *   matches, the index holds. `detail=none`: only which rows hold a trigram, the smallest form
 *   (3.4 MB at 100,000 names); the LIKE checks each candidate. Filled from the existing rows.
 * - PostgreSQL: pg_trgm's GIN operator class on `name_lower` (LIKE `%...%` uses it). pg_trgm is
 *   a trusted extension (creatable by a database owner); it goes into the `public` schema, so
 *   that one installation serves every schema of the database, or the current schema if that
 *   fails. Where the extension cannot be created at all, the index is left out and name searches
 *   scan as before: same answers, slower at scale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // sort=current-run.created-at: the workspaces with a current run in that order, from an index
  // (services/workspaces/workspaces-by-run-order.ts), instead of sorting the organization (100,000: 80 ms).
  await db.schema
    .createIndex('workspaces_org_current_run')
    .on('workspaces')
    .columns(['organization_id', 'current_run_created_at'])
    .execute();
  if (isPostgres(db)) return trigramIndexOnPostgres(db);
  await sql`create virtual table workspace_name_trigrams using fts5(name_lower, content='workspaces',
    content_rowid='seq', tokenize='trigram case_sensitive 0', detail=none)`.execute(db);
  await sql`create trigger workspace_name_trigrams_insert after insert on workspaces begin
    insert into workspace_name_trigrams (rowid, name_lower) values (new.seq, new.name_lower);
  end`.execute(db);
  await sql`create trigger workspace_name_trigrams_delete after delete on workspaces begin
    insert into workspace_name_trigrams (workspace_name_trigrams, rowid, name_lower) values ('delete', old.seq, old.name_lower);
  end`.execute(db);
  await sql`create trigger workspace_name_trigrams_update after update of name_lower on workspaces begin
    insert into workspace_name_trigrams (workspace_name_trigrams, rowid, name_lower) values ('delete', old.seq, old.name_lower);
    insert into workspace_name_trigrams (rowid, name_lower) values (new.seq, new.name_lower);
  end`.execute(db);
  await sql`insert into workspace_name_trigrams (workspace_name_trigrams) values ('rebuild')`.execute(db);
  // One b-tree segment per trigram instead of the several a rebuild leaves: an AND of trigrams
  // then skips through each list (at 100,000 names, 1.1 ms instead of 4.7 to 7 ms).
  await sql`insert into workspace_name_trigrams (workspace_name_trigrams) values ('optimize')`.execute(db);
}

/** Tries `statement` inside a savepoint: false (and the transaction unharmed) if it fails. */
async function attempt(db: Kysely<any>, statement: ReturnType<typeof sql>): Promise<boolean> {
  await sql`savepoint berth_019`.execute(db);
  try {
    await statement.execute(db);
    await sql`release savepoint berth_019`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint berth_019`.execute(db);
    await sql`release savepoint berth_019`.execute(db);
    return false;
  }
}

async function trigramIndexOnPostgres(db: Kysely<any>): Promise<void> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  let schema = await installed();
  if (schema === undefined) {
    // Another instance or test may be creating it at the same moment: whoever fails looks again.
    if (!(await attempt(db, sql`create extension if not exists pg_trgm with schema public`)))
      await attempt(db, sql`create extension if not exists pg_trgm`);
    schema = await installed();
  }
  if (schema === undefined) return;
  await sql`create index workspaces_name_trigram on workspaces using gin (name_lower ${sql.id(schema, 'gin_trgm_ops')})`.execute(
    db,
  );
}
