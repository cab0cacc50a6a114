import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  screenshot,
  signInWithToken,
  startConsoleServer,
  watchPage,
  type ConsoleServer,
} from './harness.js';

/** Signing in to the console: a pasted token, a `berth login --web` link, signing out, a revoked token. */
describe('console sign-in', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let alice: string;

  const apiStatus = async (token: string) =>
    (await fetch(`${s.url}/api/v2/account/details`, { headers: { Authorization: `Bearer ${token}` } })).status;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    await s.json(['user', 'create', 'alice', '--email', 'alice@example.com']);
    alice = (await s.cli(['token', 'create', '--user', 'alice'])).stdout.trim();
    await s.json(['org', 'create', 'acme', '--email', 'acme@example.com'], alice);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('serves the console at / with the security headers', async () => {
    const { context, page } = await newPage(browser);
    const res = await page.goto(`${s.url}/`);
    expect(res?.status()).toBe(200);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    await page.getByTestId('token-input').waitFor();
    await screenshot(page, 'sign-in');
    await context.close();
  });

  it('signs in with a pasted token kept in sessionStorage only, shows the API message for a bad one, and signs out', async () => {
    const { context, page } = await newPage(browser);
    const seen = watchPage(page);
    await page.goto(`${s.url}/`);
    await page.getByTestId('token-input').fill('berth.not-a-token');
    await page.getByTestId('sign-in').click();
    await expect
      .poll(() => page.getByTestId('error-message').textContent())
      .toContain('the token is missing, malformed, revoked or unknown');

    await page.getByTestId('token-input').fill(alice);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('sign-out').waitFor();
    await expect.poll(() => page.getByTestId('org-row').count()).toBe(1);
    expect(await page.getByTestId('org-row').textContent()).toContain('acme');
    await expect.poll(() => page.getByTestId('current-user').textContent()).toBe('alice');
    expect(await page.evaluate("sessionStorage.getItem('berth.token')")).toBe(alice);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(page.url()).not.toContain(alice);
    await screenshot(page, 'organizations');

    await page.getByTestId('sign-out').click();
    await page.getByTestId('token-input').waitFor();
    expect(await page.evaluate("sessionStorage.getItem('berth.token')")).toBeNull();
    // A pasted token is only forgotten, not revoked.
    expect(await apiStatus(alice)).toBe(200);
    expect(seen).toEqual({ dialogs: [], errors: [], csp: [] });
    await context.close();
  });

  it('signs in with a berth login --web link, which works once; sign-out deletes the minted token', async () => {
    const link = await s.json(['login', '--web', '--no-open'], alice);
    expect(link.url).toMatch(/#sign-in=[A-Za-z0-9_-]{43,}$/);

    const { context, page } = await newPage(browser);
    const seen = watchPage(page);
    await page.goto(link.url);
    await page.getByTestId('sign-out').waitFor();
    // The code left the address bar at once.
    expect(page.url()).not.toContain('sign-in=');
    await expect.poll(() => page.getByTestId('current-user').textContent()).toBe('alice');
    await expect.poll(() => page.getByTestId('org-row').count()).toBe(1);
    const minted = await page.evaluate<string>("sessionStorage.getItem('berth.token')");
    expect(minted).toMatch(/^berth\./);
    expect(minted).not.toBe(alice);
    expect(await apiStatus(minted)).toBe(200);

    // The same link in another tab: refused with the API's message.
    const other = await newPage(browser);
    await other.page.goto(link.url);
    await expect
      .poll(() => other.page.getByTestId('error-message').textContent())
      .toContain('sign-in link not found or expired');
    await other.page.getByTestId('token-input').waitFor();
    expect(await other.page.evaluate("sessionStorage.getItem('berth.token')")).toBeNull();
    await other.context.close();

    await page.getByTestId('sign-out').click();
    await page.getByTestId('token-input').waitFor();
    await expect.poll(() => apiStatus(minted)).toBe(401);
    expect(await apiStatus(alice)).toBe(200);
    expect(seen).toEqual({ dialogs: [], errors: [], csp: [] });
    await context.close();
  });

  it('returns to the sign-in page with the API message when the token stops working', async () => {
    const made = await s.json(['token', 'create', '--user', 'alice']);
    const token = made.attributes.token as string;
    const { context, page } = await newPage(browser);
    await signInWithToken(page, s.url, token);
    expect((await s.cli(['token', 'revoke', made.id])).code).toBe(0);
    await page.reload();
    await page.getByTestId('token-input').waitFor();
    await expect
      .poll(() => page.getByTestId('error-message').textContent())
      .toContain('the token is missing, malformed, revoked or unknown');
    await context.close();
  });
});
