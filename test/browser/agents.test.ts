import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { horizontalOverflow, launchBrowser, newPage, screenshot, signInWithToken, watchPage } from './harness.js';

/**
 * Issue 36: the organization's Agents page lists each agent pool with its agents (name, status,
 * last ping), and the workspace page's runs say where each run executed. The agents are
 * registered and claim through the agent protocol (`/api/agent`), with no `berth agent` process
 * and no terraform: serve runs with a stand-in terraform binary it never uses (the workspace
 * executes on agents).
 */
const MESSAGE = '<img src=x onerror=alert("run")>';
const resource = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});

describe('console: agents and where runs executed', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;
  let url: string;
  let pool: string;
  let wsId: string;
  let agentToken: string;
  let builder: string;
  let gone: string;
  let reader: string;

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : null;
  };
  const admin = (method: string, path: string, body?: unknown) => api(server.token!, method, path, body);
  const agentCall = async (path: string, body: unknown, agent?: string) => {
    const res = await fetch(`${url}/api/agent${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${agentToken}`,
        'Content-Type': 'application/json',
        ...(agent ? { 'X-Berth-Agent': agent } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  /** Uploads a configuration of the workspace and queues a plan-only run of it. */
  const queueRun = async (message: string): Promise<string> => {
    const cv = await admin(
      'POST',
      `/workspaces/${wsId}/configuration-versions`,
      resource('configuration-versions', { 'auto-queue-runs': false }),
    );
    const up = await fetch(cv.attributes['upload-url'], {
      method: 'PUT',
      body: gzipSync(Buffer.from('main.tf\0resource "terraform_data" "x" {}')),
    });
    expect(up.status).toBe(200);
    const run = await admin(
      'POST',
      '/runs',
      resource('runs', { message, 'plan-only': true }, { workspace: { data: { type: 'workspaces', id: wsId } } }),
    );
    return run.id as string;
  };
  const poolCard = (name: string, p = page) => p.locator(`[data-testid="agent-pool"][data-name="${name}"]`);
  const agentRow = (id: string) => page.locator(`[data-testid="agent-row"][data-agent-id="${id}"]`);
  const runRow = (id: string) => page.locator(`[data-testid="run-row"][data-run-id="${id}"]`);

  beforeAll(async () => {
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'terraform'),
      `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`,
    );
    chmodSync(join(bin, 'terraform'), 0o755);
    [browser, server] = await Promise.all([
      launchBrowser(),
      // The fake agents ping only when a test says so: no sweep may find them gone meanwhile.
      startServe(tmp.db, ['--execute-runs', '--agent-timeout', '600'], { PATH: `${bin}:${process.env.PATH}` }),
    ]);
    url = server.url.replace(/\/$/, '');
    await admin('POST', '/organizations', resource('organizations', { name: 'acme', email: 'a@a.test' }));
    pool = (await admin('POST', '/organizations/acme/agent-pools', resource('agent-pools', { name: 'builders' }))).id;
    await admin('POST', '/organizations/acme/agent-pools', resource('agent-pools', { name: 'spare' }));
    wsId = (
      await admin(
        'POST',
        '/organizations/acme/workspaces',
        resource('workspaces', { name: 'web', 'execution-mode': 'agent', 'agent-pool-id': pool }),
      )
    ).id;
    agentToken = (
      await admin(
        'POST',
        `/agent-pools/${pool}/authentication-tokens`,
        resource('authentication-tokens', { description: 'browser test' }),
      )
    ).attributes.token;
    builder = (await agentCall('/register', { name: 'builder-1' })).id;
    gone = (await agentCall('/register', { name: 'builder-2' })).id;
    await agentCall('/ping', { status: 'exited' }, gone);

    // A member who reads the workspace but does not manage agent pools.
    await admin('POST', '/admin/users', resource('users', { username: 'rita', email: 'rita@example.com' }));
    const users = (await admin('GET', '/admin/users')) as { id: string; attributes: { username: string } }[];
    const ritaId = users.find((u) => u.attributes.username === 'rita')!.id;
    reader = (await admin('POST', `/users/${ritaId}/authentication-tokens`)).attributes.token;
    const invite = await admin(
      'POST',
      '/organizations/acme/organization-memberships',
      resource('organization-memberships', { email: 'rita@example.com' }),
    );
    await api(reader, 'POST', `/organization-memberships/${invite.id}/actions/accept`);
    const team = await admin('POST', '/organizations/acme/teams', resource('teams', { name: 'readers' }));
    await admin('POST', `/teams/${team.id}/relationships/users`, { data: [{ type: 'users', id: 'rita' }] });
    await admin(
      'POST',
      '/team-workspaces',
      resource(
        'team-workspaces',
        { access: 'read' },
        { team: { data: { type: 'teams', id: team.id } }, workspace: { data: { type: 'workspaces', id: wsId } } },
      ),
    );

    ({ page } = await newPage(browser));
    seen = watchPage(page);
    await signInWithToken(page, url, server.token!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
  });

  it("the organization's navigation leads to the Agents page: each pool with its agents, status and last ping", async () => {
    await page.goto(`${url}/#/orgs/acme/workspaces`);
    await page.getByTestId('nav-agents').click();
    await expect.poll(() => page.url()).toContain('#/orgs/acme/agents');
    expect(await page.getByTestId('nav-agents').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.title()).toBe('Agents of acme · berth');
    await expect.poll(() => page.getByTestId('agent-pools-count').textContent()).toBe('2 agent pools');

    const builders = poolCard('builders');
    await agentRow(builder).waitFor();
    expect(await builders.getByTestId('agent-pool-summary').textContent()).toContain('1 agent running');
    expect(await agentRow(builder).getByTestId('agent-name').textContent()).toBe('builder-1');
    expect(await agentRow(builder).getByTestId('agent-status').textContent()).toBe('idle');
    expect(await agentRow(gone).getByTestId('agent-status').textContent()).toBe('exited');
    // The last ping: relative, with the exact time the API gave in the element.
    const doc = await admin('GET', `/agents/${builder}`);
    const ping = agentRow(builder).getByTestId('agent-last-ping').locator('time');
    expect(await ping.getAttribute('datetime')).toBe(doc.attributes['last-ping-at']);
    expect(await ping.textContent()).toMatch(/ago$/);
    await poolCard('spare').getByTestId('agents-empty').waitFor();
    await screenshot(page, 'agents');
    // Narrow: the tables scroll inside their frame, the page does not.
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await horizontalOverflow(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("a run claimed by an agent shows the agent's name in the workspace's runs; a queued one shows none", async () => {
    const claimedRun = await queueRun('claimed by builder-1');
    const claim = await agentCall('/claim', {}, builder);
    expect(claim.claim).toMatchObject({ runId: claimedRun, phase: 'plan' });
    const waiting = await queueRun(MESSAGE);

    await page.goto(`${url}/#/orgs/acme/workspaces/web`);
    await expect.poll(() => runRow(claimedRun).getByTestId('run-executed-by').textContent()).toBe('agent builder-1');
    expect(await runRow(waiting).getByTestId('run-executed-by').textContent()).toBe('—');
    expect(await runRow(waiting).getByTestId('run-message').textContent()).toBe(MESSAGE);

    // The agent is busy with it now, on the Agents page.
    await page.goto(`${url}/#/orgs/acme/agents`);
    await expect.poll(() => agentRow(builder).getByTestId('agent-status').textContent()).toBe('busy');

    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.csp).toEqual([]);
    expect(await page.evaluate(`document.querySelectorAll('img[src="x"], [onerror]').length`)).toBe(0);
  });

  it('a member who does not manage agent pools sees the pools, is told the agents are not theirs, and sees where runs executed', async () => {
    const { page: other } = await newPage(browser);
    await signInWithToken(other, url, reader);
    await other.goto(`${url}/#/orgs/acme/agents`);
    await poolCard('builders', other).getByTestId('agents-hidden').waitFor();
    expect(await other.getByTestId('agent-row').count()).toBe(0);
    expect(await other.getByTestId('error-message').count()).toBe(0);
    await other.goto(`${url}/#/orgs/acme/workspaces/web`);
    await expect
      .poll(() => other.locator('[data-testid="run-executed-by"]').allTextContents())
      .toContain('agent builder-1');
    await other.context().close();
  });
});
