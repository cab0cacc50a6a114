import { createHmac, timingSafeEqual } from 'node:crypto';

/** The two files a state version can hold: the raw state and its `terraform show -json` form. */
export type StateFileKind = 'state' | 'json-state';

/** What a hosted-state URL lets its bearer do. */
export type StateUrlUse = 'upload' | 'download';

/** How long a hosted-state URL works, unless `berth serve --state-url-ttl` says otherwise: five minutes. */
export const DEFAULT_STATE_URL_TTL_SECONDS = 300;

/** The largest `--state-url-ttl`: one day. */
export const MAX_STATE_URL_TTL_SECONDS = 86_400;

/** The signature of a hosted-state URL: HMAC-SHA256 of what it is for and until when, base64url. */
export function stateUrlSignature(key: string, id: string, kind: StateFileKind, use: StateUrlUse, expires: number) {
  return createHmac('sha256', key).update(`${use}\n${kind}\n${id}\n${expires}`).digest('base64url');
}

/** The query string (without `?`) that signs a hosted-state URL until `ttlSeconds` after `now`. */
export function signedStateQuery(
  key: string,
  id: string,
  kind: StateFileKind,
  use: StateUrlUse,
  now: Date,
  ttlSeconds: number,
): string {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return `expires=${expires}&signature=${stateUrlSignature(key, id, kind, use, expires)}`;
}

/**
 * Whether a hosted-state URL's `expires` and `signature` were signed with `key` for this version,
 * file and use, and have not yet expired at `now` (expired at the `expires` second itself).
 */
export function stateUrlValid(
  key: string,
  id: string,
  kind: StateFileKind,
  use: StateUrlUse,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  return signedUntilValid(expires, signature, now, (at) => stateUrlSignature(key, id, kind, use, at));
}

/**
 * Whether an `expires` (seconds since the epoch, as signed) is still ahead of `now` and
 * `signature` is what `sign` makes of it, compared in constant time: the check of every signed
 * URL berth hands out (hosted state, configuration uploads, run logs).
 */
export function signedUntilValid(
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
  sign: (expires: number) => string,
): boolean {
  if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) return false;
  const at = Number(expires);
  if (at * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(sign(at));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
