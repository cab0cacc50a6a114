import type { Kysely } from 'kysely';
import type { Actor } from '../domain/permissions/actor.js';
import type { Clock } from '../domain/common/clock.js';
import type { DB } from '../store/schema.js';
import type { CommitHook } from '../store/transaction.js';
import type { NotificationDeliveryOptions } from './notifications/delivery-settings.js';

/** Instance-wide settings (stored in the `settings` table, except where said). */
export interface InstanceSettings {
  edition: 'self-hosted' | 'hosted';
  /** How long hosted-state URLs work, in seconds (not stored: `berth serve --state-url-ttl`; default 300). */
  stateUrlTtlSeconds?: number;
  /**
   * This instance executes runs (not stored: `berth serve` found a terraform binary, and was not
   * given --no-execute-runs). Without it, only runs of `agent` workspaces are queued (for their
   * agents), and `operations` answers true only for organizations that send runs to agents
   * (services/runs/run-without-executor.ts).
   */
  executesRuns?: boolean;
  /**
   * The version of the executor's terraform binary (not stored: asked at start-up), when this
   * instance executes runs: the terraform-version of a workspace created without one.
   */
  terraformVersion?: string;
  /**
   * How notifications are delivered (not stored: `berth serve --smtp-url`, its URL for links, a
   * delivery's time limit; services/notifications/delivery-settings.ts). Absent: no SMTP server.
   */
  notifications?: NotificationDeliveryOptions;
}

/** What every service operation receives. */
export interface ServiceContext {
  db: Kysely<DB>;
  actor: Actor;
  clock: Clock;
  settings: InstanceSettings;
  /** Commits with every write transaction of the operation (the API's audit trail). */
  commitHook?: CommitHook;
}

export const DEFAULT_SETTINGS: InstanceSettings = { edition: 'self-hosted' };
