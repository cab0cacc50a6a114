import { createHash, timingSafeEqual } from 'node:crypto';
import { randomTail } from './ids.js';

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
  userId: string | null;
  teamId: string | null;
  organizationName: string | null;
  /** Present only in the response that created it. */
  token?: string;
}
