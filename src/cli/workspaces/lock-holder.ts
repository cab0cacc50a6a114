import type { Resource } from '../../client/jsonapi.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { humanTime } from '../output/human-time.js';

/** Who holds a workspace's lock: a user or team by name, a run by id, or a token (no `locked-by`). */
export interface LockHolderInfo {
  kind: 'user' | 'team' | 'run' | 'token';
  /** The username, team name or run id; empty for a token. */
  name: string;
  /** The user, team or run id; empty for a token. */
  id: string;
}

/** The holder of a workspace's lock, named from the resources an `include=locked_by` brought. */
export function lockHolderOf(ws: Resource<WorkspaceAttributes>, included: Resource[] = []): LockHolderInfo | null {
  if (!ws.attributes.locked) return null;
  const ref = ws.relationships?.['locked-by']?.data;
  if (!ref || Array.isArray(ref)) return { kind: 'token', name: '', id: '' };
  const found = included.find((r) => r.type === ref.type && r.id === ref.id);
  switch (ref.type) {
    case 'users':
      return {
        kind: 'user',
        name: typeof found?.attributes.username === 'string' ? found.attributes.username : ref.id,
        id: ref.id,
      };
    case 'teams':
      return {
        kind: 'team',
        name: typeof found?.attributes.name === 'string' ? found.attributes.name : ref.id,
        id: ref.id,
      };
    default:
      return { kind: 'run', name: ref.id, id: ref.id };
  }
}

/**
 * Who holds a workspace's lock, by name, from the workspace and the resources its
 * `include=locked_by` brought: `alice (user)`, `platform (team)`, `run-… (run)`. A lock taken
 * with an organization or site-administrator token has no `locked-by`.
 */
export function lockHolderName(ws: Resource<WorkspaceAttributes>, included: Resource[] = []): string {
  const h = lockHolderOf({ ...ws, attributes: { ...ws.attributes, locked: true } }, included)!;
  return h.kind === 'token' ? 'an organization or site-administrator token' : `${h.name} (${h.kind})`;
}

/** Whether NAME (a username, team name, or a user, team or run id; case-insensitive) holds the lock. */
export function lockHeldBy(ws: Resource<WorkspaceAttributes>, included: Resource[], name: string): boolean {
  const h = lockHolderOf(ws, included);
  if (!h || h.kind === 'token') return false;
  const want = name.toLowerCase();
  return h.name.toLowerCase() === want || h.id.toLowerCase() === want;
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
