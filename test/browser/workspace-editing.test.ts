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
 * Issue 46, the workspace page without runs: variables added, edited and deleted (a sensitive one
 * write-only: its value never shown, its edit sends the new value alone), the audit panel only
 * for those who may read the audit trail, HCP's `/app/...` paths, and deleting a workspace (safe,
 * or forced with its name typed back).
 */
const SECRET = 'first-secret-Qm93';
const NEW_SECRET = 'second-secret-Ht27';

describe('console: editing a workspace', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let scene: Scene;
  let page: Page;

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

  const varsPath = () => `/workspaces/${scene.workspaces['app-prod']}/vars`;
  const apiVar = async (key: string) =>
    ((await s.api(scene.alice, 'GET', varsPath())) as { id: string; attributes: Record<string, unknown> }[]).find(
      (v) => v.attributes.key === key,
    );
  const row = (key: string) => page.locator(`[data-testid="variable-row"][data-key="${key}"]`);
  const cells = async (key: string) => (await row(key).locator('td').allInnerTexts()).slice(0, 5).map((t) => t.trim());

  it('adds, edits and deletes a variable', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/app-prod`);
    await page.getByTestId('variable-add').click();
    await page.getByTestId('variable-form-key').fill('region');
    await page.getByTestId('variable-form-value').fill('eu-west-1');
    await page.getByTestId('variable-form-description').fill('where it runs');
    await page.getByTestId('variable-form-save').click();
    await row('region').waitFor();
    expect(await cells('region')).toEqual(['region', 'eu-west-1', 'terraform', '', 'where it runs']);
    expect(await page.getByTestId('variable-form').count()).toBe(0);

    await row('region').getByTestId('variable-edit').click();
    expect(await page.getByTestId('variable-form-value').inputValue()).toBe('eu-west-1');
    await page.getByTestId('variable-form-value').fill('us-east-2');
    await page.getByTestId('variable-form-category').selectOption('env');
    await page.getByTestId('variable-form-key').fill('AWS_REGION');
    await page.getByTestId('variable-form-save').click();
    await row('AWS_REGION').waitFor();
    expect(await cells('AWS_REGION')).toEqual(['AWS_REGION', 'us-east-2', 'env', '', 'where it runs']);
    expect(await row('region').count()).toBe(0);

    await row('AWS_REGION').getByTestId('variable-delete').click();
    await row('AWS_REGION').getByTestId('variable-delete-cancel').click();
    expect(await apiVar('AWS_REGION')).toBeDefined();
    await row('AWS_REGION').getByTestId('variable-delete').click();
    await row('AWS_REGION').getByTestId('variable-delete-confirm').click();
    await expect.poll(() => row('AWS_REGION').count()).toBe(0);
    expect(await apiVar('AWS_REGION')).toBeUndefined();
    expect(await page.getByTestId('error-message').count()).toBe(0);
  });

  it('a sensitive variable is write-only: never shown, and its edit replaces only its value', async () => {
    await page.getByTestId('variable-add').click();
    await page.getByTestId('variable-form-key').fill('db_password');
    await page.getByTestId('variable-form-value').fill(SECRET);
    await page.getByTestId('variable-form-description').fill('the database');
    await page.getByTestId('variable-form-sensitive').check();
    await page.getByTestId('variable-form-save').click();
    await row('db_password').waitFor();
    expect(await cells('db_password')).toEqual(['db_password', 'sensitive', 'terraform', '', 'the database']);
    expect(await page.content()).not.toContain(SECRET);
    const before = (await apiVar('db_password'))!;

    await row('db_password').getByTestId('variable-edit').click();
    await page.getByTestId('variable-form-write-only').waitFor();
    // Only the new value is asked for, and it starts empty.
    expect(await page.getByTestId('variable-form-key').count()).toBe(0);
    expect(await page.getByTestId('variable-form-sensitive').count()).toBe(0);
    expect(await page.getByTestId('variable-form-value').inputValue()).toBe('');
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().includes('/vars/')) sent.push(r.postDataJSON());
    });
    await page.getByTestId('variable-form-value').fill(NEW_SECRET);
    await screenshot(page, 'workspace-variable-sensitive-edit');
    await page.getByTestId('variable-form-save').click();
    await expect.poll(() => page.getByTestId('variable-form').count()).toBe(0);
    expect(sent).toEqual([{ data: { type: 'vars', id: before.id, attributes: { value: NEW_SECRET } } }]);
    const after = (await apiVar('db_password'))!;
    expect(after.attributes).toMatchObject({
      key: 'db_password',
      sensitive: true,
      value: null,
      description: 'the database',
    });
    expect(after.attributes['version-id']).not.toBe(before.attributes['version-id']);
    expect(await cells('db_password')).toEqual(['db_password', 'sensitive', 'terraform', '', 'the database']);
    const html = await page.content();
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(NEW_SECRET);
  });

  it('shows the audit panel to an owner, and nothing of it to a read-only member', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/app-prod`);
    await page.getByTestId('workspace-audit').getByTestId('audit-row').first().waitFor();

    const { page: rita } = await newPage(browser);
    await signInWithToken(rita, s.url, scene.rita);
    // The organization's answer (its permissions) decides: wait for both reads of it (the header's
    // and the page's) before looking for the panel.
    let orgAnswers = 0;
    rita.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/v2/organizations/acme') orgAnswers += 1;
    });
    await rita.goto(`${s.url}/#/orgs/acme/workspaces/app-prod`);
    await rita.getByTestId('state-versions').waitFor();
    await expect.poll(() => orgAnswers).toBe(2);
    await expect.poll(() => rita.getByTestId('variables').count()).toBe(1);
    expect(await rita.getByTestId('workspace-audit').count()).toBe(0);
    expect(await rita.getByTestId('error-message').count()).toBe(0);
    // Nor may she change the variables, start runs or delete the workspace.
    expect(await rita.getByTestId('variable-add').count()).toBe(0);
    expect(await rita.getByTestId('variable-edit').count()).toBe(0);
    expect(await rita.getByTestId('start-run').count()).toBe(0);
    expect(await rita.getByTestId('workspace-delete').count()).toBe(0);
    await rita.context().close();
  });

  it("redirects HCP's /app paths to the console's pages", async () => {
    await page.goto(`${s.url}/app/acme/workspaces/app-staging`);
    await expect.poll(() => page.getByTestId('workspace-name').textContent()).toBe('app-staging');
    expect(new URL(page.url()).hash).toBe('#/orgs/acme/workspaces/app-staging');
    await page.goto(`${s.url}/app/acme`);
    await page.getByTestId('workspace-row').first().waitFor();
    expect(new URL(page.url()).hash).toBe('#/orgs/acme/workspaces');
    await page.goto(`${s.url}/app/acme/workspaces`);
    await expect.poll(() => new URL(page.url()).hash).toBe('#/orgs/acme/workspaces');
    await page.goto(`${s.url}/app/acme/settings/billing`);
    await page.getByTestId('org-row').first().waitFor();
    expect(new URL(page.url()).hash).toBe('#/');
  });

  it('deletes a workspace that manages nothing after a confirmation', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/tools`);
    await page.getByTestId('workspace-delete').click();
    expect(await page.getByTestId('workspace-delete-name').count()).toBe(0);
    await page.getByTestId('workspace-delete-cancel').click();
    expect(await page.getByTestId('workspace-delete-confirm').count()).toBe(0);
    await page.getByTestId('workspace-delete').click();
    await page.getByTestId('workspace-delete-submit').click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/orgs/acme/workspaces');
    await page.locator('[data-testid="workspace-row"][data-name="app-prod"]').waitFor();
    expect(await page.locator('[data-testid="workspace-row"][data-name="tools"]').count()).toBe(0);
  });

  it('force-deletes a locked workspace only once its name is typed back', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/db-prod`);
    await page.getByTestId('workspace-delete').click();
    expect(await page.getByTestId('workspace-delete-force-warning').textContent()).toContain('is locked');
    const submit = page.getByTestId('workspace-delete-submit');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('workspace-delete-name').fill('DB-PROD');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('workspace-delete-name').fill('db-prod');
    await screenshot(page, 'workspace-delete-force');
    await submit.click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/orgs/acme/workspaces');
    await page.locator('[data-testid="workspace-row"][data-name="app-prod"]').waitFor();
    expect(await page.locator('[data-testid="workspace-row"][data-name="db-prod"]').count()).toBe(0);
  });
});
