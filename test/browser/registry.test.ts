import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { throwawayKey } from '../helpers/provider-package.js';
import { writeRelease } from '../helpers/provider-release.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { horizontalOverflow, launchBrowser, newPage, screenshot, signInWithToken, watchPage } from './harness.js';

/**
 * Issue 44: the organization's Registry page lists its modules (versions, status, the source
 * lines to copy, named by the console's own host) and its providers (versions and platforms).
 * Everything is published with the CLI against serve (`berth module publish`, `berth gpg-key add`,
 * `berth provider publish`).
 */
describe('console: the registry page', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;
  let url: string;
  let host: string;
  const key = throwawayKey('Acme Releases <releases@acme.test>');

  const berth = async (...args: string[]) => {
    const r = await runCli([...args, '--server', url, '--token', server.token!, '--org', 'acme']);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const moduleRow = (name: string) => page.locator(`[data-testid="module-row"][data-name="${name}"]`);
  const providerRow = (name: string) => page.locator(`[data-testid="provider-row"][data-name="${name}"]`);

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startServe(tmp.db, ['--no-execute-runs'])]);
    url = server.url.replace(/\/$/, '');
    host = new URL(url).host;
    await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test', '--server', url, '--token', server.token!]);
    const dir = join(tmp.dir, 'vpc');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.tf'), 'output "id" { value = "vpc-1" }\n');
    await berth('module', 'publish', 'vpc/aws', '1.0.0', '--directory', dir);
    await berth('module', 'publish', 'vpc/aws', '1.1.0', '--directory', dir);
    await berth('registry', 'module', 'create', 'dns/google');
    writeFileSync(join(tmp.dir, 'key.asc'), key.asciiArmor);
    await berth('gpg-key', 'add', join(tmp.dir, 'key.asc'));
    await berth(
      'provider',
      'publish',
      writeRelease(join(tmp.dir, 'v1'), key, 'standin', '1.0.0', ['linux_amd64', 'darwin_arm64']).dir,
    );
    await berth('provider', 'publish', writeRelease(join(tmp.dir, 'v2'), key, 'standin', '2.0.0', ['linux_amd64']).dir);

    ({ context, page } = await newPage(browser));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    seen = watchPage(page);
    await signInWithToken(page, url, server.token!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
  });

  it("the organization's navigation leads to the Registry page: modules with their versions, status and source", async () => {
    await page.goto(`${url}/#/orgs/acme/workspaces`);
    await page.getByTestId('nav-registry').click();
    await expect.poll(() => page.url()).toContain('#/orgs/acme/registry');
    expect(await page.getByTestId('nav-registry').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.title()).toBe('Registry of acme · berth');

    const vpc = moduleRow('vpc/aws');
    await vpc.waitFor();
    expect(await vpc.getByTestId('module-name').textContent()).toBe('vpc');
    expect(await vpc.getByTestId('module-versions').textContent()).toBe('1.1.0, 1.0.0');
    expect(await vpc.getByTestId('module-status').textContent()).toBe('setup_complete');
    expect(await vpc.getByTestId('source-snippet').textContent()).toBe(
      `source  = "${host}/acme/vpc/aws"\nversion = "1.1.0"`,
    );
    const dns = moduleRow('dns/google');
    expect(await dns.getByTestId('module-versions').textContent()).toBe('none');
    expect(await dns.getByTestId('module-status').textContent()).toBe('pending');
    expect(await dns.getByTestId('source-snippet').count()).toBe(0);
  });

  it('copies the source lines to the clipboard', async () => {
    await page.goto(`${url}/#/orgs/acme/registry`);
    const copy = moduleRow('vpc/aws').getByTestId('copy-source');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
      `source  = "${host}/acme/vpc/aws"\nversion = "1.1.0"`,
    );
  });

  it('lists providers with each version and its platforms, and the source of the newest', async () => {
    await page.goto(`${url}/#/orgs/acme/registry`);
    const standin = providerRow('standin');
    await standin.waitFor();
    expect(await standin.getByTestId('provider-name').textContent()).toBe('standin');
    const versions = standin.getByTestId('provider-version');
    await expect
      .poll(() => versions.evaluateAll((els) => els.map((e) => e.getAttribute('data-version'))))
      .toEqual(['2.0.0', '1.0.0']);
    await expect
      .poll(() => standin.getByTestId('provider-platforms').allTextContents())
      .toEqual(['linux_amd64', 'darwin_arm64, linux_amd64']);
    expect(await standin.getByTestId('source-snippet').textContent()).toBe(
      `source  = "${host}/acme/standin"\nversion = "2.0.0"`,
    );
    await screenshot(page, 'registry');
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await horizontalOverflow(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.csp).toEqual([]);
  });

  it('an organization with nothing published says how to publish', async () => {
    await runCli(['org', 'create', 'empty', '--email', 'ops@empty.test', '--server', url, '--token', server.token!]);
    await page.goto(`${url}/#/orgs/empty/registry`);
    await page.getByTestId('modules-empty').waitFor();
    expect(await page.getByTestId('modules-empty').textContent()).toContain('berth module publish');
    expect(await page.getByTestId('providers-empty').textContent()).toContain('berth provider publish');
    expect(await page.getByTestId('error-message').count()).toBe(0);
  });
});
