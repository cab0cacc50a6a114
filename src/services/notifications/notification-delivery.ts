import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/common/clock.js';
import type { NotificationFacts } from '../../domain/notifications/payloads.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { literalLimit } from '../../store/literal-limit.js';
import { inOrganizationOf } from '../write-scope.js';
import { deliverTo, type DeliveryOutcome } from './deliver.js';
import {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  privateDestinationsAllowed,
  type NotificationDeliveryOptions,
} from './delivery-settings.js';
import { recipientsOf } from './notification-rows.js';

/**
 * The outbox's deliverer (berth serve's, src/scheduler/notification-deliverer.ts, calls it): sends
 * the deliveries whose time has come, a few at once, each claimed first with a conditional update
 * (`claimed_until`: another instance on the same database skips it; a claim outlives its
 * delivery's time limit, so a crashed sender's claim expires and the row is tried again). Each
 * response becomes its configuration's `delivery-responses`. A delivery that failed in a way
 * worth retrying (no answer, 408, 429, 5xx) is tried again after RETRY_DELAYS_MS; one that
 * succeeded, was skipped (email without SMTP), failed for good or ran out of tries leaves the
 * outbox. Time is the clock's: tests drive rounds by hand on a TestClock.
 */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const BATCH = 20;
const CONCURRENCY = 4;

export interface DeliveryReport {
  deliveryId: string;
  configurationId: string;
  trigger: string;
  /** `delivered`, `skipped`, `retrying` (another try is due later) or `failed` (given up). */
  result: 'delivered' | 'skipped' | 'retrying' | 'failed';
  attempts: number;
  code: string;
}

export interface DeliverDueOptions {
  db: Kysely<DB>;
  clock: Clock;
  edition: 'self-hosted' | 'hosted';
  delivery: NotificationDeliveryOptions;
}

async function claim(o: DeliverDueOptions, id: string, now: Date): Promise<boolean> {
  const timeout = o.delivery.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const until = new Date(now.getTime() + 2 * timeout + 60_000).toISOString();
  const at = now.toISOString();
  return writeTransaction(o.db, async (tx) => {
    const r = await tx
      .updateTable('notification_deliveries')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  });
}

async function deliverOne(
  o: DeliverDueOptions,
  row: { id: string; configuration_id: string; trigger: string; payload: string; attempts: number },
  allowPrivate: boolean,
): Promise<DeliveryReport | null> {
  if (!(await claim(o, row.id, o.clock.now()))) return null;
  const config = await o.db
    .selectFrom('notification_configurations')
    .selectAll()
    .where('id', '=', row.configuration_id)
    .executeTakeFirst();
  const attempts = row.attempts + 1;
  const report = (result: DeliveryReport['result'], code = ''): DeliveryReport => ({
    deliveryId: row.id,
    configurationId: row.configuration_id,
    trigger: row.trigger,
    result,
    attempts,
    code,
  });
  // Turned off (or deleted) since the event: nothing is sent.
  if (!config || config.enabled !== 1) {
    await writeTransaction(o.db, (tx) => tx.deleteFrom('notification_deliveries').where('id', '=', row.id).execute());
    return report('skipped');
  }
  let outcome: DeliveryOutcome;
  try {
    outcome = await deliverTo(
      {
        id: config.id,
        name: config.name,
        destinationType: config.destination_type,
        url: config.url,
        token: config.token,
        recipients: config.destination_type === 'email' ? await recipientsOf(o.db, config) : [],
      },
      JSON.parse(row.payload) as NotificationFacts,
      o.delivery,
      allowPrivate,
      o.clock.now(),
    );
  } catch (err) {
    outcome = {
      response: {
        url: config.url ?? '',
        body: (err as Error)?.message ?? String(err),
        code: '',
        headers: {},
        sentAt: o.clock.now().toISOString(),
        successful: false,
      },
      retryable: true,
      skipped: false,
    };
  }
  const { response } = outcome;
  const again = !response.successful && !outcome.skipped && outcome.retryable && attempts < MAX_ATTEMPTS;
  const result: DeliveryReport['result'] = response.successful
    ? 'delivered'
    : outcome.skipped
      ? 'skipped'
      : again
        ? 'retrying'
        : 'failed';
  await writeTransaction(inOrganizationOf({ db: o.db }, 'notification_configurations', config.id), async (tx) => {
    await tx
      .updateTable('notification_configurations')
      .set({ delivery_responses: JSON.stringify([response]) })
      .where('id', '=', config.id)
      .execute();
    if (again)
      await tx
        .updateTable('notification_deliveries')
        .set({
          attempts,
          claimed_until: null,
          next_attempt_at: new Date(o.clock.now().getTime() + RETRY_DELAYS_MS[attempts - 1]).toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
    else await tx.deleteFrom('notification_deliveries').where('id', '=', row.id).execute();
  });
  return report(result, response.code);
}

/** One round: delivers what is due now; answers what it did (nothing another instance claimed). */
export async function deliverDueNotifications(o: DeliverDueOptions): Promise<DeliveryReport[]> {
  const now = o.clock.now().toISOString();
  const due = await o.db
    .selectFrom('notification_deliveries')
    .select(['id', 'configuration_id', 'trigger', 'payload', 'attempts'])
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('seq')
    .limit(literalLimit(BATCH))
    .execute();
  if (due.length === 0) return [];
  const allowPrivate = await privateDestinationsAllowed(o.db, o.edition);
  const reports: DeliveryReport[] = [];
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const row = due[next++];
      const r = await deliverOne(o, row, allowPrivate);
      if (r) reports.push(r);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  return reports;
}
