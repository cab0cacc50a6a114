import type { Kysely } from 'kysely';
import type { Clock } from '../domain/common/clock.js';
import { queueAutoDestroyReminders } from '../services/notifications/auto-destroy-reminders.js';
import type { NotificationDeliveryOptions } from '../services/notifications/delivery-settings.js';
import { deliverDueNotifications, type DeliveryReport } from '../services/notifications/notification-delivery.js';
import type { DB } from '../store/schema.js';

/**
 * berth serve's deliverer of notifications (issue 45): every interval (a second by default) it
 * sends what the outbox holds that is due (services/notifications/notification-delivery.ts), and
 * about once a minute writes the auto-destroy reminders that came due
 * (services/notifications/auto-destroy-reminders.ts). Rounds never overlap; a round that fails
 * is logged and the next one tries again. Every instance on a database delivers: each delivery
 * is claimed by one. `round()` is the "deliver now" of tests, which drive it on a TestClock.
 */
export const DEFAULT_DELIVERY_INTERVAL_MS = 1000;
const REMINDER_EVERY_MS = 60_000;

export interface NotificationDelivererOptions {
  db: Kysely<DB>;
  clock: Clock;
  edition: 'self-hosted' | 'hosted';
  delivery: NotificationDeliveryOptions;
  intervalMs?: number;
  log: (line: string) => void;
}

export class NotificationDeliverer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private lastReminders = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: NotificationDelivererOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() =>
        this.stopped
          ? undefined
          : this.round().catch((err) => this.options.log(`notifications: ${(err as Error)?.message ?? String(err)}`)),
      );
    }, this.options.intervalMs ?? DEFAULT_DELIVERY_INTERVAL_MS);
    this.timer.unref();
  }

  /** One round: the reminders due (at most once a minute), then the deliveries due. */
  async round(): Promise<DeliveryReport[]> {
    const { db, clock } = this.options;
    const now = clock.now();
    if (now.getTime() - this.lastReminders >= REMINDER_EVERY_MS) {
      this.lastReminders = now.getTime();
      await queueAutoDestroyReminders(db, now);
    }
    const reports = await deliverDueNotifications(this.options);
    for (const r of reports)
      if (r.result === 'failed' || r.result === 'retrying')
        this.options.log(
          `notifications: ${r.trigger} to ${r.configurationId} ${r.result === 'failed' ? 'failed for good' : 'failed, will retry'} (attempt ${r.attempts}${r.code ? `, answered ${r.code}` : ''})`,
        );
    return reports;
  }

  /** Stops the rounds and waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
