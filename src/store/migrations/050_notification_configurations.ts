import type { Kysely } from 'kysely';

/**
 * Notification configurations (issue 45, item 2): HCP Terraform's notification configurations of
 * a workspace or a team (`subscribable`), and the outbox of their deliveries.
 * - `notification_configurations`: one row per configuration, with the organization it belongs to
 *   (for permissions and write scopes), its workspace or its team (exactly one of them; deleting
 *   either deletes the configuration), its destination (`generic`, `slack`, `microsoft-teams`,
 *   `email`), its URL and HMAC token (write-only), its triggers and email addresses (JSON arrays)
 *   and its latest delivery response (`delivery_responses`, a JSON array, as the API shows it).
 * - `notification_configuration_users`: the organization's users an `email` configuration mails
 *   (the `users` relationship), in the order given.
 * - `notification_deliveries`: the outbox. A run's move (or an assessment's result, or an
 *   auto-destroy's) inserts one row per configuration it triggers, in the transaction of that
 *   move, with the payload's facts frozen at that moment; `berth serve`'s deliverer
 *   (src/scheduler/notification-deliverer.ts) sends the rows whose `next_attempt_at` has come,
 *   claiming each with `claimed_until` (a conditional update: one instance sends it), and deletes
 *   a row once it is delivered, skipped or out of attempts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_configurations')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('destination_type', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('token', 'text')
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('email_addresses', 'text', (c) => c.notNull())
    .addColumn('delivery_responses', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_configurations_workspace')
    .on('notification_configurations')
    .columns(['workspace_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('notification_configurations_team')
    .on('notification_configurations')
    .columns(['team_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('notification_configurations_organization')
    .on('notification_configurations')
    .column('organization_id')
    .execute();
  await db.schema
    .createTable('notification_configuration_users')
    .addColumn('configuration_id', 'text', (c) =>
      c.notNull().references('notification_configurations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_configuration_users_pk', ['configuration_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('notification_configuration_users_user')
    .on('notification_configuration_users')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('configuration_id', 'text', (c) =>
      c.notNull().references('notification_configurations.id').onDelete('cascade'),
    )
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['next_attempt_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_configuration')
    .on('notification_deliveries')
    .column('configuration_id')
    .execute();
}
