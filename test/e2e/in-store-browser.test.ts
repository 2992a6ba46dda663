import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * A store's QR code as a walk-in customer lives it, in Debian's chromium, at a phone's, a tablet's and a desktop's
 * size: the page the code opens (no script needed), axe-core clean, a tap on 9, a comment, thanks; the same browser
 * is then told it answered already. Screenshots are written outside the repository.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'desktop', width: 1280, height: 900 },
];
const api = overHttp('public');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;

async function axeViolations(page: Page) {
  await page.addScriptTag({ content: AXE });
  const results = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as {
    violations: { id: string; impact: string; nodes: unknown[] }[];
  };
  return results.violations.map((v) => `${v.id} (${v.nodes.length})`);
}

describe.skipIf(!existsSync(CHROMIUM))('a store QR code in a browser', () => {
  beforeAll(async () => {
    tenant = await newTenant();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  it.each(VIEWPORTS)('opens the survey page on a $name, answers 9 with a comment, thanks, then refuses a second answer', async (size) => {
    const res = await api({ path: '/public/admin/qr', key: tenant.adminKey, query: { store: 1, journey: 'loja' } });
    const path = new URL(res.body.url as string).pathname;
    // Without script, as the page needs none; CSP bypassed only so that axe-core can be injected.
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      bypassCSP: true,
      locale: 'pt-BR',
    });
    const page = await context.newPage();
    await page.goto(`${publicUrl}${path}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sua opinião importa');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(tmpdir(), `qr-page-${size.name}.png`), fullPage: true });

    await page.locator('input[name=score][value="9"]').check();
    await page.locator('#comment').fill('Gostei do atendimento');
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    await page.waitForURL(/\?thanks=promoter$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Obrigado!');
    expect(await axeViolations(page)).toEqual([]);

    // Back to the code, and again: this browser answered it in the last 12 hours.
    await page.goto(`${publicUrl}${path}`);
    await page.locator('input[name=score][value="3"]').check();
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Você já respondeu');
    await page.screenshot({ path: join(tmpdir(), `qr-answered-${size.name}.png`), fullPage: true });
    await context.close();
  });
});
