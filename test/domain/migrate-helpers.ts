import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

/** An in-memory SQLite database with berth's migrations applied up to `version` only. */
export async function sqliteFreshUpTo(version: number): Promise<Kysely<any>> {
  const sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= version),
  );
  return db;
}

/**
 * Seeds what most migration tests start from: organization `org-1` (acme), the projects of
 * `projects` (ids), and the workspaces of `workspaces` (ids, named after them) in `projectId`.
 * Only the columns every schema since migration 011 requires.
 */
export async function seedOrganization(
  db: Kysely<any>,
  { projects, workspaces, projectId = projects[0] }: { projects: string[]; workspaces: string[]; projectId?: string },
): Promise<void> {
  await db.insertInto('organizations').values({ id: 'org-1', name: 'acme', email: 'a@x', created_at: 'now' }).execute();
  await db
    .insertInto('projects')
    .values(projects.map((id) => ({ id, organization_id: 'org-1', name: id, name_lower: id, created_at: 'now' })))
    .execute();
  if (workspaces.length === 0) return;
  await db
    .insertInto('workspaces')
    .values(
      workspaces.map((id) => ({
        id,
        organization_id: 'org-1',
        project_id: projectId,
        name: id,
        name_lower: id,
        terraform_version: '1',
        latest_change_at: 'now',
        created_at: 'now',
        updated_at: 'now',
      })),
    )
    .execute();
}
