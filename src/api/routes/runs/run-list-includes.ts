import type { Context } from 'hono';
import type { Run } from '../../../domain/runs/run.js';
import type { ExecutedRun } from '../../../domain/runs/run-execution.js';
import { getConfigurationVersion } from '../../../services/runs/configuration-versions.js';
import { runCreator } from '../../../services/runs/run-creator.js';
import { readableWorkspacesByIds } from '../../../services/workspaces/workspaces-by-ids.js';
import { loadWorkspaceIncludes } from '../../../services/workspaces/workspaces-include.js';
import { API_PREFIX, toOne, type Relationship, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializeExecutedRun, serializeConfigurationVersion } from '../../serializers/run-execution.js';
import { serializeRun } from '../../serializers/run.js';
import { serializeUserView } from '../../serializers/user.js';
import { serializeWorkspace } from '../../serializers/workspace.js';
import { phaseResource } from './run-includes.js';

const executedOf = (run: Run) => ('execution' in run ? (run as ExecutedRun) : null);

/**
 * The `included` of a page of runs (`GET /workspaces/:id/runs`, `GET /organizations/:org/runs`),
 * the includes of `GET /runs/:id` for every run of the page, each resource once:
 * - `plan`, `apply`: the phases of executed runs, with their resource counts (a recorded run's
 *   plan is not listed: `berth run list` reads the counts of the phases it is given);
 * - `workspace`: the runs' workspaces, read together;
 * - `configuration_version`: those of executed runs;
 * - `created_by`: the users whose tokens created the runs, as `GET /runs/:id` shows them, with
 *   each run's `created-by` relationship (set only with this include).
 * Each resource the caller could not read is left out.
 */
export async function runListIncluded(c: Context<AppEnv>, runs: Run[], include: Set<string>) {
  const ctx = c.get('ctx');
  const included: ResourceObject[] = [];
  const relationships = new Map<string, Record<string, Relationship>>();
  for (const run of runs) {
    const executed = executedOf(run);
    if (!executed) continue;
    for (const phase of ['plan', 'apply'] as const)
      if (include.has(phase)) included.push(await phaseResource(c, executed, phase));
  }
  if (include.has('workspace')) {
    const workspaces = await readableWorkspacesByIds(
      ctx,
      runs.map((r) => r.workspaceId),
    );
    const inc = await loadWorkspaceIncludes(ctx, workspaces, new Set());
    for (const ws of workspaces)
      included.push(
        serializeWorkspace(ws, {
          edition: ctx.settings.edition,
          effectiveTagBindings: inc.effectiveTagBindings?.get(ws.id),
          outputs: inc.outputs.get(ws.id),
          variableIds: inc.variableIds.get(ws.id),
        }),
      );
  }
  if (include.has('configuration_version') || include.has('configuration_version.ingress_attributes')) {
    const ids = new Set(runs.map((r) => executedOf(r)?.execution.configurationVersionId).filter((id) => id));
    for (const id of ids) {
      const cv = await getConfigurationVersion(ctx, id!).catch(() => null);
      if (cv) included.push(serializeConfigurationVersion(cv, new URL(c.req.url).origin));
    }
  }
  if (include.has('created_by')) {
    for (const run of runs) {
      const creator = await runCreator(ctx, run.id);
      relationships.set(run.id, {
        'created-by': creator
          ? toOne('users', creator.user.id, `${API_PREFIX}/users/${creator.user.id}`)
          : { data: null },
      });
      if (creator) included.push(serializeUserView(creator));
    }
  }
  return { included, relationships };
}

/** A run of a list as its document, with the relationships its page's includes set. */
export function runListDocument(run: Run, relationships: Map<string, Record<string, Relationship>>): ResourceObject {
  const executed = executedOf(run);
  const doc = executed ? serializeExecutedRun(executed) : serializeRun(run);
  const more = relationships.get(run.id);
  return more ? { ...doc, relationships: { ...doc.relationships, ...more } } : doc;
}
