import type { Selectable } from 'kysely';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import type {
  DeliveryResponse,
  DestinationType,
  NotificationConfiguration,
  Subscribable,
} from '../../domain/notifications/notification-configuration.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import type { NotificationConfigurationsTable } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { requireManage, visibleTeam } from '../teams/teams.js';
import { readableWorkspace } from '../workspaces/workspaces-read.js';

/**
 * What the notification services share: rows to configurations, who may see and change one (a
 * workspace's: its admins, as HCP; a team's: who manages teams), and the emails a configuration
 * mails.
 */

export type ConfigurationRow = Selectable<NotificationConfigurationsTable>;

const jsonList = <T>(text: string): T[] => {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
};

export const subscribableOf = (row: ConfigurationRow): Subscribable =>
  row.team_id !== null ? { type: 'teams', id: row.team_id } : { type: 'workspaces', id: row.workspace_id! };

export async function emailUserIdsOf(db: Tx, configurationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_configuration_users')
    .select('user_id')
    .where('configuration_id', '=', configurationId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.user_id);
}

export async function toConfiguration(db: Tx, row: ConfigurationRow): Promise<NotificationConfiguration> {
  return {
    id: row.id,
    name: row.name,
    destinationType: row.destination_type as DestinationType,
    enabled: row.enabled === 1,
    url: row.url,
    triggers: jsonList<string>(row.triggers),
    emailAddresses: jsonList<string>(row.email_addresses),
    emailUserIds: await emailUserIdsOf(db, row.id),
    deliveryResponses: jsonList<DeliveryResponse>(row.delivery_responses),
    subscribable: subscribableOf(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The subscribable a caller may manage the configurations of: its organization and facts, else 404. */
export async function manageableSubscribable(
  ctx: ServiceContext,
  db: Tx,
  s: Subscribable,
): Promise<{ organizationId: string; organizationName: string; facts: OrgFacts }> {
  if (s.type === 'workspaces') {
    const { row, facts } = await readableWorkspace(ctx, { id: s.id }, db);
    // HCP: "Interacting with notification configurations requires admin access to the relevant workspace."
    if (!can(ctx.actor, 'workspace:update', facts))
      throw notAuthorized('manage the notification configurations of this workspace (workspace admins only)');
    return { organizationId: row.organization_id, organizationName: row.org_name, facts };
  }
  const { row, facts, orgName } = await visibleTeam(ctx, db, s.id);
  requireManage(ctx, facts);
  return { organizationId: row.organization_id, organizationName: orgName, facts };
}

/** The configuration, if the caller may manage its subscribable; else the 404 of an unknown one. */
export async function manageableConfiguration(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('notification_configurations').selectAll().where('id', '=', id).executeTakeFirst();
  const missing = () => notFound(`notification configuration ${id} not found`);
  if (!row) throw missing();
  const owner = await manageableSubscribable(ctx, db, subscribableOf(row)).catch(() => {
    throw missing();
  });
  return { row, ...owner };
}

/**
 * The addresses an email configuration mails: its users who are (active) members of its
 * organization, then its email addresses; a team's configuration without users mails the
 * team's members (HCP's rule).
 */
export async function recipientsOf(db: Tx, row: ConfigurationRow): Promise<string[]> {
  let users = await db
    .selectFrom('notification_configuration_users')
    .innerJoin('users', 'users.id', 'notification_configuration_users.user_id')
    .innerJoin('organization_memberships', (j) =>
      j
        .onRef('organization_memberships.user_id', '=', 'users.id')
        .on('organization_memberships.organization_id', '=', row.organization_id),
    )
    .select('users.email')
    .where('notification_configuration_users.configuration_id', '=', row.id)
    .where('organization_memberships.status', '=', 'active')
    .orderBy('notification_configuration_users.position')
    .execute();
  if (users.length === 0 && row.team_id !== null)
    users = await db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select('users.email')
      .where('team_members.team_id', '=', row.team_id)
      .orderBy('users.username')
      .execute();
  return [...new Set([...users.map((u) => u.email), ...jsonList<string>(row.email_addresses)])];
}
