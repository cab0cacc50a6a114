import type { Context } from 'hono';
import type { Run } from '../../../domain/runs/run.js';
import type { ExecutedRun } from '../../../domain/runs/run-execution.js';
import { getConfigurationVersion } from '../../../services/runs/configuration-versions.js';
import { logUrlPath } from '../../../services/runs/run-documents.js';
import { runCreator } from '../../../services/runs/run-creator.js';
import { loadWorkspaceIncludes } from '../../../services/workspaces/workspaces-include.js';
import { getWorkspace } from '../../../services/workspaces/workspaces-read.js';
import { API_PREFIX, toOne, type Relationship, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializePlan } from '../../serializers/run.js';
import {
  serializeConfigurationVersion,
  serializeExecutedApply,
  serializeExecutedPlan,
} from '../../serializers/run-execution.js';
import { serializeUserView } from '../../serializers/user.js';
import { serializeWorkspace } from '../../serializers/workspace.js';

/**
 * `GET /runs/:id?include=` (HCP's run includes). plan, apply, workspace, configuration_version and
 * created_by include their resources; cost_estimate, task_stages and
 * configuration_version.ingress_attributes are accepted and include nothing (berth has none).
 */
export const RUN_INCLUDES = [
  'plan',
  'apply',
  'created_by',
  'cost_estimate',
  'configuration_version',
  'configuration_version.ingress_attributes',
  'workspace',
  'task_stages',
] as const;

/** The phase documents of an executed run, with their signed log URLs. */
export async function phaseResource(c: Context<AppEnv>, run: ExecutedRun, phase: 'plan' | 'apply') {
  const id = `${phase}-${run.id.replace(/^run-/, '')}`;
  const url = `${new URL(c.req.url).origin}${API_PREFIX}/run-logs/${id}/${await logUrlPath(c.get('ctx'), id)}`;
  return phase === 'plan' ? serializeExecutedPlan(run, url) : serializeExecutedApply(run, url);
}

/**
 * The `included` resources of a run document, and the relationships that change with them
 * (`created-by`, known only when included). Each resource the caller could not read is left out.
 */
export async function runIncluded(
  c: Context<AppEnv>,
  run: Run,
  include: Set<string>,
): Promise<{ included: ResourceObject[]; relationships: Record<string, Relationship> }> {
  const ctx = c.get('ctx');
  const included: ResourceObject[] = [];
  const relationships: Record<string, Relationship> = {};
  const executed = 'execution' in run ? (run as ExecutedRun) : null;
  if (include.has('plan')) included.push(executed ? await phaseResource(c, executed, 'plan') : serializePlan(run));
  if (include.has('apply') && executed) included.push(await phaseResource(c, executed, 'apply'));
  if (include.has('workspace')) {
    const ws = await getWorkspace(ctx, { id: run.workspaceId });
    const inc = await loadWorkspaceIncludes(ctx, [ws], new Set());
    included.push(
      serializeWorkspace(ws, {
        edition: ctx.settings.edition,
        effectiveTagBindings: inc.effectiveTagBindings?.get(ws.id),
        outputs: inc.outputs.get(ws.id),
        variableIds: inc.variableIds.get(ws.id),
      }),
    );
  }
  if (executed && (include.has('configuration_version') || include.has('configuration_version.ingress_attributes'))) {
    const cv = await getConfigurationVersion(ctx, executed.execution.configurationVersionId).catch(() => null);
    if (cv) included.push(serializeConfigurationVersion(cv, new URL(c.req.url).origin));
  }
  if (include.has('created_by')) {
    const creator = await runCreator(ctx, run.id);
    relationships['created-by'] = creator
      ? toOne('users', creator.user.id, `${API_PREFIX}/users/${creator.user.id}`)
      : { data: null };
    if (creator) included.push(serializeUserView(creator));
  }
  return { included, relationships };
}
