import type { RunEvent } from '../../domain/runs/run-events.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A run event: HCP's `action`, `description`, `created-at`, its `actor` (a user; null for berth
 * itself) and `comment` (null: none given); berth adds the `run`.
 */
export function serializeRunEvent(e: RunEvent): ResourceObject {
  return {
    id: e.id,
    type: 'run-events',
    attributes: { action: e.action, description: e.description, 'created-at': e.createdAt },
    relationships: {
      actor: toOne('users', e.actorUserId, e.actorUserId ? `${API_PREFIX}/users/${e.actorUserId}` : undefined),
      comment: toOne('comments', e.commentId, e.commentId ? `${API_PREFIX}/comments/${e.commentId}` : undefined),
      run: toOne('runs', e.runId, `${API_PREFIX}/runs/${e.runId}`),
    },
    links: { self: `${API_PREFIX}/run-events/${e.id}` },
  };
}
