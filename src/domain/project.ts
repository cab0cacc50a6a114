import * as v from 'valibot';
import { checkAttributes, nullable, opt, str } from './attributes.js';
import { DURATION_FORMAT_DETAIL, isValidDuration } from './duration.js';
import { BerthError, Problems } from './errors.js';
import { checkBindingCount, parseTagBindings, type TagBindingInput } from './tags.js';
import type { ExecutionMode } from './organization.js';
import { charLength } from './text.js';

export const DEFAULT_PROJECT_NAME = 'Default Project';

export interface Project {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  description: string | null;
  autoDestroyActivityDuration: string | null;
  defaultExecutionMode: ExecutionMode;
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
}

const schema = v.looseObject({
  name: opt(str()),
  description: nullable(str()),
  'auto-destroy-activity-duration': nullable(str()),
});

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
  problems.throwIfAny();
  return {
    name: a.name,
    description: a.description,
    autoDestroyActivityDuration: duration,
    tagBindings,
  };
}
