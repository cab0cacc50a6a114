import { badRequest, BerthError, invalid, Problems } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { offsetOf, type PageRequest, type Paged } from '../../domain/common/paging.js';
import {
  MAX_CONFIGURATIONS,
  shapeProblems,
  TEAM_TRIGGERS,
  urlProblem,
  WORKSPACE_TRIGGERS,
  type ConfigurationShape,
  type DeliveryResponse,
  type NotificationConfiguration,
  type NotificationConfigurationInput,
  type Subscribable,
} from '../../domain/notifications/notification-configuration.js';
import { verificationFacts } from '../../domain/notifications/payloads.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf, inWorkspaceOrganization } from '../write-scope.js';
import { deliverTo, type DeliveryOutcome } from './deliver.js';
import { privateDestinationsAllowed } from './delivery-settings.js';
import { destinationProblem } from './destination-address.js';
import {
  emailUserIdsOf,
  manageableConfiguration,
  manageableSubscribable,
  recipientsOf,
  toConfiguration,
  type ConfigurationRow,
} from './notification-rows.js';

/**
 * HCP Terraform's Notification Configurations API (docs/api.md, "Notification configurations"):
 * a workspace's (or a team's) configurations, read and changed by the workspace's admins (who
 * manages teams, for a team's). Saving an enabled configuration that POSTs first sends it a
 * verification, outside any transaction (a slow receiver holds no lock): a failed one is a 400
 * and nothing is saved. `actions/verify` sends one whenever asked and keeps its response.
 */

const scopeOf = (ctx: ServiceContext, s: Subscribable) =>
  s.type === 'workspaces' ? inWorkspaceOrganization(ctx, { id: s.id }) : inOrganizationOf(ctx, 'teams', s.id);

/** Refuses the triggers the subscribable has not (a workspace's and a team's lists differ). */
function triggerProblems(s: Subscribable, triggers: string[], problems: Problems): void {
  const allowed: readonly string[] = s.type === 'teams' ? TEAM_TRIGGERS : WORKSPACE_TRIGGERS;
  triggers.forEach((t, i) => {
    if (!allowed.includes(t))
      problems.add(
        `/data/attributes/triggers/${i}`,
        `${JSON.stringify(t)} is not a valid trigger of a ${s.type === 'teams' ? 'team' : 'workspace'}'s notification configuration (valid: ${allowed.join(', ')})`,
      );
  });
}

/** Users of the configuration must belong to its organization (an invitation counts). */
async function userProblems(db: Tx, organizationId: string, userIds: string[], problems: Problems): Promise<void> {
  if (userIds.length === 0) return;
  const members = new Set(
    (
      await db
        .selectFrom('organization_memberships')
        .select('user_id')
        .where('organization_id', '=', organizationId)
        .where('user_id', 'in', userIds)
        .execute()
    ).map((r) => r.user_id),
  );
  userIds.forEach((id, i) => {
    if (!members.has(id))
      problems.add(`/data/relationships/users/data/${i}/id`, `user ${id} is not a member of the organization`);
  });
}

/** Every rule a configuration's settings must keep, the URL's destination resolved last. */
async function checkSettings(
  ctx: ServiceContext,
  s: Subscribable,
  organizationId: string,
  shape: ConfigurationShape,
  triggers: string[],
  emailAddressesGiven: boolean,
): Promise<void> {
  const problems = new Problems();
  triggerProblems(s, triggers, problems);
  for (const p of shapeProblems(shape)) problems.add(p.pointer, p.detail);
  if (emailAddressesGiven && shape.emailAddresses.length > 0 && ctx.settings.edition === 'hosted')
    problems.add(
      '/data/attributes/email-addresses',
      'email addresses are a Terraform Enterprise setting: on the hosted edition, mail the organization\u2019s users (the users relationship)',
    );
  if (shape.url) {
    const bad = urlProblem(shape.url);
    if (bad) problems.add('/data/attributes/url', bad);
  }
  await userProblems(ctx.db, organizationId, shape.emailUserIds, problems);
  problems.throwIfAny();
  if (shape.url) {
    const allowPrivate = await privateDestinationsAllowed(ctx.db, ctx.settings.edition);
    const bad = await destinationProblem(shape.url, { allowPrivate, resolve: ctx.settings.notifications?.resolve });
    if (bad) throw invalid('/data/attributes/url', bad);
  }
}

async function send(
  ctx: ServiceContext,
  target: { id: string; name: string; shape: ConfigurationShape },
  recipients: string[],
): Promise<DeliveryOutcome> {
  const allowPrivate = await privateDestinationsAllowed(ctx.db, ctx.settings.edition);
  return deliverTo(
    { id: target.id, name: target.name, ...target.shape, recipients },
    verificationFacts(target.name),
    ctx.settings.notifications ?? {},
    allowPrivate,
    ctx.clock.now(),
  );
}

function verificationFailed(response: DeliveryResponse): BerthError {
  const why = response.code !== '' ? `the destination answered ${response.code}` : response.body;
  const said = response.code !== '' && response.body.trim() !== '' ? ` (${response.body.trim().slice(0, 200)})` : '';
  return badRequest(`Verification failed: ${why}${said}. Nothing was saved.`);
}

/** A verification before an enabled configuration that POSTs is saved; email needs none (HCP). */
async function verifyBeforeSaving(
  ctx: ServiceContext,
  target: { id: string; name: string; shape: ConfigurationShape },
): Promise<DeliveryResponse[] | null> {
  if (target.shape.destinationType === 'email') return null;
  const { response } = await send(ctx, target, []);
  if (!response.successful) throw verificationFailed(response);
  return [response];
}

async function replaceUsers(tx: Tx, configurationId: string, userIds: string[]): Promise<void> {
  await tx.deleteFrom('notification_configuration_users').where('configuration_id', '=', configurationId).execute();
  if (userIds.length > 0)
    await tx
      .insertInto('notification_configuration_users')
      .values(userIds.map((user_id, position) => ({ configuration_id: configurationId, user_id, position })))
      .execute();
}

async function countOf(tx: Tx, s: Subscribable): Promise<number> {
  const { n } = await tx
    .selectFrom('notification_configurations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(s.type === 'teams' ? 'team_id' : 'workspace_id', '=', s.id)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function createNotificationConfiguration(
  ctx: ServiceContext,
  s: Subscribable,
  input: NotificationConfigurationInput,
): Promise<NotificationConfiguration> {
  const owner = await manageableSubscribable(ctx, ctx.db, s);
  const shape: ConfigurationShape = {
    destinationType: input.destinationType!,
    url: input.url ?? null,
    token: input.token ?? null,
    emailAddresses: input.emailAddresses ?? [],
    emailUserIds: input.emailUserIds ?? [],
  };
  const triggers = input.triggers ?? [];
  await checkSettings(ctx, s, owner.organizationId, shape, triggers, input.emailAddresses !== undefined);
  const id = newId('nc');
  const name = input.name!;
  const enabled = input.enabled ?? false;
  const responses = enabled ? await verifyBeforeSaving(ctx, { id, name, shape }) : null;
  return writeTransaction(scopeOf(ctx, s), async (tx) => {
    const { organizationId } = await manageableSubscribable(ctx, tx, s);
    const problems = new Problems();
    await userProblems(tx, organizationId, shape.emailUserIds, problems);
    problems.throwIfAny();
    if ((await countOf(tx, s)) >= MAX_CONFIGURATIONS)
      throw invalid(
        '/data',
        `a ${s.type === 'teams' ? 'team' : 'workspace'} may have at most ${MAX_CONFIGURATIONS} notification configurations`,
      );
    const now = ctx.clock.now().toISOString();
    await tx
      .insertInto('notification_configurations')
      .values({
        id,
        organization_id: organizationId,
        workspace_id: s.type === 'workspaces' ? s.id : null,
        team_id: s.type === 'teams' ? s.id : null,
        name,
        destination_type: shape.destinationType,
        enabled: enabled ? 1 : 0,
        url: shape.url,
        token: shape.token,
        triggers: JSON.stringify(triggers),
        email_addresses: JSON.stringify(shape.emailAddresses),
        delivery_responses: JSON.stringify(responses ?? []),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await replaceUsers(tx, id, shape.emailUserIds);
    return toConfiguration(tx, await rowOf(tx, id));
  });
}

const rowOf = (tx: Tx, id: string) =>
  tx.selectFrom('notification_configurations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/**
 * The subscribable's configurations, oldest first. HCP pages this list only when asked
 * (`page[number]` or `page[size]`): without, every configuration (at most 20) and no `page`.
 */
export async function listNotificationConfigurations(
  ctx: ServiceContext,
  s: Subscribable,
  page: PageRequest | null,
): Promise<Paged<NotificationConfiguration> | { items: NotificationConfiguration[]; page: null }> {
  await manageableSubscribable(ctx, ctx.db, s);
  const rows = await ctx.db
    .selectFrom('notification_configurations')
    .selectAll()
    .where(s.type === 'teams' ? 'team_id' : 'workspace_id', '=', s.id)
    .orderBy('seq')
    .execute();
  const all = await Promise.all(rows.map((r) => toConfiguration(ctx.db, r)));
  if (page === null) return { items: all, page: null };
  const start = offsetOf(page);
  return { items: all.slice(start, start + page.size), total: all.length, page };
}

export async function getNotificationConfiguration(
  ctx: ServiceContext,
  id: string,
): Promise<NotificationConfiguration> {
  const { row } = await manageableConfiguration(ctx, ctx.db, id);
  return toConfiguration(ctx.db, row);
}

function mergedShape(
  row: ConfigurationRow,
  input: NotificationConfigurationInput,
  users: string[],
): ConfigurationShape {
  return {
    destinationType: row.destination_type as ConfigurationShape['destinationType'],
    url: input.url !== undefined ? input.url : row.url,
    token: input.token !== undefined ? input.token : row.token,
    emailAddresses: input.emailAddresses ?? (JSON.parse(row.email_addresses) as string[]),
    emailUserIds: users,
  };
}

/**
 * Changes what the body gives; the rest stays. `users` is the exception, as on HCP (go-tfe's
 * tests): an update without it leaves an email configuration with no users. An enabled result
 * that POSTs is verified first (HCP: "if enabled is true, updating ... sends a verification").
 */
export async function updateNotificationConfiguration(
  ctx: ServiceContext,
  id: string,
  input: NotificationConfigurationInput,
): Promise<NotificationConfiguration> {
  const { row, organizationId } = await manageableConfiguration(ctx, ctx.db, id);
  const s =
    row.team_id !== null
      ? ({ type: 'teams', id: row.team_id } as const)
      : ({ type: 'workspaces', id: row.workspace_id! } as const);
  if (input.destinationType !== undefined && input.destinationType !== row.destination_type)
    throw invalid(
      '/data/attributes/destination-type',
      'destination type cannot be changed: delete the configuration and create another',
    );
  const shape = mergedShape(row, input, input.emailUserIds ?? []);
  const triggers = input.triggers ?? (JSON.parse(row.triggers) as string[]);
  await checkSettings(ctx, s, organizationId, shape, triggers, input.emailAddresses !== undefined);
  const name = input.name ?? row.name;
  const enabled = input.enabled ?? row.enabled === 1;
  const responses = enabled ? await verifyBeforeSaving(ctx, { id, name, shape }) : null;
  return writeTransaction(inOrganizationOf(ctx, 'notification_configurations', id), async (tx) => {
    const current = await manageableConfiguration(ctx, tx, id);
    const problems = new Problems();
    await userProblems(tx, current.organizationId, shape.emailUserIds, problems);
    problems.throwIfAny();
    await tx
      .updateTable('notification_configurations')
      .set({
        name,
        enabled: enabled ? 1 : 0,
        url: shape.url,
        token: shape.token,
        triggers: JSON.stringify(triggers),
        email_addresses: JSON.stringify(shape.emailAddresses),
        ...(responses ? { delivery_responses: JSON.stringify(responses) } : {}),
        updated_at: ctx.clock.now().toISOString(),
      })
      .where('id', '=', id)
      .execute();
    await replaceUsers(tx, id, shape.emailUserIds);
    return toConfiguration(tx, await rowOf(tx, id));
  });
}

/** Deletes the configuration, with its deliveries still waiting (the foreign keys). */
export async function deleteNotificationConfiguration(ctx: ServiceContext, id: string): Promise<void> {
  await manageableConfiguration(ctx, ctx.db, id);
  await writeTransaction(inOrganizationOf(ctx, 'notification_configurations', id), async (tx) => {
    await manageableConfiguration(ctx, tx, id);
    await tx.deleteFrom('notification_configurations').where('id', '=', id).execute();
  });
}

/**
 * Sends a verification now, enabled or not, and keeps its response. A POST that fails is a 400
 * that keeps nothing (the answer is in its detail), as every refused request; an email
 * configuration without an SMTP server or recipients records why it was skipped and answers 200.
 */
export async function verifyNotificationConfiguration(
  ctx: ServiceContext,
  id: string,
): Promise<NotificationConfiguration> {
  const { row } = await manageableConfiguration(ctx, ctx.db, id);
  const shape = mergedShape(row, {}, await emailUserIdsOf(ctx.db, id));
  const outcome = await send(ctx, { id, name: row.name, shape }, await recipientsOf(ctx.db, row));
  if (!outcome.response.successful && !outcome.skipped) throw verificationFailed(outcome.response);
  return writeTransaction(inOrganizationOf(ctx, 'notification_configurations', id), async (tx) => {
    await manageableConfiguration(ctx, tx, id);
    await tx
      .updateTable('notification_configurations')
      .set({ delivery_responses: JSON.stringify([outcome.response]) })
      .where('id', '=', id)
      .execute();
    return toConfiguration(tx, await rowOf(tx, id));
  });
}
