import type { Kysely } from 'kysely';

/**
 * The private module registry (issue 44, item 1: HCP's Private Registry Modules API and the module
 * registry protocol).
 * - `registry_modules`: one row per module and provider of an organization's registry. A private
 *   module's namespace is its organization's name, read from the organization (so a rename moves
 *   it): `namespace` is '' for them; a public module (a reference to a module of the public
 *   registry, HCP's "registry-name public") keeps the namespace it was given. Unique by
 *   organization, registry name, namespace, name and provider.
 * - `registry_module_versions`: its versions, `pending` until the archive is uploaded, `ok` after;
 *   unique by module and version.
 * - `registry_module_files`: the archive of a version (a tar.gz, one row, bounded in size by the
 *   upload route, as `configuration_files`).
 * Everything goes with its organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('registry_modules')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('registry_name', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('no_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('registry_modules_address')
    .on('registry_modules')
    .columns(['organization_id', 'registry_name', 'namespace', 'name', 'provider'])
    .unique()
    .execute();

  await db.schema
    .createTable('registry_module_versions')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('module_id', 'text', (c) => c.notNull().references('registry_modules.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_kind', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .execute();
  await db.schema
    .createIndex('registry_module_versions_version')
    .on('registry_module_versions')
    .columns(['module_id', 'version'])
    .unique()
    .execute();

  await db.schema
    .createTable('registry_module_files')
    .addColumn('version_id', 'text', (c) =>
      c.primaryKey().references('registry_module_versions.id').onDelete('cascade'),
    )
    .addColumn('body', 'blob', (c) => c.notNull())
    .execute();
}
