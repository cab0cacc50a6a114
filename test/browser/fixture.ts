import type { Locator, Page } from 'playwright-core';
import type { ConsoleServer } from './harness.js';

const resource = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});

export interface Scene {
  /** alice: owner of organization acme. */
  alice: string;
  /** rita: a member of acme whose team may only read app-prod and db-prod. */
  rita: string;
  projects: Record<string, string>;
  workspaces: Record<string, string>;
}

/**
 * Organization `acme` (owner alice) with projects Alpha and Beta and four workspaces:
 * app-prod (Alpha, env=prod, tag web), app-staging (Alpha, env=staging, tag web),
 * db-prod (Beta, env=prod, tag db), tools (Beta). db-prod is locked first (by the site
 * administrator, reason "schema migration"), then app-staging (by alice, "release 42").
 */
export async function acmeScene(s: ConsoleServer): Promise<Scene> {
  const admin = s.adminToken;
  await s.api(admin, 'POST', '/admin/users', resource('users', { username: 'alice', email: 'alice@example.com' }));
  await s.api(admin, 'POST', '/admin/users', resource('users', { username: 'rita', email: 'rita@example.com' }));
  const users = (await s.api(admin, 'GET', '/admin/users')) as { id: string; attributes: { username: string } }[];
  const userId = (name: string) => users.find((u) => u.attributes.username === name)!.id;
  const token = async (name: string) =>
    (await s.api(admin, 'POST', `/users/${userId(name)}/authentication-tokens`)).attributes.token as string;
  const alice = await token('alice');
  const rita = await token('rita');

  await s.api(alice, 'POST', '/organizations', resource('organizations', { name: 'acme', email: 'acme@example.com' }));
  const projects: Record<string, string> = {};
  for (const name of ['Alpha', 'Beta'])
    projects[name] = (await s.api(alice, 'POST', '/organizations/acme/projects', resource('projects', { name }))).id;

  const workspaces: Record<string, string> = {};
  const specs: [string, string, string | null, string | null][] = [
    ['app-prod', 'Alpha', 'prod', 'web'],
    ['app-staging', 'Alpha', 'staging', 'web'],
    ['db-prod', 'Beta', 'prod', 'db'],
    ['tools', 'Beta', null, null],
  ];
  for (const [name, project, env, tag] of specs) {
    const relationships: Record<string, unknown> = { project: { data: { type: 'projects', id: projects[project] } } };
    if (env)
      relationships['tag-bindings'] = { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: env } }] };
    const ws = await s.api(
      alice,
      'POST',
      '/organizations/acme/workspaces',
      resource('workspaces', { name }, relationships),
    );
    workspaces[name] = ws.id;
    if (tag)
      await s.api(alice, 'POST', `/workspaces/${ws.id}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: tag } }],
      });
  }

  // The site administrator is no member of acme but may act everywhere.
  await s.api(admin, 'POST', `/workspaces/${workspaces['db-prod']}/actions/lock`, { reason: 'schema migration' });
  await new Promise((done) => setTimeout(done, 20));
  await s.api(alice, 'POST', `/workspaces/${workspaces['app-staging']}/actions/lock`, { reason: 'release 42' });

  // rita joins acme and a team that may read two workspaces.
  const invite = await s.api(
    alice,
    'POST',
    '/organizations/acme/organization-memberships',
    resource('organization-memberships', { email: 'rita@example.com' }),
  );
  await s.api(rita, 'POST', `/organization-memberships/${invite.id}/actions/accept`);
  const team = await s.api(alice, 'POST', '/organizations/acme/teams', resource('teams', { name: 'readers' }));
  await s.api(alice, 'POST', `/teams/${team.id}/relationships/users`, { data: [{ type: 'users', id: 'rita' }] });
  for (const name of ['app-prod', 'db-prod'])
    await s.api(
      alice,
      'POST',
      '/team-workspaces',
      resource(
        'team-workspaces',
        { access: 'read' },
        {
          team: { data: { type: 'teams', id: team.id } },
          workspace: { data: { type: 'workspaces', id: workspaces[name] } },
        },
      ),
    );
  return { alice, rita, projects, workspaces };
}

/** The workspace names a list shows, in order (each row's `data-name`, else its first link or cell). */
export async function rowNames(page: Page, testId = 'workspace-row'): Promise<string[]> {
  const names: string[] = [];
  for (const row of await page.getByTestId(testId).all()) {
    const named = await row.getAttribute('data-name');
    if (named !== null) {
      names.push(named);
      continue;
    }
    const link = row.locator('a').first();
    const text =
      (await link.count()) > 0 ? await link.textContent() : await row.locator('td, th').first().textContent();
    names.push((text ?? '').trim());
  }
  return names;
}

/**
 * Sets a filter control whatever its kind: a select (by option label or value), a checkbox
 * (checked when `value` is 'true'), or a text field (filled, then Enter).
 */
export async function setFilter(control: Locator, value: string): Promise<void> {
  const kind = await control.evaluate((el) => {
    const e = el as unknown as { tagName: string; type?: string };
    return e.tagName === 'SELECT' ? 'select' : e.type === 'checkbox' ? 'checkbox' : 'text';
  });
  if (kind === 'select') {
    const labels = await control.locator('option').allTextContents();
    const label = labels.find((l) => l.trim().toLowerCase() === value.toLowerCase());
    await control.selectOption(label !== undefined ? { label } : value);
  } else if (kind === 'checkbox') {
    await control.setChecked(value === 'true');
  } else {
    await control.fill(value);
    await control.press('Enter');
  }
}
