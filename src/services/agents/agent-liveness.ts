import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { literalLimit } from '../../store/literal-limit.js';
import { writeTransaction } from '../../store/transaction.js';
import { endInterruptedRun } from '../runs/run-phases.js';
import { LIVE_STATUSES } from './agents.js';

/**
 * The agents' liveness: an agent pings every few seconds (`berth agent`); one silent for longer
 * than `timeoutMs` is gone (killed, crashed, its machine or network lost). `berth serve` sweeps
 * every quarter of the timeout (api/serve.ts); each agent's ping sweeps too.
 */

/** Default seconds without a ping after which an agent is `exited` (`berth serve --agent-timeout`). */
export const DEFAULT_AGENT_TIMEOUT_MS = 30_000;

/**
 * Default milliseconds after its last ping after which an `exited` or `errored` agent is deleted
 * (`berth serve --agent-retention`, in hours): each `berth agent` start registers a new agent, so
 * single-execution agents would otherwise leave one row per run for ever.
 */
export const DEFAULT_AGENT_RETENTION_MS = 24 * 60 * 60_000;

/** The statuses of an agent that stopped for good, deleted once retained long enough. */
const STOPPED_STATUSES = ['exited', 'errored'];

/** Most stopped agents deleted by one sweep (the next sweep takes the rest). */
const PRUNE_BATCH = 500;

/** How often an agent pings, for a server whose agent timeout is `timeoutMs`: a fifth of it, at most 5 s. */
export function pingIntervalMs(timeoutMs: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(timeoutMs / 5)));
}

/**
 * Marks `exited` the agents that stopped pinging (conditional on the ping it read: one that pings
 * meanwhile stays), then ends errored every run still planning or applying that an agent no
 * longer running had claimed ("the agent NAME stopped responding"), releasing its workspace, whose
 * queue moves on. Answers the agents and runs it ended.
 */
export async function sweepAgents(
  db: Kysely<DB>,
  now: Date,
  timeoutMs: number,
): Promise<{ agents: string[]; runs: string[] }> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - timeoutMs).toISOString();
  const stale = await db
    .selectFrom('agents')
    .select(['id', 'status', 'last_ping_at'])
    .where('status', 'in', LIVE_STATUSES)
    .where('last_ping_at', '<', cutoff)
    .execute();
  const agents: string[] = [];
  for (const a of stale) {
    const done = await writeTransaction(db, async (tx) => {
      const result = await tx
        .updateTable('agents')
        .set({ status: 'exited' })
        .where('id', '=', a.id)
        .where('status', '=', a.status)
        .where('last_ping_at', '=', a.last_ping_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
    if (done) agents.push(a.id);
  }
  // Runs of agents no longer running: those just marked, any that an agent claimed as it was
  // being marked (a claim and a sweep at once), and those of an agent deleted since it stopped
  // (by a pool manager, or pruned) before its runs were ended (a sweep cut short by a crash).
  const orphans = await db
    .selectFrom('runs')
    .leftJoin('agents', 'agents.id', 'runs.claimed_by')
    .select(['runs.id', 'runs.status', 'runs.heartbeat_at', 'runs.claimed_by', 'agents.name', 'agents.last_ping_at'])
    .where('runs.status', 'in', ['planning', 'applying'])
    .where('runs.claimed_by', 'like', 'agent-%')
    .where((eb) => eb.or([eb('agents.id', 'is', null), eb('agents.status', 'not in', LIVE_STATUSES)]))
    .execute();
  const runs: string[] = [];
  for (const r of orphans) {
    const ended = await endInterruptedRun(db, r, at, (row) =>
      r.name === null
        ? `The run was interrupted: its agent ${r.claimed_by} was deleted while the run was ${row.status}; ` +
          'berth ended it errored. Queue a new run.'
        : `The run was interrupted: the agent ${r.name} stopped responding while the run was ${row.status} ` +
          `(last ping at ${r.last_ping_at}); berth ended it errored. Queue a new run.`,
    );
    if (ended) runs.push(r.id);
  }
  return { agents, runs };
}

/**
 * Deletes the `exited` and `errored` agents whose last ping is older than `retentionMs` (at most
 * PRUNE_BATCH of them; conditional on what it read, so an agent deleted or changed meanwhile is
 * left alone). A pool's `agent-count` counts running agents only, so it does not change. The runs
 * they executed keep naming them, by their id (services/runs/run-executors.ts). Answers how many
 * it deleted.
 */
export async function pruneStoppedAgents(db: Kysely<DB>, now: Date, retentionMs: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs).toISOString();
  const old = await db
    .selectFrom('agents')
    .select('id')
    .where('status', 'in', STOPPED_STATUSES)
    .where('last_ping_at', '<', cutoff)
    .orderBy('last_ping_at')
    .limit(literalLimit(PRUNE_BATCH))
    .execute();
  if (old.length === 0) return 0;
  const result = await writeTransaction(db, (tx) =>
    tx
      .deleteFrom('agents')
      .where(
        'id',
        'in',
        old.map((a) => a.id),
      )
      .where('status', 'in', STOPPED_STATUSES)
      .where('last_ping_at', '<', cutoff)
      .executeTakeFirst(),
  );
  return Number(result.numDeletedRows);
}

/**
 * Sweeps every quarter of `timeoutMs` until stopped (`berth serve`); each sweep also deletes the
 * agents stopped for longer than `retentionMs` (0: never).
 */
export function watchAgents(
  db: Kysely<DB>,
  now: () => Date,
  timeoutMs: number,
  log?: (line: string) => void,
  retentionMs: number = DEFAULT_AGENT_RETENTION_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      try {
        const { agents, runs } = await sweepAgents(db, now(), timeoutMs);
        for (const id of agents) log?.(`agents: agent ${id} stopped responding: marked exited`);
        for (const id of runs) log?.(`agents: run ${id} was interrupted (its agent stopped responding): ended errored`);
        if (retentionMs > 0) {
          const pruned = await pruneStoppedAgents(db, now(), retentionMs);
          if (pruned > 0) log?.(`agents: deleted ${pruned} agents stopped for longer than the retention`);
        }
      } catch (err) {
        log?.(`agents: the liveness sweep failed: ${String(err)}`);
      }
    });
  };
  const timer = setInterval(tick, Math.max(100, Math.floor(timeoutMs / 4)));
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
