import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../kind.js';

/**
 * How many workspaces each project holds, kept by triggers on `workspaces` in the same
 * transaction as every change of them (creates, deletes, moves to another project, and the
 * cascades of an organization's deletion), whichever path makes it: services, the CLI in local
 * mode, another `serve`, a copy. A workspace list's total and a project's `workspace-count` were
 * counted from indexes each time: at 10,000 workspaces in a project, 0.3 to 0.7 ms per list page
 * or project document, ten times that at 100,000. An organization's total is the sum of its
 * projects' rows.
 *
 * A project without workspaces may have no row (read as 0). The row goes with its project
 * (`on delete cascade`); a project is only deleted once it holds no workspace, or with its
 * organization, whose workspaces go in the same statement.
 *
 * - SQLite: three triggers (insert, delete, and an update that changes the project).
 * - PostgreSQL: one plpgsql function and a row trigger. A project's row is only written by
 *   transactions that change that project's workspaces, which hold their organization's write
 *   lock: writes in different organizations never wait on one counter. The function is bound to
 *   the schema it was created in (`set search_path from current`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspace_counts')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workspace_counts_org').on('workspace_counts').column('organization_id').execute();
  await sql`insert into workspace_counts (project_id, organization_id, n)
    select project_id, organization_id, count(*) from workspaces group by project_id, organization_id`.execute(db);

  const add = (ref: 'new') =>
    sql`insert into workspace_counts (project_id, organization_id, n)
      values (${sql.raw(ref)}.project_id, ${sql.raw(ref)}.organization_id, 1)
      on conflict (project_id) do update set n = workspace_counts.n + 1`;
  const remove = (ref: 'old') =>
    sql`update workspace_counts set n = n - 1 where project_id = ${sql.raw(ref)}.project_id`;

  if (isPostgres(db)) {
    await sql`create function workspace_counts_keep() returns trigger language plpgsql
      set search_path from current as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${remove('old')}; end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add('new')}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger workspaces_counts_insert_delete after insert or delete on workspaces
      for each row execute function workspace_counts_keep()`.execute(db);
    await sql`create trigger workspaces_counts_move after update of project_id on workspaces
      for each row when (old.project_id is distinct from new.project_id)
      execute function workspace_counts_keep()`.execute(db);
    return;
  }
  await sql`create trigger workspaces_counts_insert after insert on workspaces
    begin ${add('new')}; end`.execute(db);
  await sql`create trigger workspaces_counts_delete after delete on workspaces
    begin ${remove('old')}; end`.execute(db);
  await sql`create trigger workspaces_counts_move after update of project_id on workspaces
    when old.project_id is not new.project_id
    begin ${remove('old')}; ${add('new')}; end`.execute(db);
}
