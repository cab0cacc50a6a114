import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './harness.js';

/** The harness itself: headless chromium starts here and renders a page. */
describe('browser harness', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('launches headless chromium and opens about:blank', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('about:blank');
    expect(await page.evaluate('1 + 1')).toBe(2);
    expect(browser.version()).toMatch(/^\d+\./);
    await context.close();
  });
});
