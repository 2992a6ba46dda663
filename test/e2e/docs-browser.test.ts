import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { referencePaths, routes } from '../../infra/routes.js';
import { axe, hasChromium, isChecker, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/** The API reference in a real browser (Debian's chromium; .ci/run installs it). */
let browser: Browser;

/**
 * Opens a page and records what a person would see go wrong: a request to another host, a console error (a refusal
 * by the content security policy among them), an answer of 400 or more (a missing favicon among them).
 */
async function open(url: string, base: string) {
  const page = await browser.newPage();
  const offline: string[] = [];
  const failed: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !request.url().startsWith('data:') && !isChecker(request.url())) offline.push(request.url());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') refused.push(message.text());
  });
  await page.goto(url);
  return { page, offline, failed, refused };
}

const operations = (api: 'public' | 'chatbot') =>
  [
    ...routes.filter((r) => r.api === api).flatMap((r) => r.paths.map((path) => `${r.method} ${path}`)),
    ...referencePaths(api).map((p) => `GET ${p}`),
  ].sort();

describe.skipIf(!hasChromium)('the /docs reference page in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it.each(['public', 'chatbot'] as const)('lists every operation of the %s API, with JavaScript off', async (api) => {
    const base = inject(api === 'public' ? 'publicUrl' : 'chatbotUrl');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page: Page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${base}/docs`);
    const listed = await page.$$eval('.op', (nodes) =>
      nodes.map((n) => `${n.getAttribute('data-method')!.toUpperCase()} ${n.getAttribute('data-path')}`),
    );
    expect(listed.sort()).toEqual(operations(api));
    // The page has its icon: the browser asks for no /favicon.ico.
    expect(await page.$eval('link[rel=icon]', (link) => link.getAttribute('href'))).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(failed).toEqual([]);
    await context.close();
  });

  it.each(['public', 'chatbot'] as const)(
    'opens Swagger UI from /docs to try the %s API, offline and with no console error',
    async (api) => {
      const base = inject(api === 'public' ? 'publicUrl' : 'chatbotUrl');
      const { page, offline, failed, refused } = await open(`${base}/docs`, base);
      await page.click('a[href="assets/console.html"]');
      await page.waitForSelector('.opblock', { timeout: 45_000 });
      const listed = await page.$$eval('.opblock-summary-path', (nodes) =>
        nodes.map((n) => n.getAttribute('data-path') ?? n.textContent ?? ''),
      );
      const declared = routes.filter((r) => r.api === api).flatMap((r) => r.paths);
      for (const path of declared)
        expect(
          listed.map((p) => p.replace(/\u200b/g, '')),
          path,
        ).toContain(path);
      expect(offline).toEqual([]);
      // Nothing the pages need is refused by their content security policy, or fails to load.
      expect(refused).toEqual([]);
      expect(failed).toEqual([]);
      await page.close();
    },
  );

  it.each(['public', 'chatbot'] as const)(
    'is axe-clean on a 390 px phone, every table that scrolls reachable by keyboard (%s)',
    async (api) => {
      // Prepare: a phone's width, where the wide tables scroll sideways.
      const base = inject(api === 'public' ? 'publicUrl' : 'chatbotUrl');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${base}/docs`);
      // Act
      await page.$$eval('details', (nodes) => nodes.forEach((node) => node.setAttribute('open', '')));
      const violations = await axe(page);
      const scrolling = await page.$$eval('table', (tables) =>
        tables.filter((t) => t.scrollWidth > t.clientWidth).map((t) => [t.getAttribute('tabindex'), t.getAttribute('aria-label')]),
      );
      // Assess
      expect(violations).toEqual([]);
      expect(scrolling.length).toBeGreaterThan(0);
      for (const [tabindex, label] of scrolling) expect([tabindex, label ? 'labelled' : 'unlabelled']).toEqual(['0', 'labelled']);
      expect(await page.$eval('meta[name=description]', (meta) => meta.getAttribute('content'))).toMatch(/every operation/);
      await context.close();
    },
    120_000,
  );
});
