import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acmeScene, rowNames, setFilter, type Scene } from './fixture.js';
import { launchBrowser, newPage, signInWithToken, startConsoleServer, type ConsoleServer } from './harness.js';

/** Issue 33, item 17.11: audit filters by name, lock holders in the list, page sizes, the audit link. */
describe('console small ones', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;
  let page: Page;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    scene = await acmeScene(s);
    // 25 more workspaces: more than one page of 20.
    for (let i = 0; i < 25; i++)
      await s.api(scene.alice, 'POST', '/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: `extra-${String(i).padStart(2, '0')}` } },
      });
    ({ page } = await newPage(browser));
    await signInWithToken(page, s.url, scene.alice);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const rowTexts = () => page.getByTestId('audit-row').allTextContents();

  it('the audit filters take a username and a workspace name', async () => {
    await page.goto(`${s.url}/#/orgs/acme/audit`);
    await expect.poll(() => page.getByTestId('audit-row').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    await setFilter(page.getByTestId('audit-workspace'), 'db-prod');
    // db-prod's records only: its creation and its lock among them, no other workspace's.
    await expect
      .poll(
        async () => {
          const rows = (await rowTexts()).join('\n');
          return rows.includes('workspace.createworkspaces db-prod') && !/app-prod|app-staging|tools|extra-/.test(rows);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect((await rowTexts()).some((t) => t.includes('workspace.lockworkspaces db-prod'))).toBe(true);
    expect(await page.getByTestId('error-message').count()).toBe(0);
    // Both filters: alice's records of db-prod (its creation), not the site administrator's lock.
    // The list shown before (all of db-prod's) has that lock: it cannot pass for the filtered one.
    await setFilter(page.getByTestId('audit-actor'), 'alice');
    await expect.poll(() => page.url()).toContain('actor=alice');
    const who = () => page.getByTestId('audit-row').locator('td:nth-child(2)').allTextContents();
    await expect
      .poll(
        async () => {
          const rows = (await rowTexts()).join('\n');
          return (
            (await who()).every((t) => t.trim() === 'alice') && rows.includes('workspace.createworkspaces db-prod')
          );
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect((await rowTexts()).some((t) => t.includes('workspace.lock'))).toBe(false);
    await setFilter(page.getByTestId('audit-workspace'), '');
    await expect.poll(() => page.url()).not.toContain('workspace=');
    await expect
      .poll(
        async () => {
          const rows = await who();
          return rows.length > 5 && rows.every((t) => t.trim() === 'alice');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await setFilter(page.getByTestId('audit-actor'), 'nobody-here');
    await expect
      .poll(() => page.getByTestId('error-message').textContent())
      .toBe('no member of acme is named nobody-here');
  });

  it('Enter right after typing settles what was typed, even before the page re-rendered', async () => {
    await page.goto(`${s.url}/#/orgs/acme/audit`);
    await expect.poll(() => page.getByTestId('audit-row').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    // The text and Enter in one task: the field's handlers run before Preact renders the text
    // (CI once pressed Enter that fast; the filter was then dropped with its pending debounce).
    await page.getByTestId('audit-actor').evaluate((el) => {
      const input = el as unknown as { value: string; dispatchEvent(e: unknown): boolean };
      input.value = 'nobody-here';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const Keyboard = (globalThis as unknown as { KeyboardEvent: new (type: string, init: object) => unknown })
        .KeyboardEvent;
      input.dispatchEvent(new Keyboard('keydown', { key: 'Enter', bubbles: true }));
    });
    await expect.poll(() => page.url()).toContain('actor=nobody-here');
    await expect
      .poll(() => page.getByTestId('error-message').textContent())
      .toBe('no member of acme is named nobody-here');
  });

  it('text typed while the previous filter is still being applied is kept and settles in its turn', async () => {
    await page.goto(`${s.url}/#/orgs/acme/audit`);
    await expect.poll(() => page.getByTestId('audit-row').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    // In one task: settle "alice" with Enter (the URL changes; the page renders it later), then
    // type "nobody-here". The rendering of "alice" must not throw away what was typed after it
    // (CI once typed between that rendering and its effect: the text and its debounce were lost).
    await page.getByTestId('audit-actor').evaluate((el) => {
      const input = el as unknown as { value: string; dispatchEvent(e: unknown): boolean };
      const Keyboard = (globalThis as unknown as { KeyboardEvent: new (type: string, init: object) => unknown })
        .KeyboardEvent;
      input.value = 'alice';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Keyboard('keydown', { key: 'Enter', bubbles: true }));
      input.value = 'nobody-here';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect.poll(() => page.url(), { timeout: 5_000 }).toContain('actor=nobody-here');
    await expect
      .poll(() => page.getByTestId('error-message').textContent())
      .toBe('no member of acme is named nobody-here');
    expect(await page.getByTestId('audit-actor').inputValue()).toBe('nobody-here');
  });

  it('the workspace list names the lock holder next to the lock age', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces?search=prod`);
    await expect.poll(async () => (await rowNames(page)).sort(), { timeout: 10_000 }).toEqual(['app-prod', 'db-prod']);
    const holder = page.locator('[data-name="db-prod"]').getByTestId('workspace-lock-holder');
    await expect.poll(() => holder.textContent()).toContain('by admin');
    expect(await page.locator('[data-name="app-prod"]').getByTestId('workspace-lock-holder').count()).toBe(0);
  });

  it('a page size of 20, 50 or 100, kept in the URL', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces`);
    await expect.poll(() => page.getByTestId('workspace-row').count(), { timeout: 10_000 }).toBe(20);
    await setFilter(page.getByTestId('page-size'), '50');
    await expect.poll(() => page.getByTestId('workspace-row').count(), { timeout: 10_000 }).toBe(29);
    expect(page.url()).toContain('size=50');
    await expect.poll(() => page.getByTestId('page-info').textContent()).toContain('page 1 of 1');
  });

  it('the Audit trail link shows only to those who may read the audit trail', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces`);
    await expect.poll(() => page.getByTestId('nav-audit').count(), { timeout: 10_000 }).toBe(1);
    const { page: rita } = await newPage(browser);
    await signInWithToken(rita, s.url, scene.rita);
    // The organization's document (with the caller's permissions) decides: wait for its answer.
    const orgAnswer = rita.waitForResponse((r) => r.url().endsWith('/api/v2/organizations/acme'));
    await rita.goto(`${s.url}/#/orgs/acme/workspaces`);
    expect((await orgAnswer).status()).toBe(200);
    await expect.poll(() => rita.getByTestId('workspace-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await rita.getByTestId('nav-locks').count()).toBe(1);
    expect(await rita.getByTestId('nav-audit').count()).toBe(0);
  });
});
