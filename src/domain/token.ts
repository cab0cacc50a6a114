import { createHash, timingSafeEqual } from 'node:crypto';
import { invalid } from './errors.js';
import { randomTail } from './ids.js';
import { parseTimestamp } from './timestamp.js';

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

export interface TokenInfo {
  id: string;
  kind: 'site-admin' | 'user' | 'team' | 'organization';
  description: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  /** When it stops working; null for never. */
  expiredAt: string | null;
  userId: string | null;
  teamId: string | null;
  organizationName: string | null;
  /** Present only in the response that created it. */
  token?: string;
}

export interface TokenOptions {
  description: string | null;
  expiredAt: string | null;
}

/**
 * `description` and `expired-at` of a token-creating body (both optional). `expired-at` must be
 * an ISO 8601 time in the future; it is stored as UTC with milliseconds.
 */
export function parseTokenOptions(body: Record<string, unknown> | null, now: Date): TokenOptions {
  const data = body?.data as { attributes?: Record<string, unknown> } | undefined;
  const a = data?.attributes ?? {};
  const description = typeof a.description === 'string' ? a.description : null;
  const raw = a['expired-at'];
  if (raw === undefined || raw === null) return { description, expiredAt: null };
  const pointer = '/data/attributes/expired-at';
  const expiredAt = typeof raw === 'string' ? parseTimestamp(raw) : null;
  if (!expiredAt) throw invalid(pointer, 'Expired at must be an ISO 8601 date and time, like 2030-01-31T12:00:00Z');
  if (Date.parse(expiredAt) <= now.getTime()) throw invalid(pointer, 'Expired at must be in the future');
  return { description, expiredAt };
}

/** Whether a token with this expiry has stopped working at `now`. */
export function isExpired(expiredAt: string | null, now: Date): boolean {
  return expiredAt !== null && Date.parse(expiredAt) <= now.getTime();
}
