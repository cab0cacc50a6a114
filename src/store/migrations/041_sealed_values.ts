import { sql, type Kysely } from 'kysely';

/**
 * Sensitive variable values encrypted at rest (issue 42). `sealed` = 1: `value` holds the
 * ciphertext of the value (store/secrets/cipher.ts), never the value itself; 0: `value` is the
 * value. Every row keeps 0 here: the key is not in the database, so migrations cannot encrypt;
 * the first start with a key seals the sensitive values an earlier berth stored in clear
 * (store/secrets/attach.ts), found through the partial index, which a start asks every time and
 * which stays empty once they are sealed. The id of the key (never the key) goes in `settings`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['workspace_variables', 'varset_variables']) {
    await db.schema
      .alterTable(table)
      .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex(`${table}_clear_sensitive`)
      .on(table)
      .column('seq')
      .where(sql<boolean>`sensitive = 1 and sealed = 0`)
      .execute();
  }
}
