import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { routes } from '../../infra/routes.js';

/** The API reference in a real browser (Debian's chromium; .ci/run installs it). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let browser: Browser;

describe.skipIf(!existsSync(CHROMIUM))('the /docs reference page in a browser', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  it.each(['public', 'chatbot'] as const)('lists every operation of the %s API', async (api) => {
    const page = await browser.newPage();
    const offline: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(inject(api === 'public' ? 'publicUrl' : 'chatbotUrl'))) offline.push(request.url());
    });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await page.goto(`${inject(api === 'public' ? 'publicUrl' : 'chatbotUrl')}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
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
    // Nothing the page needs is refused by its content security policy, or fails to load.
    expect(refused).toEqual([]);
    await page.close();
  });
});
