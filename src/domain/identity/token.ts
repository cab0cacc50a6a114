import { createHash, timingSafeEqual } from 'node:crypto';
import { Problems } from '../common/errors.js';
import { checkLength, TEXT_LIMITS } from '../common/limits.js';
import { randomTail } from '../common/ids.js';
import { parseTimestamp } from '../common/timestamp.js';

/** A new secret token. Shown once; only its hash is stored. */
export function generateToken(): string {
  return `berth.${randomTail(14)}.${randomTail(40)}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type TokenKind = 'site-admin' | 'user' | 'team' | 'organization' | 'audit-trails';

/** Who made a token: a user, a team (its token) or an organization (its token). */
export interface TokenCreator {
  type: 'users' | 'teams' | 'organizations';
  id: string;
}

export interface TokenInfo {
  id: string;
  kind: TokenKind;
  description: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  /** When it stops authenticating; null: never. */
  expiredAt?: string | null;
  createdBy?: TokenCreator | null;
  userId: string | null;
  teamId: string | null;
  organizationName: string | null;
  /** Present only in the response that created it. */
  token?: string;
}

/** Whether a token with this expiry has stopped authenticating at `now`. */
export function isExpired(expiredAt: string | null | undefined, now: Date): boolean {
  return expiredAt !== null && expiredAt !== undefined && Date.parse(expiredAt) <= now.getTime();
}

export interface TokenOptions {
  /** Absent (undefined), or the description given (null and "" are kept apart). */
  description?: string | null;
  expiredAt: string | null;
}

/**
 * The `description` and `expired-at` of a token-creating body (`data.attributes`). The body is
 * read leniently, as go-tfe sends it without a `type`. `expired-at` must be an ISO 8601 time in
 * the future (422 otherwise).
 */
export function parseTokenOptions(body: Record<string, unknown> | null, now: Date): TokenOptions {
  const data = body?.data as { attributes?: Record<string, unknown> } | undefined;
  const a =
    data && typeof data === 'object' && data.attributes && typeof data.attributes === 'object' ? data.attributes : {};
  const problems = new Problems();
  let description: string | null | undefined;
  if ('description' in a && a.description !== undefined) {
    if (a.description === null || typeof a.description === 'string') {
      if (
        checkLength(
          problems,
          '/data/attributes/description',
          'Description',
          a.description,
          TEXT_LIMITS.tokenDescription,
        )
      )
        description = a.description;
    } else problems.add('/data/attributes/description', 'Description must be a string');
  }
  let expiredAt: string | null = null;
  const raw = a['expired-at'];
  if (raw !== undefined && raw !== null) {
    const parsed = typeof raw === 'string' ? parseTimestamp(raw) : null;
    if (parsed === null) problems.add('/data/attributes/expired-at', 'Expired at must be an ISO 8601 date and time');
    else if (Date.parse(parsed) <= now.getTime())
      problems.add('/data/attributes/expired-at', 'Expired at must be in the future');
    else expiredAt = parsed;
  }
  problems.throwIfAny();
  return { description, expiredAt };
}
