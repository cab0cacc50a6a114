import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../domain/common/clock.js';
import { queueDueAssessments } from '../services/runs/assessments.js';
import { queueDueAutoDestroys, type AutoDestroyOutcome } from '../services/runs/auto-destroy.js';
import type { DB } from '../store/schema.js';
import { acquireLease, releaseLease } from './lease.js';

/**
 * berth serve's scheduler (issue 36): on each tick, the instance that holds the scheduler's lease
 * (lease.ts; one among several on a PostgreSQL database) queues the auto-destroy runs that are due
 * (services/runs/auto-destroy.ts) and, on the hosted edition, the health assessments
 * (services/runs/assessments.ts). What it queued is in the database (`scheduled_runs`, runs,
 * assessment results), never in memory, so a restart (or another instance taking over) goes on
 * where it stopped and queues nothing twice. Time comes from the injected clock; the timer only
 * says when to look.
 */

export const DEFAULT_SCHEDULER_INTERVAL_MS = 60_000;
/** HCP Terraform assesses a workspace about once a day. */
export const DEFAULT_ASSESSMENT_INTERVAL_MINUTES = 24 * 60;
export const LEASE_NAME = 'scheduler';

export interface SchedulerOptions {
  db: Kysely<DB>;
  clock: Clock;
  /** Milliseconds between ticks (default a minute). */
  intervalMs?: number;
  /** How long a tick's lease lasts without renewal (default three intervals). */
  leaseMs?: number;
  /** This instance's name in the lease (default a random one per scheduler). */
  holder?: string;
  /** Health assessments run only on the hosted edition. */
  edition: 'self-hosted' | 'hosted';
  /** Milliseconds between a workspace's assessments; 0 turns them off. */
  assessmentIntervalMs: number;
  /**
   * Whether this instance executes runs itself (default true). Without, only the auto-destroys of
   * workspaces whose runs agents execute are queued, and no assessment (they are for `remote`
   * workspaces, which nobody would execute).
   */
  executesRuns?: boolean;
  log: (line: string) => void;
}

export interface TickResult {
  /** Whether this instance held the lease and acted. */
  leader: boolean;
  autoDestroys: AutoDestroyOutcome[];
  /** The assessment runs queued. */
  assessments: string[];
}

export class Scheduler {
  readonly holder: string;
  private readonly intervalMs: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {
    this.holder = options.holder ?? `serve-${randomUUID()}`;
    this.intervalMs = options.intervalMs ?? DEFAULT_SCHEDULER_INTERVAL_MS;
    this.leaseMs = options.leaseMs ?? Math.max(3 * this.intervalMs, 1000);
  }

  /** Ticks every interval (the first one an interval after the start) until `stop`. */
  start(): void {
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() =>
        this.stopped
          ? undefined
          : this.tick().catch((err) => this.options.log(`scheduler: ${(err as Error)?.message ?? String(err)}`)),
      );
    }, this.intervalMs);
    this.timer.unref();
  }

  /** One round: take or renew the lease, then queue what is due. */
  async tick(): Promise<TickResult> {
    const { db, clock } = this.options;
    const idle: TickResult = { leader: false, autoDestroys: [], assessments: [] };
    if (!(await acquireLease(db, LEASE_NAME, this.holder, clock.now(), this.leaseMs))) return idle;
    const executesRuns = this.options.executesRuns ?? true;
    const autoDestroys = await queueDueAutoDestroys(db, clock.now(), executesRuns);
    for (const a of autoDestroys)
      this.options.log(
        a.runId
          ? `auto-destroy: queued ${a.runId} on ${a.workspaceId} (due ${a.dueAt})`
          : `auto-destroy: nothing queued on ${a.workspaceId} (due ${a.dueAt}): ${a.outcome}`,
      );
    const assessments =
      executesRuns && this.options.edition === 'hosted' && this.options.assessmentIntervalMs > 0
        ? await queueDueAssessments(db, clock.now(), this.options.assessmentIntervalMs)
        : [];
    return { leader: true, autoDestroys, assessments };
  }

  /** Stops ticking, waits for a tick under way, and lets the lease go. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await releaseLease(this.options.db, LEASE_NAME, this.holder, this.options.clock.now()).catch(() => undefined);
  }
}
