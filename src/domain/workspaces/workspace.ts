import * as v from 'valibot';
import { bool, checkAttributes, nullable, oneOf, opt, str, text } from '../common/attributes.js';
import { MAX_TRIGGER_ENTRIES, TEXT_LIMITS as L } from '../common/limits.js';
import { DURATION_FORMAT_DETAIL, isValidDuration } from '../common/duration.js';
import { isValidEngineVersion } from './engine-version.js';
import { BerthError, Problems } from '../common/errors.js';
import { EXECUTION_MODES, type ExecutionMode } from '../organizations/organization.js';
import { parseFlatTagRefs, type FlatTagRef } from './flat-tags.js';
import { parseTimestamp } from '../common/timestamp.js';
import { checkBindingCount, parseTagBindings, type TagBindingInput } from './tags.js';

export type Edition = 'self-hosted' | 'hosted';

/** The VCS repository of a workspace as berth stores it. */
export interface VcsRepo {
  identifier: string;
  branch: string;
  ingressSubmodules: boolean;
  oauthTokenId: string | null;
  githubAppInstallationId: string | null;
  tagsRegex: string | null;
  serviceProvider: string | null;
}

/** The keys of a `vcs-repo` request object; undefined = not given. */
export interface VcsRepoInput {
  identifier?: string;
  branch?: string | null;
  ingressSubmodules?: boolean;
  oauthTokenId?: string | null;
  githubAppInstallationId?: string | null;
  tagsRegex?: string | null;
}

/** A validated create or update request; undefined means "not given" (keep on update). */
export interface WorkspaceInput {
  name?: string;
  agentPoolId?: string | null;
  allowDestroyPlan?: boolean;
  assessmentsEnabled?: boolean;
  autoApply?: boolean;
  autoApplyRunTrigger?: boolean;
  autoDestroyAt?: string | null;
  autoDestroyActivityDuration?: string | null;
  inheritsProjectAutoDestroy?: boolean;
  description?: string | null;
  executionMode?: ExecutionMode;
  operations?: boolean;
  fileTriggersEnabled?: boolean;
  globalRemoteState?: boolean;
  queueAllRuns?: boolean;
  sourceName?: string | null;
  sourceUrl?: string | null;
  speculativeEnabled?: boolean;
  structuredRunOutputEnabled?: boolean;
  terraformVersion?: string;
  triggerPatterns?: string[];
  triggerPrefixes?: string[];
  workingDirectory?: string | null;
  settingOverwrites?: { executionMode?: boolean; agentPool?: boolean };
  /** null removes the repository (update). */
  vcsRepo?: VcsRepoInput | null;
  /** From `relationships.project`; undefined when absent or blank. */
  projectId?: string;
  /** From `relationships.tag-bindings`; undefined when absent. */
  tagBindings?: TagBindingInput[];
  /** From `relationships.tags` (flat tags to add, by id or name); undefined when absent. */
  tags?: FlatTagRef[];
}

export interface WorkspacePermissions {
  canUpdate: boolean;
  canDestroy: boolean;
  canForceDelete: boolean;
  canRead: boolean;
  canLock: boolean;
  canForceUnlock: boolean;
  canQueueRun: boolean;
  canQueueApply: boolean;
  canReadVariable: boolean;
  canUpdateVariable: boolean;
  canReadStateVersions: boolean;
  canReadStateOutputs: boolean;
  canCreateStateVersions: boolean;
  canManageRunTasks: boolean;
}

/** A workspace as services return it: effective values resolved, permissions for the caller. */
export interface Workspace {
  id: string;
  organizationId: string;
  organizationName: string;
  projectId: string;
  name: string;
  description: string | null;
  allowDestroyPlan: boolean;
  assessmentsEnabled: boolean;
  autoApply: boolean;
  autoApplyRunTrigger: boolean;
  autoDestroyAt: string | null;
  autoDestroyActivityDuration: string | null;
  inheritsProjectAutoDestroy: boolean;
  /** The effective mode and pool: the workspace's own, else its project's, else its organization's. */
  executionMode: ExecutionMode;
  executionModeOverridden: boolean;
  agentPoolId: string | null;
  fileTriggersEnabled: boolean;
  globalRemoteState: boolean;
  queueAllRuns: boolean;
  source: string;
  sourceName: string | null;
  sourceUrl: string | null;
  speculativeEnabled: boolean;
  structuredRunOutputEnabled: boolean;
  terraformVersion: string;
  triggerPatterns: string[];
  triggerPrefixes: string[];
  workingDirectory: string | null;
  vcsRepo: VcsRepo | null;
  tagNames: string[];
  locked: boolean;
  lockedReason: string | null;
  /** When the lock was taken (berth extension attribute `locked-at`). */
  lockedAt: string | null;
  lockedBy: { type: 'users' | 'teams' | 'runs'; id: string } | null;
  resourceCount: number;
  latestChangeAt: string;
  currentRunId: string | null;
  /** The newest run, assessments aside (HCP's `latest-run`; docs/api.md "current-run and latest-run"). */
  latestRunId: string | null;
  currentStateVersionId: string | null;
  /**
   * The newest uploaded configuration version that is not speculative, and not provisional until a
   * run of it applied (HCP's current configuration version), or null.
   */
  currentConfigurationVersionId: string | null;
  /** The latest finished health assessment (hosted edition), null before the first. */
  currentAssessmentResultId: string | null;
  /** The assigned SSH key, or null. */
  sshKeyId: string | null;
  /** The workspace's own data retention policy (type and id), or null (self-hosted edition). */
  dataRetentionPolicy: { type: string; id: string } | null;
  createdAt: string;
  updatedAt: string;
  /** Performance attributes over the past 30 errored or applied runs (null until runs exist). */
  metrics: {
    applyDurationAverage: number | null;
    planDurationAverage: number | null;
    policyCheckFailures: number | null;
    runFailures: number | null;
    runsCount: number | null;
  };
  permissions: WorkspacePermissions;
}

export const MAX_WORKSPACE_NAME = 90;
const NAME = /^[A-Za-z0-9_-]+$/;
export const NAME_DETAIL = `Name is invalid: only letters, numbers, "-" and "_" are allowed, at most ${MAX_WORKSPACE_NAME} characters`;
export const NAME_TAKEN_DETAIL = 'Name has already been taken';

/**
 * A name pattern of `search[wildcard-name]`: `*` only as the first or the last character (prefix,
 * suffix or both); a star anywhere else matches no workspace name.
 */
export function validNameWildcard(pattern: string): boolean {
  return !pattern.slice(1, -1).includes('*');
}

export function validWorkspaceName(name: string): boolean {
  return NAME.test(name) && name.length <= MAX_WORKSPACE_NAME;
}

const IDENTIFIER = /^[^/\s]+\/[^/\s]+$|^[^/\s]+\/[^/\s]+\/_git\/[^/\s]+$/;

const A = '/data/attributes';
const triggerList = () =>
  v.pipe(
    v.array(text(L.triggerEntry), 'must be an array of strings'),
    v.maxLength(MAX_TRIGGER_ENTRIES, `must have at most ${MAX_TRIGGER_ENTRIES} entries`),
  );

const schema = v.looseObject({
  name: opt(str()),
  'agent-pool-id': nullable(text(L.reference)),
  'allow-destroy-plan': opt(bool()),
  'assessments-enabled': opt(bool()),
  'auto-apply': opt(bool()),
  'auto-apply-run-trigger': opt(bool()),
  'auto-destroy-at': nullable(str()),
  'auto-destroy-activity-duration': nullable(str()),
  'inherits-project-auto-destroy': opt(bool()),
  description: nullable(text(L.workspaceDescription)),
  'execution-mode': opt(oneOf(EXECUTION_MODES)),
  'file-triggers-enabled': opt(bool()),
  'global-remote-state': opt(bool()),
  operations: opt(bool()),
  'queue-all-runs': opt(bool()),
  'source-name': nullable(text(L.sourceName)),
  'source-url': nullable(text(L.sourceUrl)),
  'speculative-enabled': opt(bool()),
  'structured-run-output-enabled': opt(bool()),
  'terraform-version': opt(text(L.terraformVersion)),
  'trigger-patterns': nullable(triggerList()),
  'trigger-prefixes': nullable(triggerList()),
  'working-directory': nullable(text(L.workingDirectory)),
  'setting-overwrites': nullable(
    v.looseObject({ 'execution-mode': nullable(bool()), 'agent-pool': nullable(bool()) }, 'must be an object'),
  ),
  'vcs-repo': nullable(
    v.looseObject(
      {
        identifier: opt(text(L.vcsIdentifier)),
        branch: nullable(text(L.vcsBranch)),
        'ingress-submodules': opt(bool()),
        'oauth-token-id': nullable(text(L.reference)),
        'github-app-installation-id': nullable(text(L.vcsInstallationId)),
        'tags-regex': nullable(text(L.vcsTagsRegex)),
      },
      'must be an object',
    ),
  ),
});

function validRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * Validates the attributes and relationships of a workspace create (`mode: 'create'`) or update
 * body. Rules that need stored records (unique names, agent pools, OAuth tokens, projects) are
 * the service's. Throws one 422 listing every problem.
 */
export function parseWorkspaceInput(
  body: { attributes: Record<string, unknown>; relationships: Record<string, unknown> },
  mode: 'create' | 'update',
  edition: Edition,
  executorVersion?: string,
): WorkspaceInput {
  const a = checkAttributes(schema, body.attributes);
  const has = (key: string) => Object.prototype.hasOwnProperty.call(body.attributes, key);
  const problems = new Problems();
  const input: WorkspaceInput = {};

  if (a.name === undefined) {
    if (mode === 'create') problems.add(`${A}/name`, "Name can't be blank");
  } else if (!validWorkspaceName(a.name)) problems.add(`${A}/name`, NAME_DETAIL);
  else input.name = a.name;

  if (a['assessments-enabled'] !== undefined) {
    // The self-hosted edition has no assessments: `false` (what the tfe provider always sends)
    // asks for what already holds and changes nothing; only turning them on is refused.
    if (edition === 'hosted') input.assessmentsEnabled = a['assessments-enabled'];
    else if (a['assessments-enabled'])
      problems.add(`${A}/assessments-enabled`, 'Assessments enabled is only available in the hosted edition');
  }

  if (a['execution-mode'] !== undefined && a.operations !== undefined) {
    problems.add(
      `${A}/operations`,
      'Operations must not be specified together with execution-mode (operations is deprecated)',
    );
  }
  input.executionMode = a['execution-mode'];
  input.operations = a.operations;
  if (has('agent-pool-id')) input.agentPoolId = a['agent-pool-id'] === '' ? null : (a['agent-pool-id'] ?? null);

  const so = a['setting-overwrites'];
  if (so) {
    const soExec = so['execution-mode'] ?? undefined;
    const soPool = so['agent-pool'] ?? undefined;
    if (soExec !== undefined && soPool !== undefined && soExec !== soPool) {
      problems.add(
        `${A}/setting-overwrites`,
        'If agent-pool and execution-mode are both included in setting-overwrites, their values must be the same.',
      );
    }
    if (soExec === true && a['execution-mode'] === undefined) {
      problems.add(
        `${A}/execution-mode`,
        'Execution mode must be specified when setting-overwrites.execution-mode is true',
      );
    }
    if ((soExec ?? soPool) === false && (a['execution-mode'] !== undefined || a.operations !== undefined)) {
      problems.add(
        `${A}/setting-overwrites/execution-mode`,
        'Setting overwrites cannot be false (inherit) while execution-mode is given',
      );
    }
    input.settingOverwrites = { executionMode: soExec, agentPool: soPool };
  }

  for (const [key, field] of [
    ['allow-destroy-plan', 'allowDestroyPlan'],
    ['auto-apply', 'autoApply'],
    ['auto-apply-run-trigger', 'autoApplyRunTrigger'],
    ['file-triggers-enabled', 'fileTriggersEnabled'],
    ['global-remote-state', 'globalRemoteState'],
    ['queue-all-runs', 'queueAllRuns'],
    ['speculative-enabled', 'speculativeEnabled'],
    ['structured-run-output-enabled', 'structuredRunOutputEnabled'],
  ] as const) {
    if (a[key] !== undefined) input[field] = a[key];
  }

  if (has('auto-destroy-at')) {
    const at = a['auto-destroy-at'] ?? null;
    if (at === null) input.autoDestroyAt = null;
    else {
      const instant = parseTimestamp(at);
      if (instant === null)
        problems.add(
          `${A}/auto-destroy-at`,
          'Auto destroy at must be an ISO 8601 timestamp such as 2030-01-01T00:00:00Z',
        );
      else input.autoDestroyAt = instant;
    }
  }
  if (has('auto-destroy-activity-duration')) {
    const d = a['auto-destroy-activity-duration'] ?? null;
    if (d !== null && !isValidDuration(d)) problems.add(`${A}/auto-destroy-activity-duration`, DURATION_FORMAT_DETAIL);
    else if (a['inherits-project-auto-destroy'] === true) {
      problems.add(
        `${A}/inherits-project-auto-destroy`,
        'Inherits project auto destroy cannot be true while auto-destroy-activity-duration is given',
      );
    } else input.autoDestroyActivityDuration = d;
  }
  if (a['inherits-project-auto-destroy'] !== undefined)
    input.inheritsProjectAutoDestroy = a['inherits-project-auto-destroy'];

  if (has('description')) input.description = a.description ?? null;
  if (has('working-directory')) input.workingDirectory = a['working-directory'] || null;
  if (mode === 'create') {
    if (has('source-name')) input.sourceName = a['source-name'] ?? null;
    if (has('source-url')) input.sourceUrl = a['source-url'] ?? null;
  }
  if (a['terraform-version'] !== undefined) {
    if (!isValidEngineVersion(a['terraform-version'], executorVersion)) {
      problems.add(
        `${A}/terraform-version`,
        `Terraform version ${JSON.stringify(a['terraform-version'])} is not a known version or a version constraint such as "~> 1.0.0"`,
      );
    } else input.terraformVersion = a['terraform-version'].trim();
  }
  if (has('trigger-patterns')) input.triggerPatterns = a['trigger-patterns'] ?? [];
  if (has('trigger-prefixes')) input.triggerPrefixes = a['trigger-prefixes'] ?? [];

  if (has('vcs-repo')) {
    const r = a['vcs-repo'];
    if (r === null || r === undefined) {
      if (mode === 'create' && r === null) input.vcsRepo = undefined;
      else input.vcsRepo = null;
    } else {
      const repo: VcsRepoInput = {};
      const P = `${A}/vcs-repo`;
      if (r.identifier !== undefined) {
        if (!IDENTIFIER.test(r.identifier))
          problems.add(`${P}/identifier`, 'Identifier must look like ORG/REPO (or ORG/PROJECT/_git/REPO)');
        repo.identifier = r.identifier;
      }
      if ('branch' in r) repo.branch = r.branch ?? null;
      if (r['ingress-submodules'] !== undefined) repo.ingressSubmodules = r['ingress-submodules'];
      if ('oauth-token-id' in r) repo.oauthTokenId = r['oauth-token-id'] || null;
      if ('github-app-installation-id' in r) repo.githubAppInstallationId = r['github-app-installation-id'] || null;
      if ('tags-regex' in r) {
        const re = r['tags-regex'] ?? null;
        if (re !== null && !validRegex(re))
          problems.add(`${P}/tags-regex`, 'Tags regex is not a valid regular expression');
        repo.tagsRegex = re;
      }
      if (repo.oauthTokenId && repo.githubAppInstallationId) {
        problems.add(
          `${P}/oauth-token-id`,
          'Oauth token id must not be specified together with github-app-installation-id',
        );
      }
      if (mode === 'create') {
        if (repo.identifier === undefined) problems.add(`${P}/identifier`, "Identifier can't be blank");
        if (!repo.oauthTokenId) problems.add(`${P}/oauth-token-id`, "Oauth token id can't be blank");
      }
      input.vcsRepo = repo;
    }
  }

  // Relationships.
  const rels = body.relationships;
  if (rels.project !== undefined && rels.project !== null) {
    const data = (rels.project as { data?: unknown }).data;
    if (data !== undefined && data !== null) {
      if (typeof data !== 'object' || Array.isArray(data))
        problems.add('/data/relationships/project/data', 'Project must be an object with type and id');
      else {
        const { type, id } = data as { type?: unknown; id?: unknown };
        if (type !== undefined && type !== 'projects')
          problems.add('/data/relationships/project/data/type', 'Type must be "projects"');
        if (id !== undefined && id !== null && typeof id !== 'string')
          problems.add('/data/relationships/project/data/id', 'Id must be a string');
        else if (typeof id === 'string' && id.trim() !== '') input.projectId = id.trim();
      }
    }
  }
  problems.throwIfAny();

  if (rels['tag-bindings'] !== undefined && rels['tag-bindings'] !== null) {
    const data = (rels['tag-bindings'] as { data?: unknown }).data;
    if (data !== undefined) {
      input.tagBindings = parseTagBindings(data === null ? [] : data, '/data/relationships/tag-bindings/data');
      checkBindingCount(input.tagBindings.length, '/data/relationships/tag-bindings');
    }
  }
  if (rels.tags !== undefined && rels.tags !== null) {
    const data = (rels.tags as { data?: unknown }).data;
    if (data !== undefined && data !== null) input.tags = parseFlatTagRefs(data, '/data/relationships/tags/data');
  }
  return input;
}

const TRIGGERS_BOTH_DETAIL =
  'Trigger patterns and trigger prefixes are alternatives: set only one of them to a non-empty list';
/** HCP Terraform's words for it (the tfe provider's tests match them). */
const PATTERNS_NEED_FILE_TRIGGERS_DETAIL =
  "'trigger_patterns' cannot be populated when 'file_triggers_enabled' is set to false.";

/**
 * The trigger lists after applying a request to the current values (`current` null on create):
 * `trigger-prefixes` and `trigger-patterns` are alternatives, so a request that sends one of them
 * (even `[]` or null) and not the other empties the other, as HCP Terraform does: the tfe provider
 * sends only the list its configuration names, `[]` when it is emptied, and reads both back.
 * Both non-empty in one request, or patterns given while file triggers are (or become) disabled,
 * is a 422 at `trigger-patterns`.
 */
export function resolveTriggers(
  current: { fileTriggersEnabled: boolean; patterns: string[]; prefixes: string[] } | null,
  input: WorkspaceInput,
): { patterns: string[]; prefixes: string[] } {
  const problems = new Problems();
  const patterns = input.triggerPatterns;
  const prefixes = input.triggerPrefixes;
  if (patterns?.length && prefixes?.length) problems.add(`${A}/trigger-patterns`, TRIGGERS_BOTH_DETAIL);
  const fileTriggers = input.fileTriggersEnabled ?? current?.fileTriggersEnabled ?? true;
  if (patterns?.length && !fileTriggers) problems.add(`${A}/trigger-patterns`, PATTERNS_NEED_FILE_TRIGGERS_DETAIL);
  problems.throwIfAny();
  if (patterns !== undefined && prefixes === undefined) return { patterns, prefixes: [] };
  if (prefixes !== undefined && patterns === undefined) return { patterns: [], prefixes };
  return { patterns: patterns ?? current?.patterns ?? [], prefixes: prefixes ?? current?.prefixes ?? [] };
}

/** The own execution mode and agent pool after applying a request to the current values. */
export function resolveExecution(
  current: { mode: ExecutionMode | null; agentPoolId: string | null },
  input: WorkspaceInput,
): { mode: ExecutionMode | null; agentPoolId: string | null } {
  const problems = new Problems();
  const so = input.settingOverwrites;
  const inherit = (so?.executionMode ?? so?.agentPool) === false;
  const explicit: ExecutionMode | undefined =
    input.executionMode ?? (input.operations === undefined ? undefined : input.operations ? 'remote' : 'local');
  const mode: ExecutionMode | null = inherit ? null : (explicit ?? current.mode);
  let pool: string | null = mode === 'agent' ? current.agentPoolId : null;

  if (input.agentPoolId) {
    if (input.operations !== undefined) {
      problems.add(`${A}/agent-pool-id`, 'Agent pool id must not be specified together with operations');
    } else if (mode !== 'agent') {
      problems.add(`${A}/agent-pool-id`, "Agent pool id must not be specified unless using 'agent' execution mode");
    } else pool = input.agentPoolId;
  } else if (input.agentPoolId === null && explicit === undefined && mode === 'agent') {
    pool = null;
  }
  if (mode === 'agent' && !pool && problems.empty) {
    problems.add(`${A}/agent-pool-id`, "Agent pool id must be specified when using 'agent' execution mode");
  }
  problems.throwIfAny();
  if (mode === null) pool = null;
  return { mode, agentPoolId: pool };
}

/** Applies a `vcs-repo` request to the stored repository (partial update; null removes it). */
export function mergeVcsRepo(current: VcsRepo | null, input: VcsRepoInput | null | undefined): VcsRepo | null {
  if (input === undefined) return current;
  if (input === null) return null;
  const P = `${A}/vcs-repo`;
  let oauthTokenId = current?.oauthTokenId ?? null;
  let appId = current?.githubAppInstallationId ?? null;
  if (input.oauthTokenId !== undefined) {
    oauthTokenId = input.oauthTokenId;
    if (oauthTokenId) appId = null;
  }
  if (input.githubAppInstallationId !== undefined) {
    appId = input.githubAppInstallationId;
    if (appId) oauthTokenId = null;
  }
  const identifier = input.identifier ?? current?.identifier;
  const problems = new Problems();
  if (!identifier) problems.add(`${P}/identifier`, "Identifier can't be blank");
  if (!oauthTokenId && !appId)
    problems.add(`${P}/oauth-token-id`, 'Oauth token id or github-app-installation-id is required');
  problems.throwIfAny();
  return {
    identifier: identifier!,
    branch: input.branch !== undefined ? (input.branch ?? '') : (current?.branch ?? ''),
    ingressSubmodules: input.ingressSubmodules ?? current?.ingressSubmodules ?? false,
    oauthTokenId,
    githubAppInstallationId: appId,
    tagsRegex: input.tagsRegex !== undefined ? input.tagsRegex : (current?.tagsRegex ?? null),
    serviceProvider: oauthTokenId
      ? current?.oauthTokenId === oauthTokenId
        ? current.serviceProvider
        : null
      : appId
        ? 'github'
        : null,
  };
}

export function nameTakenError(): BerthError {
  return new BerthError([{ status: 422, title: 'invalid attribute', detail: NAME_TAKEN_DETAIL, pointer: `${A}/name` }]);
}

/**
 * Reads `{"data": [{"type": "workspaces", "id": "ws-..."}, ...]}`, reading only `type` and `id`
 * of each item (clients may send full resources). At least one item is required.
 */
export function parseWorkspaceIdentifiers(body: Record<string, unknown> | null): string[] {
  const problems = new Problems();
  const data = body?.data;
  if (!Array.isArray(data)) {
    problems.add('/data', 'data must be an array of {"type": "workspaces", "id": ...} items');
    problems.throwIfAny();
  }
  const ids: string[] = [];
  (data as unknown[]).forEach((item, i) => {
    const { type, id } = (item && typeof item === 'object' ? item : {}) as { type?: unknown; id?: unknown };
    if (type !== 'workspaces') problems.add(`/data/${i}/type`, 'Type must be "workspaces"');
    if (typeof id !== 'string' || id === '') problems.add(`/data/${i}/id`, "Id can't be blank");
    else if (!ids.includes(id)) ids.push(id);
  });
  if ((data as unknown[]).length === 0) problems.add('/data', 'at least one workspace is required');
  problems.throwIfAny();
  return ids;
}
