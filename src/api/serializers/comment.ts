import type { RunComment } from '../../domain/runs/run-events.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A comment on a run: HCP's `body` and `run-event`; berth adds `created-at`, the `run` and the
 * `author` (null: a token of no user, or a user since deleted).
 */
export function serializeComment(c: RunComment): ResourceObject {
  return {
    id: c.id,
    type: 'comments',
    attributes: { body: c.body, 'created-at': c.createdAt },
    relationships: {
      'run-event': toOne('run-events', c.runEventId, `${API_PREFIX}/run-events/${c.runEventId}`),
      run: toOne('runs', c.runId, `${API_PREFIX}/runs/${c.runId}`),
      author: toOne('users', c.authorUserId, c.authorUserId ? `${API_PREFIX}/users/${c.authorUserId}` : undefined),
    },
    links: { self: `${API_PREFIX}/comments/${c.id}` },
  };
}
