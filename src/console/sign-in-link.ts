import { api } from './api.js';
import type { Document } from './jsonapi.js';
import { storeToken } from './token.js';

/**
 * The code of a one-time sign-in link (`SERVER/#sign-in=CODE`, printed by `berth login --web`),
 * taken out of the address bar at once so that it is neither kept in history nor shown.
 */
export function takeSignInCode(): string | null {
  const match = /^#sign-in=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  return match[1];
}

/** Trades a sign-in code for a token of its user (kept with its id, so that sign-out deletes it). */
export async function exchangeSignInCode(code: string): Promise<void> {
  const doc = await api<Document<{ token: string }>>('/console/sign-ins', {
    method: 'POST',
    anonymous: true,
    body: { data: { type: 'console-sign-ins', attributes: { code } } },
  });
  storeToken(doc.data.attributes.token, doc.data.id);
}
