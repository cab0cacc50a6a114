import type { Actor } from '../permissions/actor.js';

/** Who holds a workspace lock. `users`, `teams` and `runs` are what the API shows as `locked-by`. */
export interface LockHolder {
  kind: 'users' | 'teams' | 'runs' | 'site-admin' | 'organization';
  id: string;
}

/** The holder a lock taken by this actor records. */
export function holderOf(actor: Actor): LockHolder {
  switch (actor.kind) {
    case 'user':
      return { kind: 'users', id: actor.userId };
    case 'team':
      return { kind: 'teams', id: actor.teamId };
    case 'organization':
    case 'audit-trail':
      return { kind: 'organization', id: actor.tokenId };
    // A run's token acts as its run, which holds its workspace's lock while it is active.
    case 'run':
      return { kind: 'runs', id: actor.runId };
    case 'site-admin':
      return { kind: 'site-admin', id: actor.tokenId ?? 'local' };
  }
}

export function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/**
 * Names the holder as go-tfe expects in unlock conflicts: the detail must contain
 * `is locked by User`, `is locked by Team` or `is locked by Run`.
 */
export function describeHolder(h: LockHolder): string {
  switch (h.kind) {
    case 'users':
      return `User ${h.id}`;
    case 'teams':
      return `Team ${h.id}`;
    case 'runs':
      return `Run ${h.id}`;
    case 'organization':
      return `Organization token ${h.id}`;
    case 'site-admin':
      return h.id === 'local' ? 'the local site administrator' : `Site administrator token ${h.id}`;
  }
}

export const NOT_LOCKED_UNLOCK = 'Unable to unlock workspace: the workspace is not locked.';
export const NOT_LOCKED_FORCE = 'Unable to force-unlock workspace: the workspace is not locked.';
export const STILL_PENDING = 'Unable to unlock workspace: the latest state version is still pending; retry shortly.';

export function alreadyLocked(h: LockHolder): string {
  return `Unable to lock workspace. The workspace is locked by ${describeHolder(h)}.`;
}

/** Lock refused because the caller already holds it (the CLI reports it as done, not as a conflict). */
export const ALREADY_LOCKED_BY_YOU = 'Unable to lock workspace. The workspace is already locked by you.';

export function lockedByOther(h: LockHolder): string {
  return `Unable to unlock workspace. The workspace is locked by ${describeHolder(h)}.`;
}
