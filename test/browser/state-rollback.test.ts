import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeScene, type Scene } from './fixture.js';
import {
  launchBrowser,
  newPage,
  screenshot,
  signInWithToken,
  startConsoleServer,
  watchPage,
  type ConsoleServer,
} from './harness.js';

/**
 * "Roll back to this version" in the workspace page's state versions (issue 45, item 3): the
 * confirmation says which outputs change (sensitive values masked) and what happens to the lock;
 * the console locks an unlocked workspace for the rollback and unlocks it after, rolls back under
 * the caller's own lock (current at their unlock), and stops at someone else's. Readers get no
 * action.
 */

const SMALL = readFileSync(new URL('../fixtures/state-small.json', import.meta.url));

describe('console: state rollback', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;
  /** Each workspace's versions as pushed, oldest first. */
  const pushed: Record<string, string[]> = {};

  /** Pushes the fixture as `serial`, its url output `url` and its password `password`, as alice. */
  async function push(ws: string, serial: number, url: string, password: string) {
    const id = scene.workspaces[ws];
    const state = JSON.parse(SMALL.toString());
    state.serial = serial;
    state.outputs.url.value = url;
    state.outputs.password.value = password;
    const bytes = Buffer.from(JSON.stringify(state, null, 2));
    await s.api(scene.alice, 'POST', `/workspaces/${id}/actions/lock`, {});
    const sv = await s.api(scene.alice, 'POST', `/workspaces/${id}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial,
          lineage: state.lineage,
          md5: createHash('md5').update(bytes).digest('hex'),
          state: bytes.toString('base64'),
        },
      },
    });
    await s.api(scene.alice, 'POST', `/workspaces/${id}/actions/unlock`);
    (pushed[ws] ??= []).push(sv.id);
  }
  const current = async (ws: string) =>
    s.api(scene.alice, 'GET', `/workspaces/${scene.workspaces[ws]}/current-state-version`);
  const open = async (ws: string) => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/${ws}`);
    await page.getByTestId('state-version-row').first().waitFor();
  };
  /** The row of a version, by its serial (the first cell). */
  const row = (serial: number) =>
    page.getByTestId('state-version-row').filter({ has: page.locator(`td:first-child:text-is("${serial}")`) });

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    scene = await acmeScene(s);
    await push('app-prod', 1, 'https://one.test', 'first-secret');
    await push('app-prod', 2, 'https://two.test', 'second-secret');
    await push('tools', 1, 'https://one.test', 'x');
    await push('tools', 2, 'https://two.test', 'y');
    ({ page } = await newPage(browser));
    seen = watchPage(page);
    await signInWithToken(page, s.url, scene.alice);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('previews the changed outputs, masks sensitive ones, and cancelling changes nothing', async () => {
    await open('app-prod');
    await expect.poll(() => row(2).getByTestId('state-current').count()).toBe(1);
    expect(await row(2).getByTestId('state-rollback').count()).toBe(0);
    await row(1).getByTestId('state-rollback').click();
    const confirm = page.getByTestId('rollback-confirm');
    await expect
      .poll(() => confirm.getByTestId('rollback-output-change').allTextContents())
      .toEqual(['~ url: "https://two.test" → "https://one.test"', '~ password: (sensitive) → (sensitive)']);
    expect(await confirm.textContent()).not.toMatch(/first-secret|second-secret/);
    expect(await confirm.getByTestId('rollback-lock').textContent()).toContain(
      'locked for the rollback and unlocked after',
    );
    await screenshot(page, 'workspace-state-rollback');
    await confirm.getByTestId('rollback-cancel').click();
    expect(await page.getByTestId('rollback-confirm').count()).toBe(0);
    expect((await current('app-prod')).id).toBe(pushed['app-prod'][1]);
  });

  it('an unlocked workspace: locks, rolls back, unlocks; the new version is current and the page shows it', async () => {
    await open('app-prod');
    await row(1).getByTestId('state-rollback').click();
    await page.getByTestId('rollback-output-change').first().waitFor();
    await page.getByTestId('rollback-now').click();
    await expect
      .poll(() => page.getByTestId('rollback-done').textContent())
      .toMatch(/^Rolled back to serial 1: new state version sv-\w+, serial 3, is current\.$/);
    await expect.poll(() => row(3).getByTestId('state-current').count()).toBe(1);
    const now = await current('app-prod');
    expect(now.attributes.serial).toBe(3);
    expect(now.relationships['rollback-state-version'].data.id).toBe(pushed['app-prod'][0]);
    expect(await page.getByTestId('lock-state').textContent()).toBe('unlocked');
    const ws = await s.api(scene.alice, 'GET', `/workspaces/${scene.workspaces['app-prod']}`);
    expect(ws.attributes.locked).toBe(false);
  });

  it('under the caller’s own lock: rolls back and leaves the lock; current once they unlock in the page', async () => {
    await s.api(scene.alice, 'POST', `/workspaces/${scene.workspaces.tools}/actions/lock`, { reason: 'repair' });
    await open('tools');
    await row(1).getByTestId('state-rollback').click();
    await expect
      .poll(() => page.getByTestId('rollback-lock').textContent())
      .toBe('You hold the lock: the new version becomes current when you unlock the workspace.');
    await page.getByTestId('rollback-now').click();
    await expect
      .poll(() => page.getByTestId('rollback-done').textContent())
      .toMatch(/serial 3, becomes current when you unlock the workspace\.$/);
    expect((await current('tools')).id).toBe(pushed.tools[1]);
    await page.getByTestId('unlock-button').click();
    await expect.poll(async () => (await current('tools')).attributes.serial).toBe(3);
    await page.reload();
    await expect.poll(() => row(3).getByTestId('state-current').count()).toBe(1);
  });

  // The page read the workspace before this lock: the confirmation reads the lock afresh.
  it('someone else’s lock stops it: the confirmation says so and offers no rollback', async () => {
    await s.api(s.adminToken, 'POST', `/workspaces/${scene.workspaces.tools}/actions/lock`, { reason: 'ops' });
    await open('tools');
    await row(1).getByTestId('state-rollback').click();
    await expect
      .poll(() => page.getByTestId('rollback-lock').textContent())
      .toBe('Someone else holds the lock: a rollback needs the workspace unlocked, or locked by you.');
    expect(await page.getByTestId('rollback-now').isDisabled()).toBe(true);
    await s.api(s.adminToken, 'POST', `/workspaces/${scene.workspaces.tools}/actions/unlock`);
  });

  it('a reader sees the versions but no rollback', async () => {
    const { page: readerPage } = await newPage(browser);
    await signInWithToken(readerPage, s.url, scene.rita);
    await readerPage.goto(`${s.url}/#/orgs/acme/workspaces/app-prod`);
    await readerPage.getByTestId('state-version-row').first().waitFor();
    expect(await readerPage.getByTestId('state-version-row').count()).toBe(3);
    expect(await readerPage.getByTestId('state-rollback').count()).toBe(0);
    await readerPage.context().close();
    expect(seen.errors).toEqual([]);
    expect(seen.dialogs).toEqual([]);
  });
});
