import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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
 * The workspace page's Variables card and the project page's variable sets: plain values shown,
 * sensitive ones only as "sensitive" (their values never reach the page), hostile text as text,
 * and a reader who may not read variables told so without breaking the page.
 */
const WS_SECRET = 'ws-secret-Zq81vX';
const SET_SECRET = 'set-secret-Pw47kL';
const HOSTILE = '<img src=x onerror=alert("var")>';
const HOSTILE_DESCRIPTION = '"><script>alert("description")</script><b id="injected">x</b>';

const resource = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});
const variable = (attributes: Record<string, unknown>) => ({ type: 'vars', attributes });

describe('console variables and variable sets', () => {
  let browser: Browser;
  let s: ConsoleServer;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;
  let projectId: string;
  let bob: string;

  beforeAll(async () => {
    [browser, s] = await Promise.all([launchBrowser(), startConsoleServer()]);
    const admin = s.adminToken;
    await s.api(admin, 'POST', '/organizations', resource('organizations', { name: 'acme', email: 'a@example.com' }));
    projectId = (await s.api(admin, 'POST', '/organizations/acme/projects', resource('projects', { name: 'Alpha' })))
      .id;
    const ws = await s.api(
      admin,
      'POST',
      '/organizations/acme/workspaces',
      resource('workspaces', { name: 'web' }, { project: { data: { type: 'projects', id: projectId } } }),
    );
    for (const attributes of [
      { key: 'region', value: 'eu-west-1', category: 'terraform', description: 'where it runs' },
      { key: 'AWS_SECRET_ACCESS_KEY', value: WS_SECRET, category: 'env', sensitive: true },
      { key: 'tags', value: '{ team = "platform" }', category: 'terraform', hcl: true },
      { key: 'banner', value: HOSTILE, category: 'terraform', description: HOSTILE_DESCRIPTION },
    ])
      await s.api(admin, 'POST', `/workspaces/${ws.id}/vars`, { data: variable(attributes) });

    await s.api(
      admin,
      'POST',
      '/organizations/acme/varsets',
      resource(
        'varsets',
        { name: 'shared-defaults', global: true },
        { vars: { data: [variable({ key: 'owner', value: 'ops-team', category: 'terraform' })] } },
      ),
    );
    await s.api(
      admin,
      'POST',
      '/organizations/acme/varsets',
      resource(
        'varsets',
        { name: 'pinned-db', priority: true, description: 'database credentials' },
        {
          projects: { data: [{ type: 'projects', id: projectId }] },
          vars: {
            data: [
              variable({ key: 'db_password', value: SET_SECRET, category: 'terraform', sensitive: true }),
              variable({ key: 'db_host', value: 'db.internal', category: 'terraform' }),
            ],
          },
        },
      ),
    );

    // bob's team may read web but not its variables (custom access, variables: none).
    await s.api(admin, 'POST', '/admin/users', resource('users', { username: 'bob', email: 'bob@example.com' }));
    const users = (await s.api(admin, 'GET', '/admin/users')) as { id: string; attributes: { username: string } }[];
    const bobId = users.find((u) => u.attributes.username === 'bob')!.id;
    bob = (await s.api(admin, 'POST', `/users/${bobId}/authentication-tokens`)).attributes.token as string;
    const invite = await s.api(
      admin,
      'POST',
      '/organizations/acme/organization-memberships',
      resource('organization-memberships', { email: 'bob@example.com' }),
    );
    await s.api(bob, 'POST', `/organization-memberships/${invite.id}/actions/accept`);
    const team = await s.api(admin, 'POST', '/organizations/acme/teams', resource('teams', { name: 'runners' }));
    await s.api(admin, 'POST', `/teams/${team.id}/relationships/users`, { data: [{ type: 'users', id: 'bob' }] });
    await s.api(
      admin,
      'POST',
      '/team-workspaces',
      resource(
        'team-workspaces',
        { access: 'custom', runs: 'read', variables: 'none' },
        {
          team: { data: { type: 'teams', id: team.id } },
          workspace: { data: { type: 'workspaces', id: ws.id } },
        },
      ),
    );

    ({ page } = await newPage(browser));
    seen = watchPage(page);
    await signInWithToken(page, s.url, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  /**
   * The cells of the variable row `key` inside `scope`: [key, value, category, HCL, description]
   * (the workspace's rows end with their Edit and Delete buttons, left out).
   */
  const row = async (scope: ReturnType<Page['getByTestId']>, key: string) => {
    const r = scope.locator(`[data-testid="variable-row"][data-key="${key}"]`);
    await r.waitFor();
    return (await r.locator('td').allInnerTexts()).slice(0, 5).map((t) => t.trim());
  };
  const expectInert = async (where: string) => {
    expect(seen.dialogs, where).toEqual([]);
    expect(seen.errors, where).toEqual([]);
    expect(seen.csp, where).toEqual([]);
    const injected = await page.evaluate(
      `[document.querySelectorAll('img[src="x"], [onerror], [onload], #injected').length,
        document.querySelectorAll('script:not([src])').length]`,
    );
    expect(injected, where).toEqual([0, 0]);
  };

  it('the workspace page shows plain values, masks sensitive ones, and lists the sets that apply', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/web`);
    const card = page.getByTestId('variables');
    expect(await row(card, 'region')).toEqual(['region', 'eu-west-1', 'terraform', '', 'where it runs']);
    expect(await row(card, 'tags')).toEqual(['tags', '{ team = "platform" }', 'terraform', 'HCL', '']);
    expect(await row(card, 'AWS_SECRET_ACCESS_KEY')).toEqual(['AWS_SECRET_ACCESS_KEY', 'sensitive', 'env', '', '']);

    const sets = card.getByTestId('varset');
    await expect
      .poll(() => sets.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))))
      .toEqual(['pinned-db', 'shared-defaults']);
    const pinned = card.locator('[data-testid="varset"][data-name="pinned-db"]');
    expect(await pinned.getByTestId('varset-priority').count()).toBe(1);
    expect(await pinned.getByTestId('varset-global').count()).toBe(0);
    expect(await pinned.getByTestId('varset-description').innerText()).toBe('database credentials');
    expect(await row(pinned, 'db_password')).toEqual(['db_password', 'sensitive', 'terraform', '', '']);
    expect(await row(pinned, 'db_host')).toEqual(['db_host', 'db.internal', 'terraform', '', '']);
    const shared = card.locator('[data-testid="varset"][data-name="shared-defaults"]');
    expect(await shared.getByTestId('varset-global').count()).toBe(1);
    expect(await shared.getByTestId('varset-priority').count()).toBe(0);
    expect(await row(shared, 'owner')).toEqual(['owner', 'ops-team', 'terraform', '', '']);

    const html = await page.content();
    expect(html).not.toContain(WS_SECRET);
    expect(html).not.toContain(SET_SECRET);
    await screenshot(page, 'workspace-variables');
  });

  it('renders a hostile key value and description as text', async () => {
    await page.goto(`${s.url}/#/orgs/acme/workspaces/web`);
    const cells = await row(page.getByTestId('variables'), 'banner');
    expect(cells[1]).toBe(HOSTILE);
    expect(cells[4]).toBe(HOSTILE_DESCRIPTION);
    await expectInert('workspace variables');
  });

  it('the project page lists the sets applied to the project and the global ones, masked', async () => {
    await page.goto(`${s.url}/#/orgs/acme/projects`);
    await page.locator('[data-testid="project-row"][data-name="Alpha"]').getByTestId('project-link').click();
    await expect.poll(() => page.getByTestId('project-name').textContent()).toBe('Alpha');
    expect(page.url()).toContain(`#/orgs/acme/projects/${projectId}`);
    const card = page.getByTestId('project-varsets');
    const pinned = card.locator('[data-testid="varset"][data-name="pinned-db"]');
    expect(await row(pinned, 'db_password')).toEqual(['db_password', 'sensitive', 'terraform', '', '']);
    await card.locator('[data-testid="varset"][data-name="shared-defaults"]').waitFor();
    expect(await page.content()).not.toContain(SET_SECRET);
    await expectInert('project page');
  });

  it('a reader who may not read the variables is told so, and the rest of the page stands', async () => {
    const { page: other } = await newPage(browser);
    await signInWithToken(other, s.url, bob);
    await other.goto(`${s.url}/#/orgs/acme/workspaces/web`);
    await other.getByTestId('variables-hidden').waitFor();
    expect(await other.getByTestId('variables-hidden').innerText()).toContain('not visible to you');
    expect(await other.getByTestId('variable-row').count()).toBe(0);
    expect(await other.getByTestId('variables').getByTestId('error-message').count()).toBe(0);
    expect(await other.getByTestId('lock-state').innerText()).toBe('unlocked');
    const html = await other.content();
    expect(html).not.toContain(WS_SECRET);
    expect(html).not.toContain('eu-west-1');
    await other.context().close();
  });
});
