import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, startConsoleServer, watchPage, type ConsoleServer } from './harness.js';

/**
 * `terraform login` in the browser: the CLI opens `/terraform-login/authorize?...`; a person who is
 * not signed in signs in, sees who asks, and approves (the browser goes to the CLI's callback with
 * a code that the token endpoint trades for a token of theirs) or denies (the callback is never
 * called). The CLI's side of it runs in test/e2e/terraform/login.test.ts with the real CLI.
 */
describe('console: terraform login approval', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let alice: string;
  let callback: Server;
  let port = 0;
  // Every request the browser makes to the listener: the callback itself, then whatever the
  // browser asks for on its own once the page is shown (such as /favicon.ico).
  const calls: URL[] = [];
  let called: ((first: URL) => void) | null = null;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    await s.json(['user', 'create', 'alice', '--email', 'alice@example.com']);
    alice = (await s.cli(['token', 'create', '--user', 'alice'])).stdout.trim();
    // The CLI's loopback listener: records what the browser brings back.
    callback = createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://localhost:${port}`);
      calls.push(url);
      res.end('The login is complete. You may close this page.');
      called?.(url);
      called = null;
    });
    await new Promise<void>((done) => callback.listen(0, '127.0.0.1', done));
    port = (callback.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
    callback?.close();
  });

  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  const authorizeUrl = (challenge: string, state: string) =>
    `${s.url}/terraform-login/authorize?${new URLSearchParams({
      client_id: 'terraform-cli',
      redirect_uri: `http://localhost:${port}/login`,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    }).toString()}`;

  it('a person signs in on the way, approves, and the code brought to the CLI buys a token of theirs', async () => {
    const { verifier, challenge } = pkce();
    const { context, page } = await newPage(browser);
    const seen = watchPage(page);
    const arrived = new Promise<URL>((done) => (called = done));
    await page.goto(authorizeUrl(challenge, 'state-1'));
    await page.getByTestId('token-input').fill(alice);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('terraform-login').waitFor();
    expect(await page.getByTestId('terraform-login-client').textContent()).toBe('terraform-cli');
    expect(await page.getByTestId('terraform-login-callback').textContent()).toBe(`localhost:${port}`);
    await screenshot(page, 'terraform-login');
    await page.getByTestId('terraform-login-approve').click();
    // The first request to arrive is the redirect: the browser asks for a favicon only after it.
    const back = await arrived;
    expect(back.pathname).toBe('/login');
    expect(back.searchParams.get('state')).toBe('state-1');
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const res = await fetch(`${s.url}/api/v2/terraform-login/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: 'terraform-cli',
        code_verifier: verifier,
        redirect_uri: `http://localhost:${port}/login`,
      }).toString(),
    });
    expect(res.status).toBe(200);
    const token = ((await res.json()) as { access_token: string }).access_token;
    const me = await fetch(`${s.url}/api/v2/account/details`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { data: { attributes: { username: string } } }).data.attributes.username).toBe(
      'alice',
    );
    expect(seen.errors).toEqual([]);
    expect(seen.csp).toEqual([]);
    await context.close();
  });

  it('deny says no token was made and never calls the CLI back', async () => {
    const { challenge } = pkce();
    const { context, page } = await newPage(browser);
    await page.goto(authorizeUrl(challenge, 'state-2'));
    await page.getByTestId('token-input').fill(alice);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('terraform-login-deny').click();
    await page.getByTestId('terraform-login-denied').waitFor();
    expect(calls.filter((c) => c.searchParams.get('state') === 'state-2')).toEqual([]);
    await context.close();
  });
});
