import { assessmentsProblem } from '../../domain/runs/assessments.js';
import { defaultRemoteStateAccess } from '../instance/general-settings.js';
import { forbidden, invalid, notAuthorized } from '../../domain/common/errors.js';
import { defaultEngineVersion } from '../../domain/workspaces/engine-version.js';
import { newId } from '../../domain/common/ids.js';
import { computeMetrics } from '../../domain/runs/run.js';
import { can, scoped, type OrgFacts } from '../../domain/permissions/policy.js';
import type { TagBindingInput } from '../../domain/workspaces/tags.js';
import {
  mergeVcsRepo,
  nameTakenError,
  resolveExecution,
  resolveTriggers,
  type VcsRepo,
  type Workspace,
  type WorkspaceInput,
} from '../../domain/workspaces/workspace.js';
import type { Insertable, Updateable } from 'kysely';
import type { WorkspacesTable } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { isProjectAdmin } from '../access.js';
import { addTagRefs } from './flat-tags.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { checkTagOverrides } from '../organizations/reserved-tag-keys.js';
import { findProjectRow } from '../projects/projects-read.js';
import {
  findWorkspaceRow,
  parseList,
  parseVcsRepo,
  readableWorkspace,
  tagNamesOf,
  toWorkspace,
  workspaceOf,
  type WorkspaceRef,
} from './workspaces-read.js';
import { bindingOwner, moveBindings } from './workspace-seq.js';
import { leaveOtherProjectsSets } from '../variables/varset-ownership.js';
import { inOrganizationNamed, inWorkspaceOrganization } from '../write-scope.js';

const b = (v: boolean) => (v ? 1 : 0);
const TAG_BINDINGS_POINTER = '/data/relationships/tag-bindings/data';

const sameName = memoQuery((db, p: { organizationId: string; nameLower: string }) =>
  db
    .selectFrom('workspaces')
    .select('id')
    .where('organization_id', '=', p.organizationId)
    .where('name_lower', '=', p.nameLower),
);

/** Whether another workspace of the organization has the name (names are unique per organization). */
async function nameTaken(tx: Tx, organizationId: string, name: string, exceptId?: string): Promise<boolean> {
  const holder = await sameName.first(tx, { organizationId, nameLower: name.toLowerCase() });
  return holder !== undefined && holder.id !== exceptId;
}

const insertWorkspace = memoQuery((db, row: Insertable<WorkspacesTable>) => db.insertInto('workspaces').values(row));

/** The project of the request, which must belong to the organization (422 otherwise). */
async function projectInOrganization(tx: Tx, organizationId: string, projectId: string) {
  const project = await findProjectRow(tx, projectId);
  if (!project || project.organization_id !== organizationId) {
    throw invalid('/data/relationships/project/data/id', `Project ${projectId} not found in this organization`);
  }
  return project;
}

/**
 * The pool a workspace asks for must be of its organization and serve it: organization-scoped,
 * or listing the workspace among its allowed workspaces (a new workspace is in no list yet).
 */
async function checkAgentPool(
  tx: Tx,
  organizationId: string,
  agentPoolId: string,
  workspaceId: string | null,
): Promise<void> {
  const pool = await tx
    .selectFrom('agent_pools')
    .select(['id', 'organization_scoped'])
    .where('id', '=', agentPoolId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!pool)
    throw invalid('/data/attributes/agent-pool-id', `Agent pool ${agentPoolId} not found in this organization`);
  if (pool.organization_scoped === 1) return;
  const allowed = workspaceId
    ? await tx
        .selectFrom('agent_pool_allowed_workspaces')
        .select('seq')
        .where('agent_pool_id', '=', agentPoolId)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst()
    : undefined;
  if (!allowed)
    throw invalid(
      '/data/attributes/agent-pool-id',
      `Agent pool ${agentPoolId} is not organization-scoped and does not allow this workspace`,
    );
}

/** Checks the repository's OAuth token (when it changed) and records its service provider. */
async function checkVcsRepo(
  tx: Tx,
  organizationId: string,
  repo: VcsRepo | null,
  previous: VcsRepo | null,
): Promise<VcsRepo | null> {
  if (!repo?.oauthTokenId || repo.oauthTokenId === previous?.oauthTokenId) return repo;
  const token = await tx
    .selectFrom('oauth_tokens')
    .select(['id', 'service_provider'])
    .where('id', '=', repo.oauthTokenId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!token)
    throw invalid(
      '/data/attributes/vcs-repo/oauth-token-id',
      `OAuth token ${repo.oauthTokenId} not found in this organization`,
    );
  return { ...repo, serviceProvider: token.service_provider };
}

async function replaceTagBindings(
  tx: Tx,
  workspaceId: string,
  bindings: TagBindingInput[],
  now: string,
): Promise<void> {
  await tx.deleteFrom('workspace_tag_bindings').where('workspace_id', '=', workspaceId).execute();
  for (const binding of bindings) {
    await tx
      .insertInto('workspace_tag_bindings')
      .values({
        id: newId('tb'),
        ...bindingOwner(tx, workspaceId),
        key: binding.key,
        value: binding.value,
        created_at: now,
      })
      .execute();
  }
}

/**
 * A request that turns assessments on must leave the workspace able to run them (remote or agent
 * mode, engine version 0.15.4 or later); the 422 rolls the whole write back.
 */
function checkAssessments(ws: Workspace, input: WorkspaceInput): Workspace {
  if (input.assessmentsEnabled !== true) return ws;
  const problem = assessmentsProblem(ws.executionMode, ws.terraformVersion);
  if (problem) throw invalid('/data/attributes/assessments-enabled', problem);
  return ws;
}

/**
 * The answer of a create or an update: the workspace as its transaction left it, read once
 * inside that transaction, with the caller's organization facts the write already loaded and
 * checked (a second permission check would read them again).
 */
/**
 * An `auto-destroy-at` already past would destroy the workspace at the scheduler's next round,
 * which nobody asking for it means: refused (issue 46). The time already stored is taken as it
 * is, past or not (clients such as the tfe provider send every attribute again on update).
 */
function checkAutoDestroyAt(ctx: ServiceContext, at: string | null | undefined, stored: string | null = null): void {
  if (!at || at === stored) return;
  const now = ctx.clock.now();
  if (Date.parse(at) < now.getTime())
    throw invalid(
      '/data/attributes/auto-destroy-at',
      `Auto destroy at must be in the future: ${at} has passed (it is now ${now.toISOString()}), and the workspace would be destroyed at once`,
    );
}

async function answerOf(ctx: ServiceContext, tx: Tx, id: string, facts: OrgFacts): Promise<Workspace> {
  return workspaceOf(ctx, tx, (await findWorkspaceRow(tx, { id }))!, facts);
}

/**
 * `answerOf` for a workspace its own transaction just created: it has no runs (the metrics of
 * none) and no data retention policy, and tags only if the request added some, so only its row
 * (with its organization's and project's columns) is read.
 */
async function createdAnswer(
  ctx: ServiceContext,
  tx: Tx,
  id: string,
  facts: OrgFacts,
  tagged: boolean,
): Promise<Workspace> {
  const row = (await findWorkspaceRow(tx, { id }))!;
  const tags = tagged ? ((await tagNamesOf(tx, [id])).get(id) ?? []) : [];
  return { ...toWorkspace(ctx, row, facts, tags), metrics: computeMetrics([]), dataRetentionPolicy: null };
}

/** Creates a workspace in the organization (its default project unless the request names one). */
export async function createWorkspace(
  ctx: ServiceContext,
  organization: string,
  input: WorkspaceInput,
): Promise<Workspace> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    const mayCreateSomewhere =
      can(ctx.actor, 'workspace:create', facts) ||
      (facts.projectGrants ?? []).some((g) =>
        can(ctx.actor, 'workspace:create', scoped(facts, { projectId: g.projectId })),
      );
    if (!mayCreateSomewhere) throw notAuthorized(`create workspaces in organization ${org.name}`);
    const project = await projectInOrganization(tx, org.id, input.projectId ?? org.default_project_id);
    const target = scoped(facts, { projectId: project.id });
    // A named project the caller may not read is reported like an unknown one.
    if (input.projectId && !can(ctx.actor, 'project:read', target)) {
      throw invalid('/data/relationships/project/data/id', `Project ${input.projectId} not found in this organization`);
    }
    if (!can(ctx.actor, 'workspace:create', target)) {
      throw notAuthorized(`create workspaces in project ${project.id}`);
    }
    const name = input.name!;
    checkAutoDestroyAt(ctx, input.autoDestroyAt);
    if (await nameTaken(tx, org.id, name)) throw nameTakenError();
    if (input.tagBindings) await checkTagOverrides(tx, org.id, project.id, input.tagBindings, TAG_BINDINGS_POINTER);
    const execution = resolveExecution({ mode: null, agentPoolId: null }, input);
    const triggers = resolveTriggers(null, input);
    if (input.agentPoolId && execution.agentPoolId) await checkAgentPool(tx, org.id, execution.agentPoolId, null);
    const vcsRepo = await checkVcsRepo(tx, org.id, mergeVcsRepo(null, input.vcsRepo), null);
    const overridden = input.autoDestroyActivityDuration !== undefined || input.inheritsProjectAutoDestroy === false;
    const now = ctx.clock.now().toISOString();
    const id = newId('ws');
    await insertWorkspace.execute(tx, {
      id,
      organization_id: org.id,
      project_id: project.id,
      name,
      name_lower: name.toLowerCase(),
      description: input.description ?? null,
      allow_destroy_plan: b(input.allowDestroyPlan ?? true),
      assessments_enabled: b(input.assessmentsEnabled ?? false),
      auto_apply: b(input.autoApply ?? false),
      auto_apply_run_trigger: b(input.autoApplyRunTrigger ?? false),
      auto_destroy_at: input.autoDestroyAt ?? null,
      auto_destroy_activity_duration: input.autoDestroyActivityDuration ?? null,
      auto_destroy_overridden: b(overridden),
      execution_mode: execution.mode,
      agent_pool_id: execution.agentPoolId,
      file_triggers_enabled: b(input.fileTriggersEnabled ?? true),
      global_remote_state: b(input.globalRemoteState ?? (await defaultRemoteStateAccess(tx, ctx))),
      queue_all_runs: b(input.queueAllRuns ?? false),
      source: 'tfe-api',
      source_name: input.sourceName ?? null,
      source_url: input.sourceUrl ?? null,
      speculative_enabled: b(input.speculativeEnabled ?? true),
      structured_run_output_enabled: b(input.structuredRunOutputEnabled ?? true),
      terraform_version: input.terraformVersion ?? defaultEngineVersion(ctx.settings.terraformVersion),
      trigger_patterns: JSON.stringify(triggers.patterns),
      trigger_prefixes: JSON.stringify(triggers.prefixes),
      working_directory: input.workingDirectory ?? null,
      vcs_repo: vcsRepo ? JSON.stringify(vcsRepo) : null,
      vcs_oauth_token_id: vcsRepo?.oauthTokenId ?? null,
      locked: 0,
      resource_count: 0,
      latest_change_at: now,
      created_at: now,
      updated_at: now,
    });
    if (input.tagBindings) await replaceTagBindings(tx, id, input.tagBindings, now);
    if (input.tags) await addTagRefs(tx, org.id, id, input.tags, now, '/data/relationships/tags/data');
    return checkAssessments(await createdAnswer(ctx, tx, id, facts, input.tags !== undefined), input);
  });
}

/**
 * Updates a workspace: omitted members keep their values; a new name changes the by-name URL;
 * `relationships.project` moves it (admin on both projects); `tag-bindings` replaces the own
 * bindings when present.
 */
export async function updateWorkspace(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  input: WorkspaceInput,
): Promise<Workspace> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:update', facts)) throw notAuthorized(`update workspace ${row.name} (${row.id})`);
    const changes: Updateable<WorkspacesTable> = {};

    if (input.name !== undefined && input.name !== row.name) {
      if (await nameTaken(tx, row.organization_id, input.name, row.id)) throw nameTakenError();
      changes.name = input.name;
      changes.name_lower = input.name.toLowerCase();
    }
    if (input.projectId !== undefined && input.projectId !== row.project_id) {
      const destination = await projectInOrganization(tx, row.organization_id, input.projectId);
      if (!isProjectAdmin(ctx.actor, facts, row.project_id) || !isProjectAdmin(ctx.actor, facts, destination.id)) {
        const source = await findProjectRow(tx, row.project_id);
        throw forbidden(
          `not authorized to move workspace ${row.name} (${row.id}) from project ${source?.name ?? ''} (${row.project_id}) to project ${destination.name} (${destination.id})`,
        );
      }
      changes.project_id = destination.id;
    }
    const touchesExecution =
      input.executionMode !== undefined ||
      input.operations !== undefined ||
      input.agentPoolId !== undefined ||
      input.settingOverwrites !== undefined;
    if (touchesExecution) {
      const execution = resolveExecution({ mode: row.execution_mode as never, agentPoolId: row.agent_pool_id }, input);
      if (input.agentPoolId && execution.agentPoolId === input.agentPoolId)
        await checkAgentPool(tx, row.organization_id, input.agentPoolId, row.id);
      changes.execution_mode = execution.mode;
      changes.agent_pool_id = execution.agentPoolId;
    }
    if (input.vcsRepo !== undefined) {
      const previous = parseVcsRepo(row.vcs_repo);
      const repo = await checkVcsRepo(tx, row.organization_id, mergeVcsRepo(previous, input.vcsRepo), previous);
      changes.vcs_repo = repo ? JSON.stringify(repo) : null;
      changes.vcs_oauth_token_id = repo?.oauthTokenId ?? null;
    }
    if (input.autoDestroyActivityDuration !== undefined) {
      changes.auto_destroy_activity_duration = input.autoDestroyActivityDuration;
      changes.auto_destroy_overridden = 1;
    } else if (input.inheritsProjectAutoDestroy === true) {
      changes.auto_destroy_activity_duration = null;
      changes.auto_destroy_overridden = 0;
    } else if (input.inheritsProjectAutoDestroy === false && row.auto_destroy_overridden !== 1) {
      // Stop inheriting: keep the value in force now as the workspace's own.
      changes.auto_destroy_activity_duration = row.project_auto_destroy;
      changes.auto_destroy_overridden = 1;
    }
    if (input.description !== undefined) changes.description = input.description;
    if (input.allowDestroyPlan !== undefined) changes.allow_destroy_plan = b(input.allowDestroyPlan);
    if (input.assessmentsEnabled !== undefined) changes.assessments_enabled = b(input.assessmentsEnabled);
    if (input.autoApply !== undefined) changes.auto_apply = b(input.autoApply);
    if (input.autoApplyRunTrigger !== undefined) changes.auto_apply_run_trigger = b(input.autoApplyRunTrigger);
    if (input.autoDestroyAt !== undefined) {
      checkAutoDestroyAt(ctx, input.autoDestroyAt, row.auto_destroy_at);
      changes.auto_destroy_at = input.autoDestroyAt;
    }
    if (input.fileTriggersEnabled !== undefined) changes.file_triggers_enabled = b(input.fileTriggersEnabled);
    if (input.globalRemoteState !== undefined) changes.global_remote_state = b(input.globalRemoteState);
    if (input.queueAllRuns !== undefined) changes.queue_all_runs = b(input.queueAllRuns);
    if (input.speculativeEnabled !== undefined) changes.speculative_enabled = b(input.speculativeEnabled);
    if (input.structuredRunOutputEnabled !== undefined)
      changes.structured_run_output_enabled = b(input.structuredRunOutputEnabled);
    if (input.terraformVersion !== undefined) changes.terraform_version = input.terraformVersion;
    if (
      input.triggerPatterns !== undefined ||
      input.triggerPrefixes !== undefined ||
      input.fileTriggersEnabled !== undefined
    ) {
      const current = {
        fileTriggersEnabled: row.file_triggers_enabled === 1,
        patterns: parseList(row.trigger_patterns),
        prefixes: parseList(row.trigger_prefixes),
      };
      const triggers = resolveTriggers(current, input);
      if (input.triggerPatterns !== undefined || JSON.stringify(triggers.patterns) !== row.trigger_patterns)
        changes.trigger_patterns = JSON.stringify(triggers.patterns);
      if (input.triggerPrefixes !== undefined || JSON.stringify(triggers.prefixes) !== row.trigger_prefixes)
        changes.trigger_prefixes = JSON.stringify(triggers.prefixes);
    }
    if (input.workingDirectory !== undefined) changes.working_directory = input.workingDirectory;

    if (input.tagBindings !== undefined)
      await checkTagOverrides(
        tx,
        row.organization_id,
        changes.project_id ?? row.project_id,
        input.tagBindings,
        TAG_BINDINGS_POINTER,
      );
    const now = ctx.clock.now().toISOString();
    if (Object.keys(changes).length > 0 || input.tagBindings !== undefined || input.tags !== undefined) {
      changes.updated_at = now;
      await tx.updateTable('workspaces').set(changes).where('id', '=', row.id).execute();
    }
    if (changes.project_id !== undefined) {
      await moveBindings(tx, [row.id], changes.project_id);
      await leaveOtherProjectsSets(tx, [row.id], changes.project_id);
    }
    if (input.tagBindings !== undefined) await replaceTagBindings(tx, row.id, input.tagBindings, now);
    if (input.tags !== undefined)
      await addTagRefs(tx, row.organization_id, row.id, input.tags, now, '/data/relationships/tags/data');
    return checkAssessments(await answerOf(ctx, tx, row.id, facts), input);
  });
}
