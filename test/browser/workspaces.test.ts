import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { acmeScene, rowNames, setFilter, type Scene } from './fixture.js';
import {
  launchBrowser,
  newPage,
  screenshot,
  signInWithToken,
  startConsoleServer,
  type ConsoleServer,
} from './harness.js';

/** The workspaces list and its filters, the workspace page's lock buttons, the locks board, permissions. */
describe('console workspaces and locks', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;
  let page: Page;

  const show = async (name: string) => (await s.json(['workspace', 'show', `acme/${name}`], scene.alice)).attributes;
  const list = `#/orgs/acme/workspaces`;
  /** The list shows these names (in this order with `ordered`, else in any). */
  const settle = (expected: string[], ordered = false) =>
    expect
      .poll(async () => (ordered ? rowNames(page) : (await rowNames(page)).sort()), { timeout: 10_000 })
      .toEqual(expected);
  /** Opens a workspace's page and waits for its document (the name alone comes from the route). */
  const workspacePage = async (name: string) => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/${name}`);
    await expect.poll(() => page.getByTestId('workspace-name').textContent()).toBe(name);
    await page.getByTestId('workspace-id').waitFor();
    await page.getByTestId('lock-state').waitFor();
  };

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    scene = await acmeScene(s);
    ({ page } = await newPage(browser));
    await signInWithToken(page, s.url, scene.alice);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('lists the workspaces and filters them by search, project, tag, key-value tag and lock', async () => {
    await page.goto(`${s.url}/${list}`);
    await settle(['app-prod', 'app-staging', 'db-prod', 'tools']);
    await screenshot(page, 'workspaces');

    await setFilter(page.getByTestId('workspace-search'), 'app');
    await settle(['app-prod', 'app-staging']);
    expect(page.url()).toContain('search=app');

    await page.goto(`${s.url}/${list}`);
    await settle(['app-prod', 'app-staging', 'db-prod', 'tools']);
    await setFilter(page.getByTestId('filter-project'), 'Beta');
    await settle(['db-prod', 'tools']);

    await page.goto(`${s.url}/${list}`);
    await settle(['app-prod', 'app-staging', 'db-prod', 'tools']);
    await setFilter(page.getByTestId('filter-tags'), 'web');
    await settle(['app-prod', 'app-staging']);

    await page.goto(`${s.url}/${list}`);
    await settle(['app-prod', 'app-staging', 'db-prod', 'tools']);
    await setFilter(page.getByTestId('filter-locked'), 'true');
    await settle(['app-staging', 'db-prod']);

    // Every filter is in the address (a page can be shared), key-value tags too.
    await page.goto(`${s.url}/${list}?tagged=env:prod`);
    await settle(['app-prod', 'db-prod']);
    await page.goto(`${s.url}/${list}?locked=false&sort=-name`);
    await settle(['tools', 'app-prod'], true);
  });

  it('locks and unlocks from the workspace page, and the CLI agrees', async () => {
    await workspacePage('app-prod');
    await page.getByTestId('lock-reason').fill('from the console');
    await page.getByTestId('lock-button').click();
    await page.getByTestId('unlock-button').waitFor();
    await expect.poll(() => page.getByTestId('lock-holder').textContent()).toContain('alice');
    const locked = await show('app-prod');
    expect(locked.locked).toBe(true);
    expect(locked['locked-reason']).toBe('from the console');

    await page.getByTestId('unlock-button').click();
    await page.getByTestId('lock-button').waitFor();
    expect((await show('app-prod')).locked).toBe(false);
  });

  it('shows a lock made with the CLI after a reload: holder and reason', async () => {
    await workspacePage('app-prod');
    await page.getByTestId('lock-button').waitFor();
    const r = await s.cli(['workspace', 'lock', 'acme/app-prod', '--reason', 'nightly backup'], scene.alice);
    expect(r.code, r.stderr).toBe(0);
    await page.reload();
    await page.getByTestId('unlock-button').waitFor();
    await expect.poll(() => page.getByTestId('lock-holder').textContent()).toContain('alice');
    await expect.poll(() => page.getByText('nightly backup').count()).toBeGreaterThan(0);
    // The README's picture of the workspace page (scripts/readme-screenshots.mjs).
    await screenshot(page, 'workspace');
    expect((await s.cli(['workspace', 'unlock', 'acme/app-prod'], scene.alice)).code).toBe(0);
  });

  it("force-unlocks another's lock (owners only)", async () => {
    // The lock card asks who the caller is, to offer Unlock to the lock's holder alone.
    const whoAmI = page.waitForResponse((r) => r.url().endsWith('/api/v2/account/details'));
    await workspacePage('db-prod');
    await whoAmI;
    await expect.poll(() => page.getByTestId('lock-holder').textContent()).toContain('admin');
    // Only the holder may unlock: alice, an owner, is offered the force unlock alone.
    await page.getByTestId('force-unlock-button').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('unlock-button').count()).toBe(0);
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('force-unlock-button').click();
    const confirm = page.getByTestId('confirm');
    if ((await confirm.count()) > 0) await confirm.click();
    await page.getByTestId('lock-button').waitFor();
    expect((await show('db-prod')).locked).toBe(false);
    await s.api(s.adminToken, 'POST', `/workspaces/${scene.workspaces['db-prod']}/actions/lock`, {
      reason: 'schema migration',
    });
  });

  it('the locks board lists every locked workspace, oldest lock first, with holder and reason', async () => {
    // app-staging (alice, 'release 42') was locked before db-prod's new lock.
    await page.goto(`${s.url}/#/orgs/acme/locks`);
    await expect.poll(() => rowNames(page, 'locks-board-row'), { timeout: 10_000 }).toEqual(['app-staging', 'db-prod']);
    const rows = page.getByTestId('locks-board-row');
    expect(await rows.nth(0).textContent()).toContain('alice');
    expect(await rows.nth(0).textContent()).toContain('release 42');
    expect(await rows.nth(1).textContent()).toContain('admin');
    expect(await rows.nth(1).textContent()).toContain('schema migration');
    // The README's picture of the locks board (scripts/readme-screenshots.mjs).
    await screenshot(page, 'locks-board');
  });

  it('a user whose team may only read sees no lock button', async () => {
    const { context, page: ritaPage } = await newPage(browser);
    await signInWithToken(ritaPage, s.url, scene.rita);
    await ritaPage.goto(`${s.url}/#/orgs/acme/workspaces`);
    await expect
      .poll(async () => (await rowNames(ritaPage)).sort(), { timeout: 10_000 })
      .toEqual(['app-prod', 'db-prod']);
    for (const name of ['app-prod', 'db-prod']) {
      // On a locked workspace, who is asking decides whether the holder's Unlock is offered: wait
      // for that answer, and for the lock card, before counting the buttons.
      const whoAmI =
        name === 'db-prod' ? ritaPage.waitForResponse((r) => r.url().endsWith('/api/v2/account/details')) : null;
      await ritaPage.goto(`${s.url}/#/orgs/acme/workspaces/${name}`);
      await expect.poll(() => ritaPage.getByTestId('workspace-name').textContent()).toBe(name);
      await ritaPage.getByTestId('lock-state').waitFor();
      if (whoAmI) await (await whoAmI).finished();
      for (const id of ['lock-button', 'unlock-button', 'force-unlock-button'])
        expect(await ritaPage.getByTestId(id).count(), `${name} ${id}`).toBe(0);
    }
    // The lock itself is visible to readers.
    await expect.poll(() => ritaPage.getByTestId('lock-holder').textContent()).toContain('admin');
    await context.close();
  });

  it('the audit trail page lists the changes', async () => {
    await page.goto(`${s.url}/#/orgs/acme/audit`);
    await expect.poll(() => page.getByTestId('audit-row').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    expect(await page.getByTestId('audit-row').first().textContent()).toMatch(/workspace\.|lock|unlock/);
    await screenshot(page, 'audit');
  });
});
