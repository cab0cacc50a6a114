import type { Resource } from '../client/jsonapi.js';
import type { WorkspaceAttributes } from '../client/resources.js';
import { humanTime } from './human-time.js';

/**
 * Who holds a workspace's lock, by name, from the workspace and the resources its
 * `include=locked_by` brought: `alice (user)`, `platform (team)`, `run-… (run)`. A lock taken
 * with an organization or site-administrator token has no `locked-by`.
 */
function lockHolderName(ws: Resource<WorkspaceAttributes>, included: Resource[] = []): string {
  const ref = ws.relationships?.['locked-by']?.data;
  if (!ref || Array.isArray(ref)) return 'an organization or site-administrator token';
  const found = included.find((r) => r.type === ref.type && r.id === ref.id);
  switch (ref.type) {
    case 'users':
      return `${typeof found?.attributes.username === 'string' ? found.attributes.username : ref.id} (user)`;
    case 'teams':
      return `${typeof found?.attributes.name === 'string' ? found.attributes.name : ref.id} (team)`;
    default:
      return `${ref.id} (run)`;
  }
}

/** Since when and why: `since 14:02, 3 minutes ago: "migration"`. */
export function lockSince(ws: Resource<WorkspaceAttributes>, now: Date = new Date()): string {
  const a = ws.attributes;
  const since = a['locked-at'] ? ` since ${humanTime(a['locked-at'], now)}` : '';
  const reason = a['locked-reason'] ? `: ${JSON.stringify(a['locked-reason'])}` : '';
  return `${since}${reason}`;
}

/** The whole lock for a person: `locked by alice (user) since 14:02, 3 minutes ago: "migration"`. */
export function describeLock(ws: Resource<WorkspaceAttributes>, included: Resource[] = [], now?: Date): string {
  return `locked by ${lockHolderName(ws, included)}${lockSince(ws, now)}`;
}
