import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
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
  // Runs of agents no longer running: those just marked, and any that an agent claimed as it
  // was being marked (a claim and a sweep at once).
  const orphans = await db
    .selectFrom('runs')
    .innerJoin('agents', 'agents.id', 'runs.claimed_by')
    .select(['runs.id', 'runs.status', 'runs.heartbeat_at', 'agents.name', 'agents.last_ping_at'])
    .where('runs.status', 'in', ['planning', 'applying'])
    .where('agents.status', 'not in', LIVE_STATUSES)
    .execute();
  const runs: string[] = [];
  for (const r of orphans) {
    const ended = await endInterruptedRun(
      db,
      r,
      at,
      (row) =>
        `The run was interrupted: the agent ${r.name} stopped responding while the run was ${row.status} ` +
        `(last ping at ${r.last_ping_at}); berth ended it errored. Queue a new run.`,
    );
    if (ended) runs.push(r.id);
  }
  return { agents, runs };
}

/** Sweeps every quarter of `timeoutMs` until stopped (`berth serve`). */
export function watchAgents(
  db: Kysely<DB>,
  now: () => Date,
  timeoutMs: number,
  log?: (line: string) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      try {
        const { agents, runs } = await sweepAgents(db, now(), timeoutMs);
        for (const id of agents) log?.(`agents: agent ${id} stopped responding: marked exited`);
        for (const id of runs) log?.(`agents: run ${id} was interrupted (its agent stopped responding): ended errored`);
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
