import { Problems } from '../common/errors.js';

/**
 * Data retention policies (self-hosted edition). The kind is the JSON:API type it is read and
 * reported as: `data-retention-policy-delete-olders`, `data-retention-policy-dont-deletes`, or the
 * legacy `data-retention-policies` (delete-older semantics, for older go-tfe calls).
 */
export const RETENTION_TYPES = [
  'data-retention-policy-delete-olders',
  'data-retention-policy-dont-deletes',
  'data-retention-policies',
] as const;
export type RetentionType = (typeof RETENTION_TYPES)[number];

export interface RetentionPolicyInput {
  type: RetentionType;
  /** Set for the delete-older kinds, else null. */
  deleteOlderThanNDays: number | null;
}

export interface RetentionPolicy extends RetentionPolicyInput {
  id: string;
  /** What the policy belongs to; null for the instance's site-wide default. */
  target: { type: 'organizations' | 'workspaces'; id: string } | null;
  createdAt: string;
}

/**
 * The id of the site-wide default while no site administrator has set one: data is kept (a
 * don't-delete policy), which is what berth does when no policy applies.
 */
export const IMPLICIT_SITE_POLICY_ID = 'drp-siteDefault00000';

export function deletesOlder(type: RetentionType): boolean {
  return type !== 'data-retention-policy-dont-deletes';
}

/** Reads a policy document's `data` (already known to be an object). */
export function parseRetentionPolicy(data: Record<string, unknown>): RetentionPolicyInput {
  const problems = new Problems();
  const type = data.type;
  if (typeof type !== 'string' || !(RETENTION_TYPES as readonly string[]).includes(type)) {
    problems.add('/data/type', `type must be one of ${RETENTION_TYPES.join(', ')}`);
    problems.throwIfAny();
  }
  const t = type as RetentionType;
  if (!deletesOlder(t)) return { type: t, deleteOlderThanNDays: null };
  const attrs =
    data.attributes && typeof data.attributes === 'object' ? (data.attributes as Record<string, unknown>) : {};
  const days = attrs['delete-older-than-n-days'];
  const pointer = '/data/attributes/delete-older-than-n-days';
  if (days === undefined || days === null) problems.add(pointer, "Delete older than n days can't be blank");
  else if (typeof days !== 'number' || !Number.isInteger(days))
    problems.add(pointer, 'Delete older than n days must be an integer');
  else if (days < 1) problems.add(pointer, 'Delete older than n days must be greater than or equal to 1');
  else if (days > 36500) problems.add(pointer, 'Delete older than n days must be less than or equal to 36500');
  problems.throwIfAny();
  return { type: t, deleteOlderThanNDays: days as number };
}
