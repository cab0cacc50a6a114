import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BerthError } from '../common/errors.js';

/**
 * `terraform login` (the `login.v1` service): OAuth 2.0's authorization-code grant with PKCE,
 * as the Terraform CLI speaks it. The CLI is a public client: its `client_id` is advisory, so
 * what binds a code to the CLI that asked for it is the PKCE challenge and the loopback redirect.
 */

/** The only client berth offers `login.v1` to (the `client` of its discovery document). */
export const TERRAFORM_LOGIN_CLIENT = 'terraform-cli';

/** The local ports the CLI may listen on for the redirect (advertised as `ports`). */
export const TERRAFORM_LOGIN_PORTS: readonly [number, number] = [10000, 10010];

/** How long an authorization code works: 60 seconds, once (the CLI trades it at once). */
export const LOGIN_CODE_TTL_MS = 60_000;

/** The description of every token minted by `terraform login`. */
export const TERRAFORM_LOGIN_TOKEN_DESCRIPTION = 'terraform login';

/** The longest `state` berth carries back to the CLI (the CLI sends a UUID). */
export const MAX_LOGIN_STATE_LENGTH = 512;

/** What a person approves: the validated parameters of an authorization request. */
export interface LoginRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
}

/** The parameters as received (query or body), every one optional until checked. */
export interface LoginRequestInput {
  clientId?: unknown;
  redirectUri?: unknown;
  responseType?: unknown;
  codeChallenge?: unknown;
  codeChallengeMethod?: unknown;
  state?: unknown;
}

export interface LoginRequestProblem {
  field: keyof LoginRequestInput;
  detail: string;
}

/**
 * Whether a redirect URI is one the CLI's temporary callback server can be: plain HTTP to
 * `localhost` or `127.0.0.1`, an explicit unprivileged port, no credentials, no fragment.
 * Anything else could send the code to someone other than the person's own CLI.
 */
export function isLoopbackRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') return false;
  if (url.username !== '' || url.password !== '' || url.hash !== '' || uri.includes('#')) return false;
  const port = Number(url.port);
  return url.port !== '' && port >= 1024 && port <= 65535;
}

/** A PKCE S256 challenge: base64url (no padding) of a SHA-256, 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A PKCE code verifier (RFC 7636 4.1): 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Checks an authorization request: every problem found, or the request to show and approve. */
export function checkLoginRequest(input: LoginRequestInput): LoginRequest | LoginRequestProblem[] {
  const problems: LoginRequestProblem[] = [];
  const clientId = text(input.clientId);
  if (clientId !== TERRAFORM_LOGIN_CLIENT)
    problems.push({ field: 'clientId', detail: `client_id must be ${TERRAFORM_LOGIN_CLIENT}` });
  const redirectUri = text(input.redirectUri);
  if (redirectUri === null || !isLoopbackRedirect(redirectUri))
    problems.push({
      field: 'redirectUri',
      detail: 'redirect_uri must be http://localhost:PORT/... or http://127.0.0.1:PORT/... (the CLI on this computer)',
    });
  if (input.responseType !== 'code') problems.push({ field: 'responseType', detail: 'response_type must be code' });
  if (input.codeChallengeMethod !== 'S256')
    problems.push({ field: 'codeChallengeMethod', detail: 'code_challenge_method must be S256' });
  const codeChallenge = text(input.codeChallenge);
  if (codeChallenge === null || !CHALLENGE.test(codeChallenge))
    problems.push({ field: 'codeChallenge', detail: 'code_challenge must be a base64url SHA-256 (43 characters)' });
  const state = input.state === undefined || input.state === null || input.state === '' ? null : input.state;
  if (state !== null && (typeof state !== 'string' || state.length > MAX_LOGIN_STATE_LENGTH))
    problems.push({ field: 'state', detail: `state must be a string of at most ${MAX_LOGIN_STATE_LENGTH} characters` });
  if (problems.length > 0) return problems;
  return {
    clientId: clientId!,
    redirectUri: redirectUri!,
    codeChallenge: codeChallenge!,
    state: state as string | null,
  };
}

/** An authorization code: 32 random bytes, url-safe base64 (43 characters). */
export function generateLoginCode(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a value can be a code at all (anything else is answered as an unknown code). */
export function looksLikeLoginCode(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Whether a value is a well-formed PKCE code verifier. */
export function looksLikeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

/** Whether `verifier` is the one `challenge` was made from (S256), compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const made = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return made.length === expected.length && timingSafeEqual(made, expected);
}

/** The redirect URI with the answer's parameters added to its query. */
export function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

/** The error codes of OAuth 2.0's token endpoint (RFC 6749 5.2) that berth answers. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type';

/**
 * A refusal of the token endpoint: a 400 whose body is OAuth's `{"error", "error_description"}`
 * (the route renders it so); elsewhere an ordinary 400.
 */
export class OAuthError extends BerthError {
  constructor(
    readonly code: OAuthErrorCode,
    description: string,
  ) {
    super([{ status: 400, title: code, detail: description }]);
    this.name = 'OAuthError';
  }
}
