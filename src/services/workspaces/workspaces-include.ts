import type { Organization } from '../../domain/organizations/organization.js';
import type { Project } from '../../domain/projects/project.js';
import type { Run } from '../../domain/runs/run.js';
import type { ExecutedRun } from '../../domain/runs/run-execution.js';
import type { StateVersion, StateVersionOutput } from '../../domain/state/state-version.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { getRun } from '../runs/runs.js';
import { configurationVersionsOf, type ConfigurationVersionView } from '../runs/configuration-versions.js';
import { getExecutedRun } from '../runs/run-documents.js';
import { currentOutputsOf } from '../state/state-outputs.js';
import { getStateVersion } from '../state/state-versions.js';
import { loadLockHolders, type LockHolders } from './workspace-lock-holders.js';

/** An output of a workspace's current state (`include=outputs`), sensitive value hidden. */
export type WorkspaceOutput = StateVersionOutput;
import { orgFacts } from '../access.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import type { ServiceContext } from '../context.js';
import { getOrganization } from '../organizations/organizations.js';
import { findProjectRow, projectCounts, toProject } from '../projects/projects-read.js';
import { effectiveTagBindingsOf, type EffectiveTagBinding } from './workspaces-read.js';

/** The related records `include` asks for that have data yet (organization, project, tags). */
export interface WorkspaceIncludes {
  organizations: Organization[];
  projects: Project[];
  /** Current runs (`current_run`, `current_run.plan`), executed ones with what they executed. */
  runs: Run[];
  /**
   * The current configuration versions (`current_configuration_version`) and those of the current
   * runs (`current_run.configuration_version`), each once; with `.ingress_attributes` too, which
   * adds nothing more (berth has no VCS, so no version has ingress attributes).
   */
  configurationVersions: ConfigurationVersionView[];
  /** Current state versions (`current_state_version`). */
  stateVersions: StateVersion[];
  /** Outputs of each workspace's current state (`outputs`); sensitive values hidden. */
  outputs: Map<string, WorkspaceOutput[]>;
  effectiveTagBindings?: Map<string, EffectiveTagBinding[]>;
  /** Who holds the locks (`locked_by`). */
  lockHolders?: LockHolders;
  /**
   * The ids of each workspace's variables in creation order (the `vars` relationship, always
   * loaded, as HCP always lists them), for the workspaces whose variables the caller may read.
   */
  variableIds: Map<string, string[]>;
}

export async function loadWorkspaceIncludes(
  ctx: ServiceContext,
  workspaces: Workspace[],
  include: Set<string>,
): Promise<WorkspaceIncludes> {
  const out: WorkspaceIncludes = {
    organizations: [],
    projects: [],
    runs: [],
    configurationVersions: [],
    stateVersions: [],
    outputs: new Map(),
    variableIds: new Map(),
  };
  if (workspaces.length === 0) return out;
  const withVariables = workspaces.filter((w) => w.permissions.canReadVariable).map((w) => w.id);
  if (withVariables.length > 0) {
    const rows = await ctx.db
      .selectFrom('workspace_variables')
      .select(['id', 'workspace_id'])
      .where('workspace_id', 'in', withVariables)
      .orderBy('seq')
      .execute();
    for (const r of rows) out.variableIds.set(r.workspace_id, [...(out.variableIds.get(r.workspace_id) ?? []), r.id]);
  }
  if (include.has('organization')) {
    for (const name of new Set(workspaces.map((w) => w.organizationName)))
      out.organizations.push(await getOrganization(ctx, name));
  }
  if (include.has('project')) {
    const facts = await orgFacts(ctx.db, ctx.actor, workspaces[0].organizationId);
    for (const id of new Set(workspaces.map((w) => w.projectId))) {
      const row = await findProjectRow(ctx.db, id);
      // Only projects the caller may read are sideloaded (a workspace grant does not reach its project).
      if (row && can(ctx.actor, 'project:read', scoped(facts, { projectId: id })))
        out.projects.push(toProject(ctx, row, workspaces[0].organizationName, facts, await projectCounts(ctx.db, id)));
    }
  }
  if ([...include].some((i) => i.startsWith('current_run'))) {
    for (const w of workspaces)
      if (w.currentRunId)
        out.runs.push((await getExecutedRun(ctx, w.currentRunId)) ?? (await getRun(ctx, w.currentRunId)));
  }
  const cvIds = new Set<string>();
  if ([...include].some((i) => i.startsWith('current_configuration_version')))
    for (const w of workspaces) if (w.currentConfigurationVersionId) cvIds.add(w.currentConfigurationVersionId);
  if ([...include].some((i) => i.startsWith('current_run.configuration_version')))
    for (const run of out.runs)
      if ('execution' in run) cvIds.add((run as ExecutedRun).execution.configurationVersionId);
  out.configurationVersions = await configurationVersionsOf(ctx.db, [...cvIds]);
  if (include.has('current_state_version')) {
    for (const w of workspaces)
      if (w.currentStateVersionId && w.permissions.canReadStateVersions)
        out.stateVersions.push(await getStateVersion(ctx, w.currentStateVersionId));
  }
  if (include.has('outputs')) {
    const readable = workspaces.filter((w) => w.permissions.canReadStateOutputs);
    const byVersion = await currentOutputsOf(
      ctx.db,
      readable.flatMap((w) => (w.currentStateVersionId ? [w.currentStateVersionId] : [])),
    );
    for (const w of readable) out.outputs.set(w.id, byVersion.get(w.currentStateVersionId ?? '') ?? []);
  }
  if (include.has('locked_by')) out.lockHolders = await loadLockHolders(ctx, workspaces);
  if (include.has('effective_tag_bindings')) {
    out.effectiveTagBindings = await effectiveTagBindingsOf(
      ctx.db,
      workspaces.map((w) => ({ id: w.id, projectId: w.projectId })),
    );
  }
  return out;
}
