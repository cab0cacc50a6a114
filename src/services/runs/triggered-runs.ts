import type { AuditActor } from '../../domain/audit/audit.js';
import { triggeredRunMessage } from '../../domain/workspaces/run-triggers.js';
import type { Tx } from '../../store/transaction.js';
import { recordAuditEvent } from '../audit/audit-trail.js';
import { claimRouteOf } from './run-claim.js';
import { insertAndQueue, newRunRow } from './run-queue.js';
import type { RunRow } from './run-rows.js';

/**
 * What a run trigger does (docs/api.md, "Run triggers"): when a run of a source workspace
 * applies, each workspace the source triggers gets a run, queued in the transaction that records
 * the apply's end (run-phases.ts `finishPhase`), so that no trigger is lost if serve stops between
 * the two and none fires twice. The run plans the target's current configuration version, has
 * the source `tfe-run-trigger` and no creator, and applies by itself only when the target's
 * `auto-apply-run-trigger` is true. A target without a current configuration version, or whose
 * execution mode is local (its runs execute in the Terraform CLI), gets no run.
 */

/** The actor of the runs that triggers queue, in the audit trail: berth itself, no token. */
export const RUN_TRIGGER_ACTOR: AuditActor = { kind: 'berth', id: null, tokenId: null, name: 'run-trigger' };

/** Why a target got no run (or `queued`, with the run's id). */
export type TriggerOutcome =
  | { workspaceId: string; outcome: 'queued'; runId: string }
  | { workspaceId: string; outcome: 'no-configuration' | 'local-execution' };

/** Queues the runs the triggers of `source`'s workspace start; answers what each target got. */
export async function queueTriggeredRuns(
  tx: Tx,
  source: Pick<RunRow, 'id' | 'workspace_id'>,
  now: string,
  executesRuns: boolean,
): Promise<TriggerOutcome[]> {
  const targets = await tx
    .selectFrom('run_triggers')
    .innerJoin('workspaces', 'workspaces.id', 'run_triggers.workspace_id')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select([
      'workspaces.id',
      'workspaces.auto_apply_run_trigger',
      'workspaces.current_configuration_version_id',
      'workspaces.organization_id',
      'organizations.name as org_name',
    ])
    .where('run_triggers.sourceable_id', '=', source.workspace_id)
    .orderBy('run_triggers.seq')
    .execute();
  if (targets.length === 0) return [];
  const from = await tx
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(['workspaces.name', 'organizations.name as org_name'])
    .where('workspaces.id', '=', source.workspace_id)
    .executeTakeFirstOrThrow();
  const message = triggeredRunMessage(source.id, from.org_name, from.name);
  const outcomes: TriggerOutcome[] = [];
  for (const ws of targets) {
    if ((await claimRouteOf(tx, ws.id))?.execution.mode === 'local') {
      outcomes.push({ workspaceId: ws.id, outcome: 'local-execution' });
      continue;
    }
    if (!ws.current_configuration_version_id) {
      outcomes.push({ workspaceId: ws.id, outcome: 'no-configuration' });
      continue;
    }
    const row = {
      ...newRunRow(
        ws.id,
        {
          configurationVersionId: ws.current_configuration_version_id,
          message,
          isDestroy: false,
          refresh: true,
          refreshOnly: false,
          planOnly: false,
          autoApply: ws.auto_apply_run_trigger === 1,
          allowEmptyApply: false,
          targetAddrs: [],
          replaceAddrs: [],
          variables: [],
        },
        { kind: null, id: null },
        now,
      ),
      source: 'tfe-run-trigger',
    };
    await insertAndQueue(tx, row, now, executesRuns, null);
    await recordAuditEvent(tx, {
      time: now,
      action: 'run.run-trigger',
      actor: RUN_TRIGGER_ACTOR,
      subject: {
        target: { type: 'runs', id: row.id, name: null },
        organizationId: ws.organization_id,
        organizationName: ws.org_name,
        workspaceId: ws.id,
      },
      requestId: null,
    });
    outcomes.push({ workspaceId: ws.id, outcome: 'queued', runId: row.id });
  }
  return outcomes;
}
