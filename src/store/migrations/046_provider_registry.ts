import type { Kysely } from 'kysely';

/**
 * The private provider registry and the provider network mirror (issue 44, items 2 and 3).
 * - `registry_archives` and `registry_archive_chunks`: the bytes of provider packages (zip
 *   archives), a megabyte per chunk, so that an upload and a download stream them through
 *   bounded memory on either engine. `complete` is 0 while an upload writes its chunks.
 * - `registry_gpg_keys`: the public keys that sign providers' SHA256SUMS, per organization
 *   (HCP's namespace); `key_id` is the key's 16 hex digits.
 * - `registry_providers`, `registry_provider_versions` (with the SHA256SUMS file and its
 *   signature, small) and `registry_provider_platforms` (one archive each).
 * - `mirror_archives`: the packages of other registries pushed into an organization's mirror.
 * Everything goes with its organization; archives are removed by the code that removes what
 * points at them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('registry_archives')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text')
    .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registry_archives_org').on('registry_archives').column('organization_id').execute();
  await db.schema
    .createTable('registry_archive_chunks')
    .addColumn('archive_id', 'text', (c) => c.notNull().references('registry_archives.id').onDelete('cascade'))
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('body', 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('registry_archive_chunks_pkey', ['archive_id', 'part'])
    .execute();

  await db.schema
    .createTable('registry_gpg_keys')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('ascii_armor', 'text', (c) => c.notNull())
    .addColumn('trust_signature', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('registry_gpg_keys_org_key', ['organization_id', 'key_id'])
    .execute();

  await db.schema
    .createTable('registry_providers')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('registry_name', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('registry_providers_address', ['organization_id', 'registry_name', 'namespace', 'name'])
    .execute();

  await db.schema
    .createTable('registry_provider_versions')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('provider_id', 'text', (c) => c.notNull().references('registry_providers.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('protocols', 'text', (c) => c.notNull())
    .addColumn('shasums', 'blob')
    .addColumn('shasums_sig', 'blob')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('registry_provider_versions_version', ['provider_id', 'version'])
    .execute();

  await db.schema
    .createTable('registry_provider_platforms')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('version_id', 'text', (c) => c.notNull().references('registry_provider_versions.id').onDelete('cascade'))
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('arch', 'text', (c) => c.notNull())
    .addColumn('shasum', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('archive_id', 'text', (c) => c.references('registry_archives.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('registry_provider_platforms_platform', ['version_id', 'os', 'arch'])
    .execute();

  await db.schema
    .createTable('mirror_archives')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('arch', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('hashes', 'text', (c) => c.notNull())
    .addColumn('archive_id', 'text', (c) => c.notNull().references('registry_archives.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('mirror_archives_platform', [
      'organization_id',
      'hostname',
      'namespace',
      'type',
      'version',
      'os',
      'arch',
    ])
    .execute();
}
