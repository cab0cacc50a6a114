import type { Kysely } from 'kysely';

/**
 * Self-hosted berth now gives a workspace created without `global-remote-state` Terraform
 * Enterprise's default, true (services/instance/general-settings.ts), where it gave false. A
 * database that already holds organizations keeps what it had: unless a site administrator chose,
 * the choice `false` is stored, so that nothing an operator set up starts sharing every new
 * workspace's state with the whole organization after an upgrade. A new database takes the new
 * default (`berth admin settings set --default-remote-state-access` chooses either way).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const chosen = await db
    .selectFrom('settings')
    .select('key')
    .where('key', '=', 'default-remote-state-access')
    .executeTakeFirst();
  const used = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  if (chosen || !used) return;
  await db.insertInto('settings').values({ key: 'default-remote-state-access', value: 'false' }).execute();
}
