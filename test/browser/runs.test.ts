import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { create as tarCreate } from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { describeTerraform } from '../helpers/terraform.js';
import { launchBrowser, newPage, signInWithToken } from './harness.js';

/**
 * Issue 34: the workspace page lists the runs berth executes (status, durations, counts) and shows
 * the selected run's plan and apply logs, live while it executes. A real `serve --execute-runs`
 * runs the real terraform; the second run's apply waits in a local-exec until the test creates
 * the file it waits for.
 */
describeTerraform('console: executed runs and their live logs', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let url: string;
  let wsId: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : null;
  };

  /** Uploads `main` as a configuration version of the workspace and queues an auto-applied run of it. */
  const runOf = async (name: string, main: string): Promise<string> => {
    const dir = join(tmp.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.tf'), main);
    const chunks: Buffer[] = [];
    for await (const chunk of tarCreate({ gzip: true, cwd: dir, portable: true }, ['main.tf'])) chunks.push(chunk);
    const cv = await call('POST', `/workspaces/${wsId}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
    });
    const up = await fetch(cv.attributes['upload-url'], { method: 'PUT', body: Buffer.concat(chunks) });
    expect(up.status).toBe(200);
    const run = await call('POST', '/runs', {
      data: {
        type: 'runs',
        attributes: { message: name, 'auto-apply': true },
        relationships: {
          workspace: { data: { type: 'workspaces', id: wsId } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv.id } },
        },
      },
    });
    return run.id as string;
  };

  const row = (runId: string) => page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startServe(tmp.db, ['--execute-runs'])]);
    url = server.url.replace(/\/$/, '');
    await call('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@a.test' } },
    });
    wsId = (
      await call('POST', '/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'web', 'terraform-version': 'latest' } },
      })
    ).id;
    ({ page } = await newPage(browser));
    await signInWithToken(page, url, server.token!);
  });
  /** Opens the gate of the one phase serve executes now: a file in its run folder's work tree. */
  const openGate = () => {
    const prefix = `berth-run-${server.child.pid}-`;
    const folders = readdirSync(tmpdir()).filter((n) => n.startsWith(prefix) && !n.includes('.'));
    expect(folders).toHaveLength(1);
    writeFileSync(join(tmpdir(), folders[0], 'work', 'release-gate'), '');
  };
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
  });

  it('lists an executed run with its final status, durations and counts; its logs show the output', async () => {
    const runId = await runOf(
      'two',
      'resource "terraform_data" "alpha" {\n  input = "a"\n}\nresource "terraform_data" "beta" {\n  input = "b"\n}\n',
    );
    await page.goto(`${url}/#/orgs/acme/workspaces/web`);
    await expect.poll(() => row(runId).getByTestId('run-status').textContent(), { timeout: 60_000 }).toBe('applied');
    // The list is read again once the run is final: the apply's counts and both durations.
    await expect.poll(() => row(runId).getByTestId('run-counts').textContent()).toBe('+2 ~0 -0');
    expect(await row(runId).getByTestId('run-message').textContent()).toBe('two');
    expect(await row(runId).getByTestId('run-durations').textContent()).toMatch(/^plan \d.* · apply \d/);
    await row(runId).locator('a').click();
    const detail = page.getByTestId('run-detail');
    expect(await detail.getAttribute('data-run-id')).toBe(runId);
    const planLog = page.getByTestId('run-log-plan');
    await expect.poll(() => planLog.getAttribute('data-ended')).toBe('true');
    const plan = (await planLog.textContent()) ?? '';
    expect(plan).toContain('terraform_data.alpha will be created');
    expect(plan).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
    expect(plan.includes('\x02') || plan.includes('\x03')).toBe(false);
    const applyLog = page.getByTestId('run-log-apply');
    await expect.poll(() => applyLog.getAttribute('data-ended')).toBe('true');
    expect(await applyLog.textContent()).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
  });

  it("a running run's apply log updates while it executes and stops when the run ends", async () => {
    // The sandbox shows the run nothing of this machine but its own folder: the gate the apply
    // waits for is a file the test puts there.
    const command =
      'echo waiting-for-the-test; while [ ! -e release-gate ]; do sleep 0.1; done; echo released-by-the-test';
    const runId = await runOf(
      'slow',
      `resource "terraform_data" "slow" {\n  provisioner "local-exec" {\n    command = ${JSON.stringify(command)}\n  }\n}\n`,
    );
    // The page left open lists the new run (the list is read again every few seconds).
    await row(runId).waitFor({ timeout: 30_000 });
    await row(runId).locator('a').click();
    await expect.poll(() => page.getByTestId('run-detail').getAttribute('data-run-id')).toBe(runId);
    // Its apply log, live, reaches the local-exec's first line.
    const applyLog = page.getByTestId('run-log-apply');
    await expect
      .poll(() => applyLog.textContent(), { timeout: 60_000 })
      .toContain('(local-exec): waiting-for-the-test');
    expect(await applyLog.getAttribute('data-ended')).toBe('false');
    expect(await applyLog.textContent()).not.toContain('(local-exec): released-by-the-test');
    expect(await row(runId).getByTestId('run-status').textContent()).toBe('applying');
    openGate();
    await expect
      .poll(() => applyLog.textContent(), { timeout: 30_000 })
      .toContain('(local-exec): released-by-the-test');
    await expect.poll(() => applyLog.getAttribute('data-ended'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => row(runId).getByTestId('run-status').textContent(), { timeout: 30_000 }).toBe('applied');
    expect(await applyLog.textContent()).toContain('Apply complete! Resources: 1 added, 0 changed, 2 destroyed.');
    // alpha and beta, gone from this configuration, were destroyed.
    await expect.poll(() => row(runId).getByTestId('run-counts').textContent()).toBe('+1 ~0 -2');
  });

  it("a failed read of the run list keeps the list and the open run's logs, says so, and reads again", async () => {
    const rows = page.getByTestId('run-row');
    const shownBefore = await page.getByTestId('run-detail').getAttribute('data-run-id');
    const applyLog = page.getByTestId('run-log-apply');
    expect(await applyLog.getAttribute('data-ended')).toBe('true');
    const logBefore = await applyLog.textContent();
    expect(logBefore).toContain('Apply complete!');
    expect(await page.getByTestId('error-message').count()).toBe(0);
    let refused = 0;
    const listOfRuns = /\/api\/v2\/workspaces\/[^/]+\/runs\?/;
    await page.route(listOfRuns, async (route) => {
      refused += 1;
      await route.fulfill({
        status: 503,
        contentType: 'application/vnd.api+json',
        body: JSON.stringify({ errors: [{ status: '503', title: 'service unavailable', detail: 'try again later' }] }),
      });
    });
    await expect.poll(() => page.getByTestId('error-message').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(await rows.count()).toBe(2);
    expect(await page.getByTestId('run-detail').getAttribute('data-run-id')).toBe(shownBefore);
    expect(await applyLog.textContent()).toBe(logBefore);
    // The list is read again after the failure: once the server answers, the error is gone.
    await page.unroute(listOfRuns);
    await expect.poll(() => page.getByTestId('error-message').count(), { timeout: 30_000 }).toBe(0);
    expect(await rows.count()).toBe(2);
    expect(await applyLog.textContent()).toBe(logBefore);
  });
});
