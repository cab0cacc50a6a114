import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  signInWithToken,
  startConsoleServer,
  watchPage,
  type ConsoleServer,
} from './harness.js';

/**
 * Hostile text in every field the API accepts it in (names it accepts only plainly are checked by
 * the API's own rules): the console renders all of it as text. No dialog opens, no script runs,
 * no element is injected, no `javascript:` link appears.
 */
const DESCRIPTION = '<img src=x onerror=alert("description")>';
const SOURCE_NAME = '"><script>alert("source")</script>';
const PROJECT_DESCRIPTION = '<svg onload=alert("project")></svg>';
const SSH_KEY = '<img src=x onerror=alert("ssh")>';
const REASON = '"><script>alert("reason")</script><b id="injected">x</b>';
const ORG_IN_URL = '<img src=x onerror=alert("route")>';

const resource = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});

describe('console XSS', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    const admin = s.adminToken;
    await s.api(
      admin,
      'POST',
      '/organizations',
      resource('organizations', { name: 'acme', email: 'acme@example.com' }),
    );
    const project = await s.api(
      admin,
      'POST',
      '/organizations/acme/projects',
      resource('projects', { name: 'Alpha', description: PROJECT_DESCRIPTION }),
    );
    const ws = await s.api(
      admin,
      'POST',
      '/organizations/acme/workspaces',
      resource(
        'workspaces',
        { name: 'web', description: DESCRIPTION, 'source-name': SOURCE_NAME, 'source-url': 'javascript:alert("url")' },
        { project: { data: { type: 'projects', id: project.id } } },
      ),
    );
    const key = await s.api(
      admin,
      'POST',
      '/organizations/acme/ssh-keys',
      resource('ssh-keys', { name: SSH_KEY, value: 'k' }),
    );
    await s.api(admin, 'PATCH', `/workspaces/${ws.id}/relationships/ssh-key`, {
      data: { type: 'workspaces', attributes: { id: key.id } },
    });
    await s.api(admin, 'POST', `/workspaces/${ws.id}/actions/lock`, { reason: REASON });

    ({ page } = await newPage(browser));
    seen = watchPage(page);
    await signInWithToken(page, s.url, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  /** Nothing injected: no dialog, no script, no element made from the hostile text. */
  const expectInert = async (where: string) => {
    expect(seen.dialogs, where).toEqual([]);
    expect(seen.errors, where).toEqual([]);
    // An inline handler or script that made it into the DOM is refused by the CSP, which reports it.
    expect(seen.csp, where).toEqual([]);
    const injected = await page.evaluate(
      `[
        document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload], #injected').length,
        document.querySelectorAll('script:not([src])').length,
        document.querySelectorAll('a[href^="javascript:" i], [href^="javascript:" i], [src^="javascript:" i]').length,
      ]`,
    );
    expect(injected, where).toEqual([0, 0, 0]);
  };
  const bodyText = () => page.locator('body').innerText();

  it('the workspace page shows description, source, SSH key and lock reason as text', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/web`);
    await expect.poll(() => page.getByTestId('workspace-name').textContent()).toBe('web');
    await expect.poll(bodyText).toContain(DESCRIPTION);
    await expect.poll(bodyText).toContain(REASON);
    // The SSH key's card reads the key after the workspace: wait for its hostile name too.
    await expect.poll(bodyText).toContain(SSH_KEY);
    await expectInert('workspace page');
  });

  it('the workspaces list, projects, locks board and audit trail render hostile text inertly', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces`);
    await page.getByTestId('workspace-row').first().waitFor();
    await expectInert('workspaces');

    await page.goto(`${s.url}/#/orgs/acme/projects`);
    await expect.poll(bodyText).toContain('Alpha');
    await expectInert('projects');

    await page.goto(`${s.url}/#/orgs/acme/locks`);
    await page.getByTestId('locks-board-row').first().waitFor();
    await expect.poll(bodyText).toContain(REASON);
    await expectInert('locks board');

    await page.goto(`${s.url}/#/orgs/acme/audit`);
    await page.getByTestId('audit-row').first().waitFor();
    await expectInert('audit trail');
  });

  it('a hostile organization name in the address is shown as text in the error', async () => {
    await page.goto(`${s.url}/#/orgs/${encodeURIComponent(ORG_IN_URL)}/workspaces`);
    await page.getByTestId('error-message').first().waitFor();
    await expectInert('hostile route');
  });
});
