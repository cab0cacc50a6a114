import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acmeScene, type Scene } from './fixture.js';
import {
  horizontalOverflow,
  launchBrowser,
  newPage,
  screenshot,
  signInWithToken,
  startConsoleServer,
  type ConsoleServer,
} from './harness.js';

/** The main pages, each with what shows it has loaded. */
const PAGES: [string, string, string][] = [
  ['organizations', '#/', 'org-row'],
  ['workspaces', '#/orgs/acme/workspaces', 'workspace-row'],
  ['workspace', '#/orgs/acme/workspaces/app-staging', 'lock-holder'],
  ['locks-board', '#/orgs/acme/locks', 'locks-board-row'],
  ['audit', '#/orgs/acme/audit', 'audit-row'],
];

/** The relative luminance (0 black, 1 white) of a CSS rgb()/rgba() colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => Number(v) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

describe('console layout', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    scene = await acmeScene(s);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const visit = async (page: Page, hash: string, ready: string) => {
    await page.goto(`${s.url}/${hash}`);
    await page.getByTestId(ready).first().waitFor();
  };

  it('has no horizontal scroll at 320 px on the main pages', async () => {
    const { context, page } = await newPage(browser, { width: 320, height: 640 });
    await page.goto(`${s.url}/`);
    await page.getByTestId('token-input').waitFor();
    expect(await horizontalOverflow(page), 'sign-in').toBeLessThanOrEqual(0);
    await signInWithToken(page, s.url, scene.alice);
    for (const [name, hash, ready] of PAGES) {
      await visit(page, hash, ready);
      expect(await horizontalOverflow(page), name).toBeLessThanOrEqual(0);
      await screenshot(page, `narrow-${name}`);
    }
    await context.close();
  });

  it('follows the system theme: dark when the system prefers dark', async () => {
    const background = async (scheme: 'light' | 'dark') => {
      const { context, page } = await newPage(browser, { colorScheme: scheme });
      await signInWithToken(page, s.url, scene.alice);
      await visit(page, '#/orgs/acme/locks', 'locks-board-row');
      // The page's background: the body's, else (transparent body) the root element's.
      const colors = await page.evaluate<[string, string]>(`(() => {
        const bg = (el) => getComputedStyle(el).backgroundColor;
        const body = bg(document.body);
        const clear = body === 'transparent' || /rgba\\(0, 0, 0, 0\\)/.test(body);
        return [clear ? bg(document.documentElement) : body, getComputedStyle(document.body).color];
      })()`);
      await screenshot(page, `${scheme}-locks-board`);
      await context.close();
      return colors.map(luminance);
    };
    const [lightBg, lightText] = await background('light');
    const [darkBg, darkText] = await background('dark');
    expect(lightBg).toBeGreaterThan(0.5);
    expect(lightText).toBeLessThan(lightBg);
    expect(darkBg).toBeLessThan(0.2);
    expect(darkText).toBeGreaterThan(darkBg);
  });
});
