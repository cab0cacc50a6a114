import { Problems } from '../common/errors.js';

/**
 * Team access to single projects (`team-projects`) and workspaces (`team-workspaces`): the levels
 * HCP Terraform defines, and the fine-grained permissions each level implies. A `custom` grant
 * stores its own permissions; the fixed levels always mean what the tables below say.
 */

export const PROJECT_ACCESS_LEVELS = ['read', 'write', 'maintain', 'admin', 'custom'] as const;
export const WORKSPACE_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin', 'custom'] as const;
export type ProjectAccessLevel = (typeof PROJECT_ACCESS_LEVELS)[number];
export type WorkspaceAccessLevel = (typeof WORKSPACE_ACCESS_LEVELS)[number];

export const RUNS = ['read', 'plan', 'apply'] as const;
export const VARIABLES = ['none', 'read', 'write'] as const;
export const STATE_VERSIONS = ['none', 'read-outputs', 'read', 'write'] as const;
export const SENTINEL_MOCKS = ['none', 'read'] as const;
export const PROJECT_SETTINGS = ['read', 'update', 'delete'] as const;
export const PROJECT_TEAMS = ['none', 'read', 'manage'] as const;
export const PROJECT_VARIABLE_SETS = ['none', 'read', 'write'] as const;

export type Runs = (typeof RUNS)[number];
export type Variables = (typeof VARIABLES)[number];
export type StateVersions = (typeof STATE_VERSIONS)[number];
export type SentinelMocks = (typeof SENTINEL_MOCKS)[number];
export type ProjectSettings = (typeof PROJECT_SETTINGS)[number];
export type ProjectTeams = (typeof PROJECT_TEAMS)[number];
export type ProjectVariableSets = (typeof PROJECT_VARIABLE_SETS)[number];

/** What a grant allows on a workspace's contents (shared by workspace and project grants). */
export interface WorkspacePermissions {
  runs: Runs;
  variables: Variables;
  stateVersions: StateVersions;
  sentinelMocks: SentinelMocks;
  locking: boolean;
  runTasks: boolean;
}

/** Custom permissions of a `team-workspaces` grant. */
export type TeamWorkspacePermissions = WorkspacePermissions;

/** Custom permissions of a `team-projects` grant. */
export interface TeamProjectPermissions {
  settings: ProjectSettings;
  teams: ProjectTeams;
  /** The variable sets the project owns: `read` reads them, `write` manages them (domain/variables/varset-policy.ts). */
  variableSets: ProjectVariableSets;
  workspace: WorkspacePermissions & { create: boolean; move: boolean; delete: boolean };
}

const WS_NONE: WorkspacePermissions = {
  runs: 'read',
  variables: 'none',
  stateVersions: 'none',
  sentinelMocks: 'none',
  locking: false,
  runTasks: false,
};
const WS_READ: WorkspacePermissions = { ...WS_NONE, variables: 'read', stateVersions: 'read' };
const WS_PLAN: WorkspacePermissions = { ...WS_READ, runs: 'plan' };
const WS_WRITE: WorkspacePermissions = {
  runs: 'apply',
  variables: 'write',
  stateVersions: 'write',
  sentinelMocks: 'read',
  locking: true,
  runTasks: false,
};
const WS_ADMIN: WorkspacePermissions = { ...WS_WRITE, runTasks: true };

/** Defaults of a custom workspace grant (HCP: runs read, everything else none/false). */
export const CUSTOM_WORKSPACE_DEFAULTS: TeamWorkspacePermissions = WS_NONE;

/** The permissions a fixed workspace level implies (HCP Terraform's "implied custom permissions"). */
export function impliedWorkspacePermissions(level: Exclude<WorkspaceAccessLevel, 'custom'>): TeamWorkspacePermissions {
  return { read: WS_READ, plan: WS_PLAN, write: WS_WRITE, admin: WS_ADMIN }[level];
}

export const CUSTOM_PROJECT_DEFAULTS: TeamProjectPermissions = {
  settings: 'read',
  teams: 'none',
  variableSets: 'none',
  workspace: { ...WS_NONE, create: false, move: false, delete: false },
};

/** The permissions a fixed project level implies (HCP Terraform's "implied custom permission levels"). */
export function impliedProjectPermissions(level: Exclude<ProjectAccessLevel, 'custom'>): TeamProjectPermissions {
  switch (level) {
    case 'read':
      return {
        settings: 'read',
        teams: 'none',
        variableSets: 'none',
        workspace: { ...WS_READ, create: false, move: false, delete: false },
      };
    case 'write':
      return {
        settings: 'read',
        teams: 'none',
        variableSets: 'none',
        workspace: { ...WS_WRITE, create: false, move: false, delete: false },
      };
    case 'maintain':
      return {
        settings: 'read',
        teams: 'none',
        variableSets: 'none',
        workspace: { ...WS_ADMIN, create: true, move: false, delete: true },
      };
    case 'admin':
      return {
        settings: 'delete',
        teams: 'manage',
        variableSets: 'write',
        workspace: { ...WS_ADMIN, create: true, move: true, delete: true },
      };
  }
}

/** One team's grant on one workspace, as stored. */
export interface TeamWorkspaceGrant {
  id: string;
  teamId: string;
  workspaceId: string;
  access: WorkspaceAccessLevel;
  /** The effective permissions (implied by the level, or the custom ones). */
  permissions: TeamWorkspacePermissions;
}

/** One team's grant on one project, as stored. */
export interface TeamProjectGrant {
  id: string;
  teamId: string;
  projectId: string;
  access: ProjectAccessLevel;
  permissions: TeamProjectPermissions;
}

/** A `team-workspaces` document as berth returns it. */
export interface TeamWorkspace extends TeamWorkspaceGrant {
  workspaceName: string;
  organizationName: string;
}

export type TeamProject = TeamProjectGrant;

// ---------------------------------------------------------------------------------------------
// Request parsing (422 `invalid attribute` with pointers, several problems at once)

export interface TeamWorkspaceInput {
  access?: WorkspaceAccessLevel;
  custom: Partial<TeamWorkspacePermissions>;
  /** The custom attributes the request named (`runs`, `workspace-locking`, ...). */
  customKeys: string[];
}

const CUSTOM_LABELS: Record<string, string> = {
  runs: 'Runs',
  variables: 'Variables',
  'state-versions': 'State versions',
  'sentinel-mocks': 'Sentinel mocks',
  'workspace-locking': 'Workspace locking',
  'run-tasks': 'Run tasks',
  'project-access': 'Project access',
  'workspace-access': 'Workspace access',
};

/** HCP Terraform's refusal of a custom permission next to a fixed level. */
export function readOnlyDetail(attribute: string, level: string): string {
  return `${CUSTOM_LABELS[attribute] ?? attribute} is read-only when access level is '${level}'; use the 'custom' access level to set this attribute.`;
}

function addCustomOnly(problems: Problems, level: string, keys: string[]): void {
  if (level === 'custom') return;
  for (const key of keys) problems.add(`/data/attributes/${key}`, readOnlyDetail(key, level));
}

/**
 * Custom permissions may only accompany the `custom` level (the level given, or the stored one):
 * a 422 for each custom attribute named.
 */
export function checkCustomOnly(level: string, customKeys: string[]): void {
  const problems = new Problems();
  addCustomOnly(problems, level, customKeys);
  problems.throwIfAny();
}

export interface TeamProjectInput {
  access?: ProjectAccessLevel;
  /** Whether the request named any custom permission. */
  customGiven: boolean;
  /** Which of `project-access` and `workspace-access` the request named (non-empty). */
  customKeys: string[];
  settings?: ProjectSettings;
  teams?: ProjectTeams;
  variableSets?: ProjectVariableSets;
  workspace: Partial<TeamProjectPermissions['workspace']>;
}

type Attrs = Record<string, unknown>;

function pickEnum<T extends string>(
  problems: Problems,
  attrs: Attrs,
  key: string,
  values: readonly T[],
  pointer: string,
): T | undefined {
  if (!(key in attrs) || attrs[key] === undefined) return undefined;
  const v = attrs[key];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    problems.add(`${pointer}/${key}`, `${key} must be one of ${values.join(', ')}`);
    return undefined;
  }
  return v as T;
}

function pickBool(problems: Problems, attrs: Attrs, key: string, pointer: string): boolean | undefined {
  if (!(key in attrs) || attrs[key] === undefined) return undefined;
  if (typeof attrs[key] !== 'boolean') {
    problems.add(`${pointer}/${key}`, `${key} must be true or false`);
    return undefined;
  }
  return attrs[key];
}

function level<T extends string>(
  problems: Problems,
  attrs: Attrs,
  values: readonly T[],
  mode: 'create' | 'update',
): T | undefined {
  if (attrs.access === undefined) {
    if (mode === 'create') problems.add('/data/attributes/access', "Access can't be blank");
    return undefined;
  }
  return pickEnum(problems, attrs, 'access', values, '/data/attributes');
}

const WORKSPACE_CUSTOM_KEYS = {
  runs: true,
  variables: true,
  'state-versions': true,
  'sentinel-mocks': true,
  'workspace-locking': true,
  'run-tasks': true,
};

/**
 * `team-workspaces` attributes. The custom keys (`runs`, `variables`, `state-versions`,
 * `sentinel-mocks`, `workspace-locking`, `run-tasks`) may only be set with `access: custom`.
 */
export function parseTeamWorkspaceAttributes(attrs: Attrs, mode: 'create' | 'update'): TeamWorkspaceInput {
  const problems = new Problems();
  const access = level(problems, attrs, WORKSPACE_ACCESS_LEVELS, mode);
  const p = '/data/attributes';
  const custom: Partial<TeamWorkspacePermissions> = {};
  const set = <K extends keyof TeamWorkspacePermissions>(k: K, v: TeamWorkspacePermissions[K] | undefined) => {
    if (v !== undefined) custom[k] = v;
  };
  set('runs', pickEnum(problems, attrs, 'runs', RUNS, p));
  set('variables', pickEnum(problems, attrs, 'variables', VARIABLES, p));
  set('stateVersions', pickEnum(problems, attrs, 'state-versions', STATE_VERSIONS, p));
  set('sentinelMocks', pickEnum(problems, attrs, 'sentinel-mocks', SENTINEL_MOCKS, p));
  set('locking', pickBool(problems, attrs, 'workspace-locking', p));
  set('runTasks', pickBool(problems, attrs, 'run-tasks', p));
  const customKeys = Object.keys(CUSTOM_LABELS).filter((k) => k in WORKSPACE_CUSTOM_KEYS && attrs[k] !== undefined);
  if (access !== undefined) addCustomOnly(problems, access, customKeys);
  problems.throwIfAny();
  return { access, custom, customKeys };
}

/**
 * `team-projects` attributes: `access`, and with `custom` the objects `project-access`
 * (`settings`, `teams`) and `workspace-access` (`runs`, `variables`, `state-versions`,
 * `sentinel-mocks`, `create`, `locking`, `delete`, `move`, `run-tasks`).
 */
export function parseTeamProjectAttributes(attrs: Attrs, mode: 'create' | 'update'): TeamProjectInput {
  const problems = new Problems();
  const access = level(problems, attrs, PROJECT_ACCESS_LEVELS, mode);
  const out: TeamProjectInput = { access, workspace: {}, customGiven: false, customKeys: [] };
  let customGiven = false;
  const pa = attrs['project-access'];
  if (pa !== undefined && pa !== null) {
    if (typeof pa !== 'object' || Array.isArray(pa))
      problems.add('/data/attributes/project-access', 'project-access must be an object');
    else {
      const p = '/data/attributes/project-access';
      out.settings = pickEnum(problems, pa as Attrs, 'settings', PROJECT_SETTINGS, p);
      out.teams = pickEnum(problems, pa as Attrs, 'teams', PROJECT_TEAMS, p);
      out.variableSets = pickEnum(problems, pa as Attrs, 'variable-sets', PROJECT_VARIABLE_SETS, p);
      if (Object.keys(pa).length > 0) out.customKeys.push('project-access');
      customGiven ||= Object.keys(pa).length > 0;
    }
  }
  const wa = attrs['workspace-access'];
  if (wa !== undefined && wa !== null) {
    if (typeof wa !== 'object' || Array.isArray(wa))
      problems.add('/data/attributes/workspace-access', 'workspace-access must be an object');
    else {
      const p = '/data/attributes/workspace-access';
      const w = wa as Attrs;
      const set = <K extends keyof TeamProjectPermissions['workspace']>(
        k: K,
        v: TeamProjectPermissions['workspace'][K] | undefined,
      ) => {
        if (v !== undefined) out.workspace[k] = v;
      };
      set('runs', pickEnum(problems, w, 'runs', RUNS, p));
      set('variables', pickEnum(problems, w, 'variables', VARIABLES, p));
      set('stateVersions', pickEnum(problems, w, 'state-versions', STATE_VERSIONS, p));
      set('sentinelMocks', pickEnum(problems, w, 'sentinel-mocks', SENTINEL_MOCKS, p));
      set('create', pickBool(problems, w, 'create', p));
      set('locking', pickBool(problems, w, 'locking', p));
      set('delete', pickBool(problems, w, 'delete', p));
      set('move', pickBool(problems, w, 'move', p));
      set('runTasks', pickBool(problems, w, 'run-tasks', p));
      if (Object.keys(w).length > 0) out.customKeys.push('workspace-access');
      customGiven ||= Object.keys(w).length > 0;
    }
  }
  if (access !== undefined) addCustomOnly(problems, access, out.customKeys);
  problems.throwIfAny();
  out.customGiven = customGiven;
  return out;
}
