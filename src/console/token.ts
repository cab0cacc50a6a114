/**
 * The API token of this browser tab: in sessionStorage only (never a cookie, the URL or
 * localStorage), so that it is forgotten when the tab closes. A token minted by a one-time
 * sign-in link also keeps its id, so that signing out can delete it.
 */
const TOKEN_KEY = 'berth.token';
const TOKEN_ID_KEY = 'berth.token-id';

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storedTokenId(): string | null {
  return sessionStorage.getItem(TOKEN_ID_KEY);
}

export function storeToken(token: string, tokenId: string | null = null): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  if (tokenId) sessionStorage.setItem(TOKEN_ID_KEY, tokenId);
  else sessionStorage.removeItem(TOKEN_ID_KEY);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN_ID_KEY);
}
