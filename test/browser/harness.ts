import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
// @ts-expect-error: a plain ES module script, shared with scripts/test-browser.mjs.
import { findChromium } from '../../scripts/chromium.mjs';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** Where the tests save screenshots of the main pages (git-ignored; README images come from here). */
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Headless Debian chromium through playwright-core. `--no-sandbox`: chromium's sandbox cannot
 * start as root in a container; `--disable-dev-shm-usage`: containers have a small /dev/shm.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = (findChromium as () => string | null)();
  if (!executablePath)
    throw new Error('chromium not found: run the browser tests with `npm run test:browser` (it installs chromium)');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** A real `berth serve` on a temporary SQLite database, with its site-administrator token. */
export interface ConsoleServer {
  server: ServeProcess;
  url: string;
  /** The site administrator's token (printed by serve at its first start). */
  adminToken: string;
  /** The CLI pointed at this server with `token` (default: the administrator's). */
  cli: (args: string[], token?: string) => ReturnType<typeof runCli>;
  /** Like `cli`, expecting success, parsing `--json` output. */
  json: (args: string[], token?: string) => Promise<any>;
  /** A request to the API (`/api/v2` + path) with `token`; throws unless it succeeds; the body's `data`. */
  api: (token: string, method: string, path: string, body?: unknown) => Promise<any>;
  stop: () => Promise<void>;
}

export async function startConsoleServer(): Promise<ConsoleServer> {
  const tmp = tempDb();
  const server = await startServe(tmp.db);
  const adminToken = server.token!;
  const cli = (args: string[], token = adminToken) =>
    runCli([...args, '--server', server.url, '--token', token], { DISPLAY: '', WAYLAND_DISPLAY: '' });
  const json = async (args: string[], token = adminToken) => {
    const r = await cli([...args, '--json'], token);
    if (r.code !== 0) throw new Error(`berth ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout.trim() === '' ? null : JSON.parse(r.stdout);
  };
  const url = server.url.replace(/\/$/, '');
  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: unknown }).data : null;
  };
  return {
    server,
    url,
    api,
    adminToken,
    cli,
    json,
    stop: async () => {
      await server.stop();
      tmp.cleanup();
    },
  };
}

/** Collects what must never happen on a page: dialogs (alert from injected script), page errors, CSP reports. */
export function watchPage(page: Page): { dialogs: string[]; errors: string[]; csp: string[] } {
  const seen = { dialogs: [] as string[], errors: [] as string[], csp: [] as string[] };
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) seen.csp.push(m.text());
  });
  return seen;
}

/** A new browser context (own sessionStorage) and page, with a phone-less desktop viewport by default. */
export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  // A missing element fails in 10 s, not playwright's default 30 s.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page };
}

/** Saves a full-page screenshot as test/browser/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Signs in on the sign-in page by pasting a token. */
export async function signInWithToken(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/#/`);
  await page.getByTestId('token-input').fill(token);
  await page.getByTestId('sign-in').click();
  await page.getByTestId('sign-out').waitFor();
}

/** The page's document is no wider than its viewport (no horizontal scroll). */
export async function horizontalOverflow(page: Page): Promise<number> {
  const widths = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  return widths[0] - widths[1];
}
