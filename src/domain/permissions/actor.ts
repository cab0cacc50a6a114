/**
 * Who is calling. Every request acts as exactly one of these; the permission policy decides
 * from it (and from the facts services load about its teams) what it may do.
 */
export type Actor =
  | { kind: 'site-admin'; tokenId: string | null }
  /** A user, through one of their tokens (`tokenId`), or in local mode (the admin user, no token). */
  | { kind: 'user'; tokenId: string | null; userId: string; username: string; siteAdmin: boolean }
  | { kind: 'team'; tokenId: string; teamId: string; organizationId: string }
  | { kind: 'organization'; tokenId: string; organizationId: string }
  /** An organization's audit trail token: it may read that organization's audit trail, nothing else. */
  | { kind: 'audit-trail'; tokenId: string; organizationId: string }
  /**
   * A run's token: terraform inside a planning or applying run (services/runs/run-tokens.ts), for
   * the `phase` it was minted for. It reads its own workspace's state and the states that
   * workspace may consume; only an apply's token writes state.
   */
  | { kind: 'run'; tokenId: string; runId: string; workspaceId: string; organizationId: string; phase: RunTokenPhase };

/** The phase a run token was minted for. */
export type RunTokenPhase = 'plan' | 'apply';

/**
 * The instance itself, for work no request asks for (serve's pruning, set-up in tests). Every
 * token, and local mode, acts as a user (the site administrators are users too).
 */
export const LOCAL_SITE_ADMIN: Actor = { kind: 'site-admin', tokenId: null };

export function isSiteAdmin(actor: Actor): boolean {
  return actor.kind === 'site-admin' || (actor.kind === 'user' && actor.siteAdmin);
}

export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'site-admin':
      return 'site administrator';
    case 'user':
      return `user ${actor.username}`;
    case 'team':
      return `team ${actor.teamId}`;
    case 'organization':
      return `organization token of ${actor.organizationId}`;
    case 'audit-trail':
      return `audit trail token of ${actor.organizationId}`;
    case 'run':
      return `run ${actor.runId}`;
  }
}
