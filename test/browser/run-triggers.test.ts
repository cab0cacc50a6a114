import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeScene, type Scene } from './fixture.js';
import {
  launchBrowser,
  newPage,
  screenshot,
  signInWithToken,
  startConsoleServer,
  type ConsoleServer,
} from './harness.js';

/**
 * The workspace page's Run triggers card (issue 45, item 1): the sources whose applies queue its
 * runs, the workspaces its applies queue runs in (each a link to that workspace), and whether the
 * runs triggers queue apply by themselves.
 */
describe('console: run triggers on the workspace page', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;
  let page: Page;
  const trigger = (target: string, source: string) =>
    s.api(scene.alice, 'POST', `/workspaces/${scene.workspaces[target]}/run-triggers`, {
      data: { relationships: { sourceable: { data: { type: 'workspaces', id: scene.workspaces[source] } } } },
    });

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    scene = await acmeScene(s);
    // db-prod's applies queue runs in app-prod and app-staging; tools' in app-prod.
    await trigger('app-prod', 'db-prod');
    await trigger('app-prod', 'tools');
    await trigger('app-staging', 'db-prod');
    await s.api(scene.alice, 'PATCH', `/workspaces/${scene.workspaces['app-prod']}`, {
      data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': true } },
    });
    ({ page } = await newPage(browser));
    await signInWithToken(page, s.url, scene.alice);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  const names = (direction: 'inbound' | 'outbound') =>
    page.getByTestId(`run-triggers-${direction}`).getByTestId('run-trigger').locator('a').allTextContents();

  it('a target lists its sources, says its triggered runs apply by themselves, and triggers nothing', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/app-prod`);
    await expect.poll(() => names('inbound'), { timeout: 10_000 }).toEqual(['db-prod', 'tools']);
    expect(await page.getByTestId('run-trigger-auto-apply').textContent()).toBe(
      'Runs started by run triggers apply automatically.',
    );
    await expect
      .poll(() => page.getByTestId('run-triggers-outbound').textContent(), { timeout: 10_000 })
      .toBe('No workspace.');
    await screenshot(page, 'workspace-run-triggers');
  });

  it('a source lists the workspaces it triggers; a name leads to that workspace', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/db-prod`);
    await expect.poll(() => names('outbound'), { timeout: 10_000 }).toEqual(['app-prod', 'app-staging']);
    expect(await page.getByTestId('run-triggers-inbound').textContent()).toBe('No source workspace.');
    expect(await page.getByTestId('run-trigger-auto-apply').textContent()).toBe(
      'Runs started by run triggers wait for confirmation.',
    );
    await page.getByTestId('run-triggers-outbound').getByText('app-staging').click();
    await expect.poll(() => page.getByTestId('workspace-name').textContent(), { timeout: 10_000 }).toBe('app-staging');
    await expect.poll(() => names('inbound'), { timeout: 10_000 }).toEqual(['db-prod']);
  });
});
