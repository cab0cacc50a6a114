import { badRequest } from '../common/errors.js';

/** Who made a change, as the audit trail records it. */
export interface AuditActor {
  /** `user`, `team` (a team token), `organization` (an organization token), `audit-trail` or `site-admin`. */
  kind: string;
  /** The user, team or organization id (`user-…`, `team-…`, `org-…`); null for site administrators. */
  id: string | null;
  /** The token used (`at-…`); null for the local operator (local mode, no token). */
  tokenId: string | null;
  /** The username of a user, when cheap to know. */
  name: string | null;
}

/** What a change was made to: a JSON:API type and id, and its name when it has one. */
export interface AuditTarget {
  type: string | null;
  id: string | null;
  name: string | null;
}

/** One record of the audit trail. */
export interface AuditEvent {
  id: string;
  /** UTC ISO-8601 with milliseconds, from the request's clock. */
  time: string;
  /** A stable dotted name: `workspace.lock`, `project.create`, … (see docs/api.md). */
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  /** The organization's name when the change was made (null for instance-wide changes). */
  organizationName: string | null;
  /** The workspace the change concerns, if any (the target, or the workspace of a run, lock, …). */
  workspaceId: string | null;
  requestId: string | null;
}

/** The filters of an audit trail list, validated. */
export interface AuditFilter {
  /** Only events at or after this instant (normalised ISO-8601). */
  since?: string;
  /** Only events of this actor: a user, team or organization id, or a token id. */
  actor?: string;
  /** Only events about this workspace (`ws-…`). */
  workspace?: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const ACTOR_ID = /^(user|team|org|at)-[A-Za-z0-9]{16}$/;
const WORKSPACE_ID = /^ws-[A-Za-z0-9]{16}$/;

/**
 * Validates the raw `filter[since]`, `filter[actor]` and `filter[workspace]` values: a 400 naming
 * the parameter for any malformed one. A date without a time means midnight UTC; a time without
 * an offset is read as UTC.
 */
export function parseAuditFilter(raw: { since?: string; actor?: string; workspace?: string }): AuditFilter {
  const out: AuditFilter = {};
  if (raw.since !== undefined) {
    let text = raw.since;
    if (ISO_DATE.test(text) && text.includes('T') && !/(Z|[+-]\d{2}:?\d{2})$/.test(text)) text += 'Z';
    const ms = ISO_DATE.test(raw.since) ? Date.parse(text) : NaN;
    if (Number.isNaN(ms)) {
      throw badRequest('filter[since] must be an ISO-8601 date or date-time, e.g. 2025-01-31 or 2025-01-31T12:00:00Z', {
        parameter: 'filter[since]',
      });
    }
    out.since = new Date(ms).toISOString();
  }
  if (raw.actor !== undefined) {
    if (!ACTOR_ID.test(raw.actor)) {
      throw badRequest('filter[actor] must be a user, team, organization or token id (user-…, team-…, org-…, at-…)', {
        parameter: 'filter[actor]',
      });
    }
    out.actor = raw.actor;
  }
  if (raw.workspace !== undefined) {
    if (!WORKSPACE_ID.test(raw.workspace))
      throw badRequest('filter[workspace] must be a workspace id (ws-…)', { parameter: 'filter[workspace]' });
    out.workspace = raw.workspace;
  }
  return out;
}
