import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { create as tarCreate } from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { describeTerraform } from '../helpers/terraform.js';
import { launchBrowser, newPage, screenshot, signInWithToken } from './harness.js';

/**
 * The workspace page's health-assessment badge (hosted edition). A real `serve --edition hosted
 * --execute-runs` applies each workspace with the real terraform; its scheduler (ticking every
 * 200 ms, a hidden test flag) then runs each enabled workspace's first assessment, a refresh-only
 * plan: `drifted` had its state's output changed behind its back (berth state pull/push),
 * `steady` was left alone, `broken` got a configuration that no longer parses, and `unassessed`
 * never had assessments enabled. The same database served as the self-hosted edition shows no
 * badge at all.
 */

const CONFIG = `
resource "terraform_data" "marker" {
  input = "hello"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;
const BOUND_MS = 120_000;

describeTerraform(
  'console: the health-assessment drift badge',
  () => {
    const tmp = tempDb();
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let url: string;
    let token: string;
    const ids: Record<string, string> = {};
    /** Each assessed workspace's current assessment result, as the API answers it. */
    const results: Record<
      string,
      { id: string; attributes: { drifted: boolean | null; succeeded: boolean | null; 'created-at': string } }
    > = {};

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text).data : null;
    };
    const cli = (args: string[]) => runCli([...args, '--server', url, '--token', token]);
    /** Polls `probe` until it answers something, within BOUND_MS (never a fixed wait). */
    const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
      const until = Date.now() + BOUND_MS;
      for (;;) {
        const found = await probe();
        if (found !== undefined) return found;
        if (Date.now() > until) throw new Error(`gave up waiting for ${what}\n${server.stderr()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    /** Uploads `main` as a configuration version of workspace `name` (no run queued); its id. */
    const upload = async (name: string, main: string): Promise<string> => {
      const dir = join(tmp.dir, `${name}-${Object.keys(ids).length}-${Date.now()}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'main.tf'), main);
      const chunks: Buffer[] = [];
      for await (const chunk of tarCreate({ gzip: true, cwd: dir, portable: true }, ['main.tf'])) chunks.push(chunk);
      const cv = await call('POST', `/workspaces/${ids[name]}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
      });
      const up = await fetch(cv.attributes['upload-url'], { method: 'PUT', body: Buffer.concat(chunks) });
      expect(up.status).toBe(200);
      await waitFor(`the configuration of ${name} to be uploaded`, async () =>
        (await call('GET', `/configuration-versions/${cv.id}`)).attributes.status === 'uploaded' ? true : undefined,
      );
      return cv.id as string;
    };
    /** A workspace `name` whose CONFIG was applied by a remote run of serve's executor. */
    const applied = async (name: string) => {
      ids[name] = (
        await call('POST', '/organizations/acme/workspaces', {
          data: { type: 'workspaces', attributes: { name, 'terraform-version': 'latest' } },
        })
      ).id;
      const cv = await upload(name, CONFIG);
      const run = await call('POST', '/runs', {
        data: {
          type: 'runs',
          attributes: { message: 'apply', 'auto-apply': true },
          relationships: {
            workspace: { data: { type: 'workspaces', id: ids[name] } },
            'configuration-version': { data: { type: 'configuration-versions', id: cv } },
          },
        },
      });
      await waitFor(`the apply of ${name}`, async () => {
        const a = (await call('GET', `/runs/${run.id}`)).attributes;
        if (['errored', 'canceled', 'discarded'].includes(a.status))
          throw new Error(`the apply of ${name} ended ${a.status}\n${server.stderr()}`);
        return a.status === 'applied' ? true : undefined;
      });
    };
    const enableAssessments = (name: string) =>
      call('PATCH', `/workspaces/${ids[name]}`, {
        data: { type: 'workspaces', attributes: { 'assessments-enabled': true } },
      });
    const currentResult = (name: string) =>
      waitFor(`the first assessment of ${name}`, async () => {
        const rel = (await call('GET', `/workspaces/${ids[name]}`)).relationships['current-assessment-result'];
        return rel?.data ? await call('GET', `/assessment-results/${rel.data.id}`) : undefined;
      });
    /** Opens workspace `name` and waits until its page has read the workspace (its lock card shows). */
    const open = async (name: string) => {
      await page.goto(`${url}/#/orgs/acme/workspaces/${name}`);
      await expect.poll(() => page.getByTestId('workspace-id').textContent(), { timeout: 10_000 }).toBe(ids[name]);
    };
    const badge = () => page.getByTestId('drift');

    beforeAll(async () => {
      [browser, server] = await Promise.all([
        launchBrowser(),
        startServe(tmp.db, ['--execute-runs', '--edition', 'hosted', '--scheduler-interval-ms', '200']),
      ]);
      url = server.url.replace(/\/$/, '');
      token = server.token!;
      await call('POST', '/organizations', {
        data: { type: 'organizations', attributes: { name: 'acme', email: 'a@a.test' } },
      });
      for (const name of ['drifted', 'steady', 'broken']) await applied(name);
      ids.unassessed = (
        await call('POST', '/organizations/acme/workspaces', {
          data: { type: 'workspaces', attributes: { name: 'unassessed', 'terraform-version': 'latest' } },
        })
      ).id;

      // drifted: its state's output no longer says what its resource does.
      const file = join(tmp.dir, 'drifted.tfstate');
      const pull = await cli(['state', 'pull', 'acme/drifted', file]);
      expect(pull.code, pull.stderr).toBe(0);
      const state = JSON.parse(readFileSync(file, 'utf8'));
      state.serial += 1;
      state.outputs.greeting.value = 'tampered';
      writeFileSync(file, JSON.stringify(state));
      const push = await cli(['state', 'push', 'acme/drifted', file]);
      expect(push.code, push.stderr).toBe(0);
      // broken: its latest configuration no longer parses, so its assessment's plan fails.
      await upload('broken', 'resource "terraform_data" {\n');

      for (const name of ['drifted', 'steady', 'broken']) await enableAssessments(name);
      for (const name of ['drifted', 'steady', 'broken']) results[name] = await currentResult(name);
      // What the scheduler and executor stored (the e2e suite checks this in depth).
      expect(results.drifted.attributes).toMatchObject({ drifted: true, succeeded: true });
      expect(results.steady.attributes).toMatchObject({ drifted: false, succeeded: true });
      expect(results.broken.attributes).toMatchObject({ drifted: null, succeeded: false });

      ({ page } = await newPage(browser));
      await signInWithToken(page, url, token);
    }, 300_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      tmp.cleanup();
    });

    it('a workspace whose assessment found drift shows a "drifted" badge dated by that assessment, no link', async () => {
      await open('drifted');
      await expect.poll(() => badge().textContent(), { timeout: 10_000 }).toBe('drifted');
      expect(await badge().getAttribute('class')).toBe('badge locked');
      expect(await badge().getAttribute('title')).toBe(
        `Health assessment of ${results.drifted.attributes['created-at']}`,
      );
      // Text only: it links nowhere.
      expect(await badge().evaluate((el) => el.closest('a') === null && el.querySelector('a') === null)).toBe(true);
      expect(await badge().count()).toBe(1);
      // The assessment's refresh-only plan is no run of the workspace's list: the apply alone.
      await expect
        .poll(() => page.getByTestId('run-message').allTextContents(), { timeout: 10_000 })
        .toEqual(['apply']);
      // Executed by serve's own executor (no other browser test has a serve-executed run say so).
      expect(await page.getByTestId('run-executed-by').textContent()).toBe('serve');
      await screenshot(page, 'workspace-drifted');
    });

    it('a workspace whose assessment found no drift says "no drift"', async () => {
      await open('steady');
      await expect.poll(() => badge().textContent(), { timeout: 10_000 }).toBe('no drift');
      expect(await badge().getAttribute('class')).toBe('badge unlocked');
      expect(await badge().getAttribute('title')).toBe(
        `Health assessment of ${results.steady.attributes['created-at']}`,
      );
    });

    it('a workspace whose assessment failed says "assessment failed"', async () => {
      await open('broken');
      await expect.poll(() => badge().textContent(), { timeout: 10_000 }).toBe('assessment failed');
      expect(await badge().getAttribute('class')).toBe('badge locked');
    });

    it('a workspace never assessed shows no badge', async () => {
      await open('unassessed');
      // Without a current assessment result the badge reads nothing: it is decided with the
      // workspace itself, which the page has shown.
      expect(await page.getByTestId('lock-state').textContent()).toBe('unlocked');
      expect(await badge().count()).toBe(0);
    });

    it('the same database served as the self-hosted edition shows no badge, even where a result exists', async () => {
      await server.stop();
      server = await startServe(tmp.db, ['--edition', 'self-hosted', '--no-execute-runs']);
      url = server.url.replace(/\/$/, '');
      const ws = await call('GET', `/workspaces/${ids.drifted}`);
      expect(ws.relationships['current-assessment-result']).toEqual({ data: null });
      await signInWithToken(page, url, token);
      for (const name of ['drifted', 'steady']) {
        await open(name);
        expect(await page.getByTestId('lock-state').textContent()).toBe('unlocked');
        expect(await badge().count()).toBe(0);
      }
    });
  },
  300_000,
);
