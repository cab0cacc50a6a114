import * as v from 'valibot';
import { bool, checkAttributes, nullable, oneOf, opt, str, text } from '../common/attributes.js';
import { isPlainText, NOT_TEXT, TEXT_LIMITS as L } from '../common/limits.js';
import { DURATION_FORMAT_DETAIL, isValidDuration } from '../common/duration.js';
import { BerthError, Problems } from '../common/errors.js';
import { checkBindingCount, parseTagBindings, type TagBindingInput } from '../workspaces/tags.js';
import { EXECUTION_MODES, type ExecutionMode } from '../organizations/organization.js';
import { toOneId } from '../common/relationships.js';
import { charLength } from '../common/text.js';

export const DEFAULT_PROJECT_NAME = 'Default Project';

export interface Project {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  description: string | null;
  autoDestroyActivityDuration: string | null;
  /** The effective default of the project's workspaces: its own when it sets one, else its organization's. */
  defaultExecutionMode: ExecutionMode;
  defaultAgentPoolId: string | null;
  /** Whether the project sets its own default execution mode (`setting-overwrites`). */
  executionOverridden: boolean;
  isDefault: boolean;
  createdAt: string;
  workspaceCount: number;
  teamCount: number;
  permissions: ProjectPermissions;
}

export interface ProjectPermissions {
  canRead: boolean;
  canUpdate: boolean;
  canDestroy: boolean;
  canCreateWorkspace: boolean;
  canMoveWorkspace: boolean;
  canManageTags: boolean;
  canManageTeams: boolean;
}

// ---------------------------------------------------------------------------------------------
// Validation of project create and update bodies.

export const PROJECT_NAME_MIN = 3;
export const PROJECT_NAME_MAX = 40;
export const PROJECT_DESCRIPTION_MAX = 256;

const PROJECT_NAME_CHARS = /^[A-Za-z0-9 _-]*$/;

export const NAME_TAKEN_DETAIL = 'Name has already been taken';
export const NAME_CHARS_DETAIL = 'Name may only contain letters, numbers, spaces, "-" and "_"';
export const NAME_SPACE_DETAIL = 'Name must not start or end with a space';
export const NAME_SHORT_DETAIL = `Name is too short (minimum is ${PROJECT_NAME_MIN} characters)`;
export const NAME_LONG_DETAIL = `Name is too long (maximum is ${PROJECT_NAME_MAX} characters)`;
export const DESCRIPTION_LONG_DETAIL = `Description is too long (maximum is ${PROJECT_DESCRIPTION_MAX} characters)`;

export const TAG_BINDINGS_POINTER = '/data/relationships/tag-bindings/data';

/**
 * A validated project create or update. `undefined` means "not given" (keep the value on
 * update); `null` clears a nullable field. `tagBindings` present replaces the whole set.
 */
export interface ProjectInput {
  name?: string;
  description?: string | null;
  autoDestroyActivityDuration?: string | null;
  tagBindings?: TagBindingInput[];
  /** Sets the project's own default execution mode (the project then stops inheriting). */
  defaultExecutionMode?: ExecutionMode;
  /** `default-agent-pool-id` (go-tfe), `default-agent-pool` (the docs) or the relationship. */
  defaultAgentPoolId?: string | null;
  /** `setting-overwrites.default-execution-mode` (or `.default-agent-pool`): false inherits. */
  inheritExecution?: boolean;
}

const schema = v.looseObject({
  name: opt(str()),
  description: nullable(str()),
  'auto-destroy-activity-duration': nullable(str()),
  'default-execution-mode': opt(oneOf(EXECUTION_MODES)),
  'default-agent-pool-id': nullable(text(L.reference)),
  'default-agent-pool': nullable(text(L.reference)),
  'setting-overwrites': nullable(
    v.looseObject(
      {
        'default-execution-mode': nullable(bool()),
        'default-agent-pool': nullable(bool()),
        // The key the documentation's samples use.
        'execution-mode': nullable(bool()),
      },
      'must be an object',
    ),
  ),
});

/** The execution members of a project create or update (see `ProjectInput`). */
function parseProjectExecution(
  a: v.InferOutput<typeof schema>,
  relationships: Record<string, unknown>,
  problems: Problems,
): Pick<ProjectInput, 'defaultExecutionMode' | 'defaultAgentPoolId' | 'inheritExecution'> {
  const A = '/data/attributes';
  const fromRelationship = toOneId(relationships, 'default-agent-pool', 'agent-pools', problems);
  const pool = [a['default-agent-pool-id'], a['default-agent-pool'], fromRelationship].find((p) => p !== undefined);
  const so = a['setting-overwrites'];
  const soMode = so?.['default-execution-mode'] ?? so?.['execution-mode'] ?? undefined;
  const soPool = so?.['default-agent-pool'] ?? undefined;
  if (soMode !== undefined && soPool !== undefined && soMode !== soPool)
    problems.add(
      `${A}/setting-overwrites`,
      'If default-agent-pool and default-execution-mode are both included in setting-overwrites, their values must be the same.',
    );
  const inherit = (soMode ?? soPool) === false;
  if (inherit && (a['default-execution-mode'] !== undefined || pool))
    problems.add(
      `${A}/setting-overwrites/default-execution-mode`,
      'Setting overwrites cannot be false (inherit) while default-execution-mode or a default agent pool is given',
    );
  if ((soMode ?? soPool) === true && a['default-execution-mode'] === undefined)
    problems.add(
      `${A}/default-execution-mode`,
      'Default execution mode must be specified when setting-overwrites.default-execution-mode is true',
    );
  return {
    defaultExecutionMode: a['default-execution-mode'],
    defaultAgentPoolId: pool === '' ? null : pool,
    inheritExecution: inherit ? true : undefined,
  };
}

/** Checks a project name against the spec's rules; each broken rule adds one problem. */
export function checkProjectName(name: string, problems: Problems, pointer = '/data/attributes/name'): void {
  if (name.length === 0) {
    problems.add(pointer, "Name can't be blank");
    return;
  }
  if (name.length < PROJECT_NAME_MIN) problems.add(pointer, NAME_SHORT_DETAIL);
  if (charLength(name) > PROJECT_NAME_MAX) problems.add(pointer, NAME_LONG_DETAIL);
  if (!PROJECT_NAME_CHARS.test(name)) problems.add(pointer, NAME_CHARS_DETAIL);
  if (name.startsWith(' ') || name.endsWith(' ')) problems.add(pointer, NAME_SPACE_DETAIL);
}

/**
 * Validates the `attributes` and `relationships` of a project create (`mode: 'create'`, name
 * required) or update body. Every problem found is reported in one 422.
 */
export function parseProjectInput(
  resource: { attributes: Record<string, unknown>; relationships: Record<string, unknown> },
  mode: 'create' | 'update',
): ProjectInput {
  const a = checkAttributes(schema, resource.attributes);
  const problems = new Problems();
  if (a.name === undefined) {
    if (mode === 'create') problems.add('/data/attributes/name', "Name can't be blank");
  } else {
    checkProjectName(a.name, problems);
  }
  if (typeof a.description === 'string' && charLength(a.description) > PROJECT_DESCRIPTION_MAX) {
    problems.add('/data/attributes/description', DESCRIPTION_LONG_DETAIL);
  } else if (typeof a.description === 'string' && !isPlainText(a.description)) {
    problems.add('/data/attributes/description', `Description ${NOT_TEXT}`);
  }
  const duration = a['auto-destroy-activity-duration'];
  if (typeof duration === 'string' && !isValidDuration(duration)) {
    problems.add('/data/attributes/auto-destroy-activity-duration', DURATION_FORMAT_DETAIL);
  }

  let tagBindings: TagBindingInput[] | undefined;
  const rel = resource.relationships['tag-bindings'];
  if (rel !== undefined) {
    if (rel === null || typeof rel !== 'object' || Array.isArray(rel)) {
      problems.add('/data/relationships/tag-bindings', 'Tag bindings relationship must be an object with a data array');
    } else {
      try {
        tagBindings = parseTagBindings((rel as { data?: unknown }).data, TAG_BINDINGS_POINTER);
        checkBindingCount(tagBindings.length, TAG_BINDINGS_POINTER);
      } catch (err) {
        if (!(err instanceof BerthError)) throw err;
        for (const item of err.items) problems.add(item.pointer ?? TAG_BINDINGS_POINTER, item.detail ?? item.title);
      }
    }
  }
  const execution = parseProjectExecution(a, resource.relationships, problems);
  problems.throwIfAny();
  return {
    name: a.name,
    description: a.description,
    autoDestroyActivityDuration: duration,
    tagBindings,
    ...execution,
  };
}
