import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { create as tarCreate } from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { describeTerraform } from '../helpers/terraform.js';
import { launchBrowser, newPage, screenshot, signInWithToken } from './harness.js';

/**
 * Issue 46, the console's runs: "Start run" (plan only, plan and apply, destroy) of the
 * workspace's current configuration, the run awaiting approval shown when the page opens, Apply
 * and Discard confirmed in the page with a comment (and no error banner after the API's empty
 * 202), the force-unlock confirmation naming the run that holds the lock, the current state's
 * outputs (sensitive ones masked), HCP's `/app/ORG/WS/runs/RUN` links, and the delete of a
 * workspace that still manages resources (its name typed back). A real `serve --execute-runs`
 * runs the real terraform.
 */
const CONFIG = `
resource "terraform_data" "alpha" {
  input = "a"
}
output "greeting" {
  value = "hello"
}
output "shape" {
  value = { a = [1, 2] }
}
output "password" {
  value     = "pw-Xy12-never-shown"
  sensitive = true
}
`;

describeTerraform('console: starting runs, approving and discarding them, outputs', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let url: string;
  let wsId: string;
  /** Runs by role: planOnly (A), approved (B), queued behind B (C), destroy (D, discarded). */
  const runs: Record<string, string> = {};

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const runStatus = async (id: string) => (await call('GET', `/runs/${id}`)).data.attributes.status as string;
  const comments = async (id: string) =>
    ((await call('GET', `/runs/${id}/comments`)).data as { attributes: { body: string } }[]).map(
      (c) => c.attributes.body,
    );
  const wsPage = `/#/orgs/acme/workspaces/web`;
  const detail = () => page.getByTestId('run-detail');
  const runsCard = () => page.getByTestId('runs');

  /** Starts a run from the console's "Start run" form; the new run's id (the URL selects it). */
  const startRun = async (kind: string, message: string): Promise<string> => {
    const before = new URL(page.url()).hash;
    await page.getByTestId('start-run').click();
    await page.getByTestId('start-run-kind').selectOption(kind);
    await page.getByTestId('start-run-message').fill(message);
    await page.getByTestId('start-run-submit').click();
    await expect.poll(() => new URL(page.url()).hash).not.toBe(before);
    const id = new URL(page.url()).hash.split('?run=')[1];
    expect(id).toMatch(/^run-/);
    await expect.poll(() => detail().getAttribute('data-run-id'), { timeout: 30_000 }).toBe(id);
    return id;
  };
  const waitStatus = (status: string) =>
    expect.poll(() => page.getByTestId('run-detail-status').textContent(), { timeout: 90_000 }).toBe(status);

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
    ).data.id;
    // The workspace's current configuration version: uploaded, no run queued.
    const dir = join(tmp.dir, 'config');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.tf'), CONFIG);
    const chunks: Buffer[] = [];
    for await (const chunk of tarCreate({ gzip: true, cwd: dir, portable: true }, ['main.tf'])) chunks.push(chunk);
    const cv = await call('POST', `/workspaces/${wsId}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
    });
    const up = await fetch(cv.data.attributes['upload-url'], { method: 'PUT', body: Buffer.concat(chunks) });
    expect(up.status).toBe(200);
    ({ page } = await newPage(browser));
    await signInWithToken(page, url, server.token!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
  });

  it('starts a plan-only run: it plans, finishes, and offers no apply', async () => {
    await page.goto(`${url}${wsPage}`);
    await page.getByTestId('runs-empty').waitFor();
    runs.planOnly = await startRun('plan-only', 'just looking');
    await waitStatus('planned_and_finished');
    expect(await detail().getByTestId('run-detail-plan-only').count()).toBe(1);
    expect(await page.getByTestId('run-apply').count()).toBe(0);
    const plan = page.getByTestId('run-log-plan');
    await expect.poll(() => plan.getAttribute('data-ended'), { timeout: 30_000 }).toBe('true');
    expect(await plan.textContent()).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const run = (await call('GET', `/runs/${runs.planOnly}`)).data;
    expect(run.attributes).toMatchObject({ 'plan-only': true, 'is-destroy': false, message: 'just looking' });
  });

  it('starts a plan and apply that waits for approval: the page opens on it, and its run holds the lock', async () => {
    runs.approved = await startRun('plan-and-apply', 'first apply');
    await waitStatus('planned');
    // A second run queued behind it (newest, pending): a page opened now shows the one awaiting approval.
    runs.queued = (
      await call('POST', '/runs', {
        data: {
          type: 'runs',
          attributes: { message: 'queued behind' },
          relationships: { workspace: { data: { type: 'workspaces', id: wsId } } },
        },
      })
    ).data.id;
    await page.goto(`${url}/#/`);
    await page.getByTestId('org-row').first().waitFor();
    await page.goto(`${url}${wsPage}`);
    await page.locator(`[data-testid="run-row"][data-run-id="${runs.queued}"]`).waitFor({ timeout: 30_000 });
    await expect.poll(() => detail().getAttribute('data-run-id')).toBe(runs.approved);
    expect(await page.getByTestId('run-detail-status').textContent()).toBe('planned');
    await page.getByTestId('run-apply').waitFor();

    // Force unlock says what becomes of the run that holds the lock; cancelled here.
    await expect.poll(() => page.getByTestId('lock-holder').textContent()).toBe(`run ${runs.approved}`);
    await page.getByTestId('force-unlock-button').click();
    const warning = page.getByTestId('force-unlock-run-warning');
    expect(await warning.textContent()).toContain(runs.approved);
    expect(await warning.textContent()).toMatch(/discarded.*can no longer apply.*applying keeps its lock/);
    await screenshot(page, 'workspace-force-unlock-run');
    await page.getByTestId('cancel').click();
    expect(await page.getByTestId('force-unlock-run-warning').count()).toBe(0);
    expect(await page.getByTestId('lock-state').textContent()).toBe('locked');
  });

  it('applies after a confirmation with a comment, with no error banner, and shows the outputs', async () => {
    await page.getByTestId('run-apply').click();
    const confirm = page.getByTestId('run-action-confirm');
    expect(await confirm.getAttribute('data-action')).toBe('apply');
    // Nothing was sent yet: one click only opens the confirmation.
    expect(await runStatus(runs.approved)).toBe('planned');
    await page.getByTestId('run-comment').fill('ship it, reviewed by bob');
    await screenshot(page, 'workspace-run-apply-confirm');
    await page.getByTestId('run-confirm').click();
    await expect.poll(() => page.getByTestId('run-action-confirm').count()).toBe(0);
    expect(await runsCard().getByTestId('error-message').count()).toBe(0);
    // The run approved stays shown while it applies, whatever else is queued.
    await waitStatus('applied');
    expect(await detail().getAttribute('data-run-id')).toBe(runs.approved);
    expect(await page.getByTestId('error-message').count()).toBe(0);
    expect(await comments(runs.approved)).toEqual(['ship it, reviewed by bob']);
    // The run queued behind it then plans nothing new: the apply made what it would have.
    await expect.poll(() => runStatus(runs.queued), { timeout: 90_000 }).toBe('planned_and_finished');

    const outputs = page.getByTestId('outputs');
    const value = (name: string) =>
      outputs.locator(`[data-testid="output-row"][data-name="${name}"]`).locator('td').nth(2).innerText();
    await outputs.locator('[data-testid="output-row"][data-name="greeting"]').waitFor({ timeout: 30_000 });
    expect(await value('greeting')).toBe('hello');
    expect(JSON.parse(await value('shape'))).toEqual({ a: [1, 2] });
    expect(await value('password')).toBe('sensitive');
    expect(await outputs.getByTestId('output-sensitive').count()).toBe(1);
    expect(await page.content()).not.toContain('pw-Xy12-never-shown');
    await expect.poll(() => page.getByTestId('workspace-resources').textContent()).toBe('1');
  });

  it("follows the Terraform CLI's /app/ORG/WS/runs/RUN link to that run", async () => {
    await page.goto(`${url}/app/acme/web/runs/${runs.planOnly}`);
    await expect.poll(() => detail().getAttribute('data-run-id')).toBe(runs.planOnly);
    expect(new URL(page.url()).hash).toBe(`#/orgs/acme/workspaces/web?run=${runs.planOnly}`);
    expect(await page.getByTestId('workspace-name').textContent()).toBe('web');
    await page.goto(`${url}/app/acme/workspaces/web/runs/${runs.approved}`);
    await expect.poll(() => detail().getAttribute('data-run-id')).toBe(runs.approved);
    expect(await page.getByTestId('run-detail-status').textContent()).toBe('applied');
  });

  it('starts a destroy run, warned, and discards it after a confirmation with a comment', async () => {
    await page.goto(`${url}${wsPage}`);
    await page.getByTestId('start-run').click();
    await page.getByTestId('start-run-kind').selectOption('destroy');
    expect(await page.getByTestId('start-run-destroy-warning').textContent()).toContain('destroy every resource');
    await page.getByTestId('start-run-cancel').click();
    runs.destroy = await startRun('destroy', 'tear down');
    await waitStatus('planned');
    expect(await detail().getByTestId('run-detail-destroy').count()).toBe(1);
    const plan = page.getByTestId('run-log-plan');
    await expect.poll(() => plan.getAttribute('data-ended'), { timeout: 30_000 }).toBe('true');
    expect(await plan.textContent()).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    expect((await call('GET', `/runs/${runs.destroy}`)).data.attributes['is-destroy']).toBe(true);

    await page.getByTestId('run-discard').click();
    expect(await page.getByTestId('run-action-confirm').getAttribute('data-action')).toBe('discard');
    // Back closes it and sends nothing.
    await page.getByTestId('run-confirm-cancel').click();
    expect(await page.getByTestId('run-action-confirm').count()).toBe(0);
    expect(await runStatus(runs.destroy)).toBe('planned');
    await page.getByTestId('run-discard').click();
    await page.getByTestId('run-comment').fill('not today');
    await page.getByTestId('run-confirm').click();
    await waitStatus('discarded');
    expect(await page.getByTestId('error-message').count()).toBe(0);
    expect(await comments(runs.destroy)).toEqual(['not today']);
  });

  it('deletes a workspace that still manages resources only once its name is typed back', async () => {
    await page.goto(`${url}${wsPage}`);
    await expect.poll(() => page.getByTestId('lock-state').textContent()).toBe('unlocked');
    await page.getByTestId('workspace-delete').click();
    expect(await page.getByTestId('workspace-delete-force-warning').textContent()).toContain('manages 1 resource');
    const submit = page.getByTestId('workspace-delete-submit');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('workspace-delete-name').fill('we');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('workspace-delete-name').fill('web');
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/orgs/acme/workspaces');
    const res = await fetch(`${url}/api/v2/workspaces/${wsId}`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    expect(res.status).toBe(404);
  });
});
