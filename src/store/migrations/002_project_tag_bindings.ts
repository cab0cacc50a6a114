import type { Kysely } from 'kysely';

/** Key-value tag bindings set directly on a project (inherited by its workspaces). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_tag_bindings')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_tag_bindings_key', ['project_id', 'key'])
    .execute();
  await db.schema
    .createIndex('project_tag_bindings_key_value')
    .on('project_tag_bindings')
    .columns(['key', 'value'])
    .execute();
}
