import type { Kysely } from 'kysely';
import { conflict, invalid, notFound, unauthorized } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import { hashToken, sameHash } from '../../domain/identity/token.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ClaimedRun } from '../runs/run-claim.js';
import { claimWithRunToken } from '../runs/run-claim-token.js';
import { keepInterruptedState } from '../runs/interrupted-state.js';
import { DEFAULT_RUN_TOKEN_TTL_MS } from '../runs/run-tokens.js';
import { effectiveVariablesOfRun, type EffectiveVariables } from '../variables/effective.js';
import { configurationArchive } from '../runs/configuration-versions.js';
import {
  appendRunLog,
  finishPhase,
  stopRequested,
  storeRunState,
  workspaceState,
  type PhaseResult,
} from '../runs/run-phases.js';
import type { Phase } from '../runs/run-rows.js';
import { storePlanJson } from '../runs/plan-json.js';
import { savedPlan, storeSavedPlan } from '../runs/saved-plans.js';
import { executionOf, selectWorkspaces } from '../workspaces/workspaces-read.js';
import { resolveSubject } from '../audit/audit-subjects.js';
import { recordAuditEvent } from '../audit/audit-trail.js';
import type { Tx } from '../../store/transaction.js';
import { AGENT_COLUMNS, LIVE_STATUSES, toAgent, type Agent } from './agents.js';

/**
 * The agent protocol's side in berth (api/routes/agent-protocol.ts): what a `berth agent` may do
 * with a token of its pool, and nothing else. Every call names the agent (registered with a token
 * of the same pool, still running); every call about a run checks that the run's workspace
 * executes on the token's pool (its effective execution mode, as the claim reads it) and that this
 * agent claimed it. Anything else is the same 404 as a run that does not exist.
 */

type Db = Kysely<DB>;

/** Who calls: a token of a pool. */
export interface AgentCredential {
  tokenId: string;
  poolId: string;
  poolName: string;
}

/** Minimum milliseconds between two writes of a token's `last_used_at`. */
const LAST_USED_EVERY_MS = 60_000;

/** The pool whose token this is, or a 401 (unknown or deleted token). */
export async function authenticateAgentToken(db: Db, token: string, now: Date): Promise<AgentCredential> {
  const hash = hashToken(token);
  const row = await db
    .selectFrom('agent_tokens')
    .innerJoin('agent_pools', 'agent_pools.id', 'agent_tokens.agent_pool_id')
    .select([
      'agent_tokens.id',
      'agent_tokens.token_hash',
      'agent_tokens.last_used_at',
      'agent_pools.id as pool_id',
      'agent_pools.name as pool_name',
    ])
    .where('agent_tokens.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !sameHash(row.token_hash, hash))
    throw unauthorized('the agent token is missing, malformed, deleted or unknown');
  if (!row.last_used_at || Date.parse(row.last_used_at) <= now.getTime() - LAST_USED_EVERY_MS) {
    const at = now.toISOString();
    await writeTransaction(db, (tx) =>
      tx.updateTable('agent_tokens').set({ last_used_at: at }).where('id', '=', row.id).execute(),
    );
  }
  return { tokenId: row.id, poolId: row.pool_id, poolName: row.pool_name };
}

const NAME = /^[A-Za-z0-9_.-]{1,90}$/;

/**
 * The audit record of an agent's registration or clean exit (`agent.register`, `agent.exit`), in
 * the transaction of the change: the agent is the actor (kind `agent`, its token), its pool the
 * subject, so the pool's organization reads it in its trail.
 */
async function recordAgentEvent(
  tx: Tx,
  action: 'agent.register' | 'agent.exit',
  agent: { id: string; name: string },
  cred: AgentCredential,
  at: string,
  requestId: string | null,
): Promise<void> {
  await recordAuditEvent(tx, {
    time: at,
    action,
    actor: { kind: 'agent', id: agent.id, tokenId: cred.tokenId, name: agent.name },
    subject: await resolveSubject(tx, { type: 'agent-pools', id: cred.poolId }),
    requestId,
  });
}

/** Registers a new agent of the token's pool (idle, pinged now). */
export async function registerAgent(
  db: Db,
  cred: AgentCredential,
  name: string | undefined,
  ipAddress: string | null,
  now: Date,
  requestId: string | null = null,
): Promise<Agent> {
  if (name !== undefined && !NAME.test(name))
    throw invalid('/name', 'An agent name has 1 to 90 letters, digits, ".", "-" or "_"');
  const at = now.toISOString();
  const id = newId('agent');
  const row = {
    id,
    agent_pool_id: cred.poolId,
    agent_token_id: cred.tokenId,
    name: name ?? id,
    status: 'idle',
    ip_address: ipAddress,
    created_at: at,
    last_ping_at: at,
  };
  await writeTransaction(db, async (tx) => {
    await tx.insertInto('agents').values(row).execute();
    await recordAgentEvent(tx, 'agent.register', row, cred, at, requestId);
  });
  return toAgent(row);
}

/** The calling agent: of the token's pool, and still running (409 once it was marked exited). */
async function callingAgent(db: Db, cred: AgentCredential, agentId: string | undefined): Promise<Agent> {
  if (!agentId) throw notFound('agent not found: register first (the X-Berth-Agent header names the agent)');
  const row = await db.selectFrom('agents').select(AGENT_COLUMNS).where('id', '=', agentId).executeTakeFirst();
  if (!row || row.agent_pool_id !== cred.poolId) throw notFound(`agent ${agentId} not found`);
  if (!LIVE_STATUSES.includes(row.status as Agent['status']))
    throw conflict(
      `agent ${row.name} (${row.id}) is ${row.status}: it stopped responding, and its runs were ended; register again`,
    );
  return toAgent(row);
}

/**
 * The agent is alive (`idle` or `busy`), or stops (`exited`). Its pings are also the heartbeat of
 * the runs it executes. Answers the agent.
 */
export async function pingAgent(
  db: Db,
  cred: AgentCredential,
  agentId: string | undefined,
  status: string,
  runs: string[] | undefined,
  now: Date,
  requestId: string | null = null,
): Promise<Agent> {
  if (status !== 'idle' && status !== 'busy' && status !== 'exited')
    throw invalid('/status', 'The status of a ping is idle, busy or exited');
  const agent = await callingAgent(db, cred, agentId);
  const at = now.toISOString();
  await writeTransaction(db, async (tx) => {
    // Only while it is still alive: the sweep may have found it gone (and ended its runs), or a
    // manager deleted it, since it was read; a late ping must not bring it back.
    const pinged = await tx
      .updateTable('agents')
      .set({ status, last_ping_at: at })
      .where('id', '=', agent.id)
      .where('status', 'in', LIVE_STATUSES)
      .executeTakeFirst();
    if (Number(pinged.numUpdatedRows) === 0) await callingAgent(tx, cred, agentId);
    if (status === 'exited') await recordAgentEvent(tx, 'agent.exit', agent, cred, at, requestId);
    if (status === 'exited' || (runs && runs.length === 0)) return;
    // The runs it says it executes (all it claimed, when it does not say) are alive.
    let beat = tx
      .updateTable('runs')
      .set({ heartbeat_at: at })
      .where('claimed_by', '=', agent.id)
      .where('status', 'in', ['planning', 'applying']);
    if (runs) beat = beat.where('id', 'in', runs);
    await beat.execute();
  });
  return { ...agent, status, lastPingAt: at };
}

/** The next queued phase of a workspace on the token's pool, claimed for this agent (null: none). */
export async function claimForAgent(
  db: Db,
  cred: AgentCredential,
  agentId: string | undefined,
  now: Date,
): Promise<(ClaimedRun & { token: string }) | null> {
  const agent = await callingAgent(db, cred, agentId);
  const at = now.toISOString();
  // With the run token of the phase, as serve's executor gets it (in-process-port.ts).
  const claim = await claimWithRunToken(db, agent.id, now, DEFAULT_RUN_TOKEN_TTL_MS, { agentPoolId: cred.poolId });
  if (!claim) return null;
  await writeTransaction(db, (tx) =>
    tx
      .updateTable('agents')
      .set({ status: 'busy', last_ping_at: at })
      .where('id', '=', agent.id)
      .where('status', 'in', LIVE_STATUSES)
      .execute(),
  );
  return claim;
}

/**
 * The run, when this agent claimed it and its workspace executes on the token's pool; else a 404
 * (another pool's run, another agent's, or none).
 */
async function agentRun(db: Db, cred: AgentCredential, agent: Agent, runId: string) {
  const run = await db
    .selectFrom('runs')
    .select(['id', 'workspace_id', 'status', 'claimed_by', 'configuration_version_id'])
    .where('id', '=', runId)
    .executeTakeFirst();
  const missing = () => notFound(`run ${runId} not found`);
  if (!run || run.claimed_by !== agent.id) throw missing();
  const ws = await selectWorkspaces(db).where('workspaces.id', '=', run.workspace_id).executeTakeFirst();
  if (!ws) throw missing();
  const execution = executionOf(ws);
  if (execution.mode !== 'agent' || execution.agentPoolId !== cred.poolId) throw missing();
  return run;
}

/**
 * What the agent may do with a run it executes; `agentId` names the calling agent. `executesRuns`:
 * whether serve executes runs itself (the runs an applied run's triggers queue in `remote`
 * workspaces wait for it; without it they end errored, as any run there would).
 */
export function agentRunOps(
  db: Db,
  cred: AgentCredential,
  agentId: string | undefined,
  now: () => Date,
  executesRuns = false,
) {
  const run = async (runId: string) => {
    const agent = await callingAgent(db, cred, agentId);
    return agentRun(db, cred, agent, runId);
  };
  const executing = (status: string) => status === 'planning' || status === 'applying';
  return {
    /** The configuration of a run this agent executes (by its configuration version). */
    async configuration(configurationVersionId: string): Promise<Buffer> {
      const agent = await callingAgent(db, cred, agentId);
      const runs = await db
        .selectFrom('runs')
        .select('id')
        .where('configuration_version_id', '=', configurationVersionId)
        .where('claimed_by', '=', agent.id)
        .execute();
      for (const r of runs) {
        const ok = await agentRun(db, cred, agent, r.id).then(
          () => true,
          () => false,
        );
        if (!ok) continue;
        const archive = await configurationArchive(db, configurationVersionId);
        if (archive) return archive;
      }
      throw notFound(`configuration version ${configurationVersionId} not found`);
    },
    /** Appends to the phase's log; dropped once the run ended (it was ended without this agent). */
    async appendLog(runId: string, phase: Phase, chunk: Buffer): Promise<void> {
      const r = await run(runId);
      if (executing(r.status)) await appendRunLog(db, runId, phase, chunk);
    },
    async finishPhase(runId: string, phase: Phase, result: PhaseResult): Promise<void> {
      await run(runId);
      await finishPhase(db, runId, phase, result, now().toISOString(), executesRuns);
    },
    async currentState(runId: string): Promise<Buffer | null> {
      await run(runId);
      return workspaceState(db, runId);
    },
    /** The variables the run is given, sensitive values included (the agent writes them for terraform). */
    async variables(runId: string): Promise<EffectiveVariables> {
      await run(runId);
      return effectiveVariablesOfRun(db, runId);
    },
    /** Records the state an apply wrote (409 once the run ended: its workspace is no longer its). */
    async storeState(runId: string, state: Buffer): Promise<void> {
      const r = await run(runId);
      if (r.status !== 'applying') throw conflict(`run ${runId} is ${r.status}: it records no state now`);
      await storeRunState(db, runId, state, now().toISOString());
    },
    /**
     * Keeps the state an interrupted apply left on the agent's machine (runner/left-behind.ts): for a
     * run claimed by any agent of the token's pool (a restarted agent registers anew, under another
     * id), never current (interrupted-state.ts). Null: the run never applied, or is gone.
     */
    async keepInterruptedState(runId: string, state: Buffer): Promise<{ stateVersionId: string } | null> {
      await callingAgent(db, cred, agentId);
      const r = await db
        .selectFrom('runs')
        .innerJoin('agents', 'agents.id', 'runs.claimed_by')
        .select('agents.agent_pool_id')
        .where('runs.id', '=', runId)
        .executeTakeFirst();
      if (!r || r.agent_pool_id !== cred.poolId) throw notFound(`run ${runId} not found`);
      const kept = await keepInterruptedState(db, runId, state, now().toISOString());
      return kept && { stateVersionId: kept.stateVersionId };
    },
    /** Keeps the plan the run's plan phase saved (409 unless the run is still planning; 413 over the limit). */
    async storePlan(runId: string, plan: Buffer): Promise<void> {
      await run(runId);
      await storeSavedPlan(db, runId, plan, now().toISOString());
    },
    /** Keeps the JSON plan and provider schemas of the run's plan phase (409 unless still planning; 413 over the limit). */
    async storePlanJson(runId: string, plan: Buffer, schemas: Buffer): Promise<void> {
      await run(runId);
      await storePlanJson(db, runId, plan, schemas, now().toISOString());
    },
    /** The run's saved plan, for its apply (409 unless the run is applying; null: none stored). */
    async savedPlan(runId: string): Promise<Buffer | null> {
      const r = await run(runId);
      if (r.status !== 'applying') throw conflict(`run ${runId} is ${r.status}: its saved plan is for its apply`);
      return savedPlan(db, runId);
    },
    /** 'cancel', 'force' (also: the run ended) or null. */
    async stopRequested(runId: string): Promise<'cancel' | 'force' | null> {
      const r = await run(runId);
      if (FINAL_STATUSES.includes(r.status as RunStatus)) return 'force';
      return stopRequested(db, runId);
    },
  };
}
