import { randomBytes } from 'node:crypto';

/** How long a console sign-in link works: 60 seconds, once. */
export const SIGN_IN_LINK_TTL_MS = 60_000;

/** How long the token a sign-in link mints works: 8 hours. */
export const CONSOLE_TOKEN_TTL_MS = 8 * 3600_000;

/** The description of every token minted by a sign-in link. */
export const CONSOLE_TOKEN_DESCRIPTION = 'berth console sign-in';

/** A link's secret code: 32 random bytes, url-safe base64 (43 characters). */
export function generateSignInCode(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a value can be a code at all (anything else is answered as an unknown code). */
export function looksLikeSignInCode(value: string): boolean {
  return /^[A-Za-z0-9_-]{43,128}$/.test(value);
}
