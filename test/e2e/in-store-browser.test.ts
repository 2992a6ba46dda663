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
 * is then told it answered already; a store's kiosk (tablet) from its first visit to its thanks and back to its start,
 * and its answer made offline, sent once back online. Screenshots are written outside the repository.
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

async function axeViolations(page: Page, skipped: string[] = []) {
  await page.addScriptTag({ content: AXE });
  const rules = Object.fromEntries(skipped.map((rule) => [rule, { enabled: false }]));
  const results = (await page.evaluate(
    (options) => (globalThis as unknown as { axe: { run(options: unknown): Promise<unknown> } }).axe.run(options),
    { rules },
  )) as {
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

describe.skipIf(!existsSync(CHROMIUM))("a store's kiosk in a browser", () => {
  let token: string;
  beforeAll(async () => {
    tenant ??= await newTenant();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const res = await api({
      method: 'POST',
      path: '/public/admin/kiosks',
      key: tenant.adminKey,
      body: { store: 1, journey: 'loja', name: 'Caixa' },
    });
    token = res.body.token as string;
  });
  afterAll(() => browser?.close());
  const kioskAnswers = async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await api({
      path: '/public/answers',
      key: tenant.key,
      query: { from: today, to: today, source: 'kiosk', limit: 100 },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    return res.body.data as { score: number }[];
  };

  it.each(VIEWPORTS.map((size, at) => ({ ...size, locale: at === 1 ? 'es' : 'pt-BR' })))(
    'keeps its token from the first visit, answers 9 on a $name ($locale), thanks, and returns to an empty start',
    async (size) => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        bypassCSP: true,
        locale: size.locale,
      });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/k/${token}`);
      expect(new URL(page.url()).pathname).toBe('/k');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(tmpdir(), `kiosk-page-${size.name}-${size.locale}.png`), fullPage: true });

      await page.locator('input[name=score][value="9"]').check();
      await page.locator('#comment').fill(size.locale === 'es' ? 'Muy bien' : 'Muito bom');
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/k\?thanks=promoter$/);
      // The one rule left out: a shared tablet's thanks returns to the start for the next customer by design (the
      // issue's "returns to the start after 10 s"); the customer has finished, and the page holds one sentence.
      expect(await axeViolations(page, ['meta-refresh'])).toEqual([]);
      await page.screenshot({ path: join(tmpdir(), `kiosk-thanks-${size.name}-${size.locale}.png`), fullPage: true });
      // The thanks returns to the start by itself (a meta refresh, no script): followed here rather than waited for.
      const refresh = await page.locator('meta[http-equiv=refresh]').getAttribute('content');
      expect(refresh).toBe('10;url=k');
      await page.goto(new URL(refresh!.split('url=')[1]!, page.url()).href);
      expect(new URL(page.url()).pathname).toBe('/k');
      expect(await page.locator('input[name=score]:checked').count()).toBe(0);
      expect(await page.locator('#comment').inputValue()).toBe('');
      await context.close();
    },
  );

  it('keeps an answer made offline and sends it once the tablet is back online', async () => {
    const context = await browser.newContext({ viewport: { width: 768, height: 1024 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/k/${token}`);
    const before = (await kioskAnswers()).length;
    await context.setOffline(true);
    await page.locator('input[name=score][value="3"]').check();
    await page.locator('button[type=submit]').click();
    await expect.poll(() => page.locator('#kiosk-offline').isVisible()).toBe(true);
    expect(await page.locator('input[name=score]:checked').count()).toBe(0);
    await page.screenshot({ path: join(tmpdir(), 'kiosk-offline-tablet.png'), fullPage: true });
    await context.setOffline(false);
    await expect.poll(async () => (await kioskAnswers()).length, { timeout: 10_000, interval: 250 }).toBe(before + 1);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem('kiosk-answers'),
      ),
    ).toBe('[]');
    await context.close();
  });
});
