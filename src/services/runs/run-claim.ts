import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { ExecutionSetting, ExecutionSource } from '../../domain/workspaces/execution.js';
import type { RunStatus } from '../../domain/runs/run.js';
import { LOG_START, type RunVariable } from '../../domain/runs/run-execution.js';
import { LIMIT_ONE, literalLimit } from '../../store/literal-limit.js';
import { mirrorHostnames } from '../registry/mirror-hostnames.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { executionOf, selectWorkspaces } from '../workspaces/workspaces-read.js';
import { scheduleWorkspace } from './run-queue.js';
import { appendLogTx, json, stamped, type Phase } from './run-rows.js';
import { recordMove } from './run-events.js';

/**
 * The executor's claim of a queued phase (issues 32 and 34): which runs an executor may take
 * (the effective execution mode of their workspace), in which order (a fair share across
 * organizations), and the conditional update that makes each phase execute once.
 */

/** What the executor gets when it claims a run: what to do and with what. */
export interface ClaimedRun {
  runId: string;
  workspaceId: string;
  phase: Phase;
  configurationVersionId: string;
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  planOnly: boolean;
  /** The run applies even when its plan has no changes (`allow-empty-apply`): its plan is saved then too. */
  allowEmptyApply: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  variables: RunVariable[];
  /** The run's `terraform-version`, else the workspace's (an exact version, a constraint, or `latest`). */
  terraformVersion: string;
  /** `run`: the version is the run's own (a plan-only run's); absent: the workspace's. */
  terraformVersionOf?: 'run';
  /** The workspace's `working-directory`: where in the configuration terraform runs (null: its root). */
  workingDirectory: string | null;
  /** The workspace's name: `terraform.workspace` in the run, as on HCP Terraform. */
  workspaceName: string;
  /** The workspace's organization: the run's CLI configuration names its provider mirror. */
  organizationName?: string;
  /** The registry hostnames that organization's mirror holds packages of (services/registry/mirror-hostnames.ts). */
  mirrorHostnames?: string[];
}

/** Who claims: `berth serve --execute-runs` (no target: `remote` workspaces) or an agent of a pool. */
export interface ClaimTarget {
  agentPoolId: string;
}

type Db = Kysely<DB>;
type Joined = ExpressionBuilder<DB, 'runs' | 'workspaces' | 'projects' | 'organizations'>;

const QUEUED: RunStatus[] = ['plan_queued', 'apply_queued'];
const EXECUTING: RunStatus[] = ['planning', 'applying'];

/**
 * The workspace's effective execution mode and agent pool, in SQL: the same chain as
 * `effectiveExecution` (domain/workspaces/execution.ts, through `executionOf`): the workspace's own setting
 * (`execution_mode` not null), else its project's when the project overrides
 * (`execution_overridden`), else its organization's default.
 */
const EFFECTIVE_MODE = sql<string>`case when workspaces.execution_mode is not null then workspaces.execution_mode when projects.execution_overridden = 1 then projects.default_execution_mode else organizations.default_execution_mode end`;
const EFFECTIVE_POOL = sql<
  string | null
>`case when workspaces.execution_mode is not null then workspaces.agent_pool_id when projects.execution_overridden = 1 then projects.default_agent_pool_id else organizations.default_agent_pool_id end`;

/** The runs `target` executes: `remote` workspaces without one, the pool's `agent` workspaces with one. */
function forTarget(target: ClaimTarget | undefined) {
  return (eb: Joined) =>
    target
      ? eb.and([eb(EFFECTIVE_MODE, '=', 'agent'), eb(EFFECTIVE_POOL, '=', target.agentPoolId)])
      : eb(EFFECTIVE_MODE, '=', 'remote');
}

/** Runs with their workspace, project and organization (what the effective execution mode reads). */
function runsWithWorkspace(db: Db) {
  return db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .innerJoin('projects', 'projects.id', 'workspaces.project_id')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id');
}

/**
 * The next queued phase for `target`, fairly across organizations: among the organizations with a
 * queued phase this target executes, the one with the fewest phases executing now (planning or
 * applying, on this target), ties to the one whose oldest queued phase is oldest; within it, its
 * oldest queued phase (by `seq`). One statement: the queued and the executing phases are found
 * through `runs_status` (status, seq), each joined to its workspace, project and organization by
 * primary key.
 */
function nextQueued(db: Db, target: ClaimTarget | undefined) {
  return db
    .with('queued', () =>
      runsWithWorkspace(db)
        .select((eb) => ['workspaces.organization_id as org', eb.fn.min('runs.seq').as('first_seq')])
        .where('runs.status', 'in', QUEUED)
        .where('runs.configuration_version_id', 'is not', null)
        .where(forTarget(target))
        .groupBy('workspaces.organization_id'),
    )
    .with('busy', () =>
      runsWithWorkspace(db)
        .select((eb) => ['workspaces.organization_id as org', eb.fn.countAll().as('n')])
        .where('runs.status', 'in', EXECUTING)
        .where('runs.configuration_version_id', 'is not', null)
        .where(forTarget(target))
        .groupBy('workspaces.organization_id'),
    )
    .selectFrom('runs')
    .selectAll('runs')
    .where('runs.seq', '=', (eb) =>
      eb
        .selectFrom('queued')
        .leftJoin('busy', 'busy.org', 'queued.org')
        .select('queued.first_seq')
        .orderBy(sql`coalesce(busy.n, 0)`)
        .orderBy('queued.first_seq')
        .limit(LIMIT_ONE),
    );
}

/**
 * Claims the next queued phase for this executor: a plan_queued run (-> planning) or an
 * apply_queued one (-> applying), chosen by `nextQueued` (a fair share across organizations).
 * Without `target`, only runs of workspaces whose effective execution mode is `remote`; with it,
 * only those whose effective mode is `agent` on `target.agentPoolId`. Runs of `local` workspaces
 * are never claimed. The update is conditional on the status it read, so two executors sharing a
 * PostgreSQL database never both claim a run (the loser reads again and takes the next). First,
 * workspaces whose queue can move on do.
 */
export async function claimRun(
  db: Db,
  executor: string,
  now: string,
  target?: { agentPoolId: string },
): Promise<ClaimedRun | null> {
  await writeTransaction(db, async (tx) => {
    const waiting = await tx
      .selectFrom('runs')
      .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
      .select('runs.workspace_id')
      .distinct()
      // Pending runs, and saved plans confirmed while their workspace was busy (or locked by someone).
      .where((eb) =>
        eb.or([
          eb('runs.status', '=', 'pending'),
          eb.and([eb('runs.status', '=', 'confirmed'), eb('runs.save_plan', '=', 1)]),
        ]),
      )
      .where('runs.configuration_version_id', 'is not', null)
      // Only unlocked workspaces: a locked one's queue cannot move (scheduleWorkspace leaves it), and
      // a pass that met the same hundred locked ones every time would never reach one just unlocked.
      .where('workspaces.locked', '=', 0)
      .limit(literalLimit(100))
      .execute();
    for (const w of waiting) await scheduleWorkspace(tx, w.workspace_id, now);
  });
  for (let attempt = 0; attempt < 5; attempt++) {
    const next = await nextQueued(db, target).executeTakeFirst();
    if (!next) return null;
    const phase: Phase = next.status === 'plan_queued' ? 'plan' : 'apply';
    const to: RunStatus = phase === 'plan' ? 'planning' : 'applying';
    const claimed = await writeTransaction(db, async (tx) => {
      const result = await tx
        .updateTable('runs')
        .set({
          status: to,
          claimed_by: executor,
          heartbeat_at: now,
          updated_at: now,
          status_timestamps: stamped(next, now, to),
          ...(phase === 'plan'
            ? { plan_status: 'running', plan_started_at: now }
            : { apply_status: 'running', apply_started_at: now }),
        })
        .where('id', '=', next.id)
        .where('status', '=', next.status)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await recordMove(tx, next.id, to, now);
      if (phase === 'plan') {
        // The state the plan reads: a saved plan made against it is stale once another is current.
        const ws = await tx
          .selectFrom('workspaces')
          .select('current_state_version_id')
          .where('id', '=', next.workspace_id)
          .executeTakeFirst();
        await tx
          .updateTable('runs')
          .set({ plan_state_version_id: ws?.current_state_version_id ?? null })
          .where('id', '=', next.id)
          .execute();
      }
      await tx
        .updateTable('workspaces')
        .set({ current_run_status: to })
        .where('id', '=', next.workspace_id)
        .where('current_run_id', '=', next.id)
        .execute();
      await appendLogTx(tx, next.id, phase, LOG_START);
      return true;
    });
    if (!claimed) continue;
    const ws = await db
      .selectFrom('workspaces')
      .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
      .select(['workspaces.terraform_version', 'workspaces.working_directory', 'workspaces.name'])
      .select(['organizations.name as org_name', 'organizations.id as org_id'])
      .where('workspaces.id', '=', next.workspace_id)
      .executeTakeFirst();
    return {
      runId: next.id,
      workspaceId: next.workspace_id,
      phase,
      configurationVersionId: next.configuration_version_id!,
      isDestroy: next.is_destroy === 1,
      refresh: next.refresh === 1,
      refreshOnly: next.refresh_only === 1,
      planOnly: next.plan_only === 1,
      allowEmptyApply: next.allow_empty_apply === 1,
      targetAddrs: json(next.target_addrs, []),
      replaceAddrs: json(next.replace_addrs, []),
      variables: json(next.variables, []),
      // A plan-only run's own version (migration 044) before its workspace's.
      terraformVersion: next.terraform_version ?? ws?.terraform_version ?? 'latest',
      ...(next.terraform_version ? { terraformVersionOf: 'run' as const } : {}),
      workingDirectory: ws?.working_directory || null,
      workspaceName: ws?.name ?? 'default',
      ...(ws ? { organizationName: ws.org_name, mirrorHostnames: await mirrorHostnames(db, ws.org_id) } : {}),
    };
  }
  return null;
}

/** Who executes a workspace's queued runs, and why `serve --execute-runs` does not (null reason: it does). */
export interface ClaimRoute {
  execution: ExecutionSetting & { source: ExecutionSource };
  /** Why the runs of this workspace are not claimed by `berth serve --execute-runs` (null: they are). */
  reason: string | null;
}

/**
 * Why a workspace's queued run is (not) being picked up, as far as its execution mode goes:
 * `remote` runs are claimed by `serve --execute-runs`; `agent` runs only by an agent of the pool
 * (whether that pool has agents is the agents' part to tell); `local` runs by no one. Null: no
 * such workspace. Reads the same chain as the claim's SQL (`executionOf`).
 */
export async function claimRouteOf(db: Db, workspaceId: string): Promise<ClaimRoute | null> {
  const row = await selectWorkspaces(db).where('workspaces.id', '=', workspaceId).executeTakeFirst();
  if (!row) return null;
  const execution = executionOf(row);
  const from = execution.source === 'workspace' ? 'its own setting' : `inherited from its ${execution.source}`;
  let reason: string | null = null;
  if (execution.mode === 'local')
    reason = `The workspace's execution mode is local (${from}): its runs execute in the Terraform CLI, berth executes none of them`;
  else if (execution.mode === 'agent')
    reason = `The workspace's execution mode is agent (${from}): its runs are executed only by an agent of pool ${execution.agentPoolId}`;
  return { execution, reason };
}
