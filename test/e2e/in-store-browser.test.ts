import jsQR from 'jsqr';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, watched } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * A store's QR code as a walk-in customer lives it, in Debian's chromium, at a phone's, a tablet's and a desktop's
 * size: the page the code opens (no script needed), axe-core clean, a tap on 9, a comment, thanks; the same browser
 * is then told it answered already; a store's kiosk (tablet) from its first visit to its thanks and back to its start,
 * and its answer made offline, sent once back online; the admin's in-store page: the poster (its code decoded, printed
 * alone on one A4 or A6 page) and the kiosks registered and revoked. Screenshots are written outside the repository.
 */
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'desktop', width: 1280, height: 900 },
];
const api = overHttp('public');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;

describe.skipIf(!hasChromium)('a store QR code in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it.each(VIEWPORTS)(
    'opens the survey page on a $name, answers 9 with a comment, thanks, then says it was answered when opened again',
    async (size) => {
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
      expect(await axe(page)).toEqual([]);
      await screenshot(page, `qr-page-${size.name}`);

      await page.locator('input[name=score][value="9"]').check();
      await page.locator('#comment').fill('Gostei do atendimento');
      await page.getByRole('button', { name: 'Enviar resposta' }).click();
      await page.waitForURL(/\?thanks=promoter$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Obrigado!');
      expect(await axe(page)).toEqual([]);

      // Back to the code: this browser answered it in the last 12 hours, and the page says so before any typing.
      await page.goto(`${publicUrl}${path}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Você já respondeu');
      expect(await page.locator('form').count()).toBe(0);
      await screenshot(page, `qr-answered-${size.name}`);
      await context.close();
    },
  );
});

describe.skipIf(!hasChromium)("a store's kiosk in a browser", { timeout: BROWSER_TEST_TIMEOUT }, () => {
  let token: string;
  beforeAll(async () => {
    tenant ??= await newTenant();
    browser = await launchChromium();
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
      expect(await axe(page)).toEqual([]);
      await screenshot(page, `kiosk-page-${size.name}-${size.locale}`);

      await page.locator('input[name=score][value="9"]').check();
      await page.locator('#comment').fill(size.locale === 'es' ? 'Muy bien' : 'Muito bom');
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/k\?thanks=promoter$/);
      // The one rule left out: a shared tablet's thanks returns to the start for the next customer by design (the
      // issue's "returns to the start after 10 s"); the customer has finished, and the page holds one sentence.
      expect(await axe(page, { skip: ['meta-refresh'] })).toEqual([]);
      await screenshot(page, `kiosk-thanks-${size.name}-${size.locale}`);
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
    await screenshot(page, 'kiosk-offline-tablet');
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

/** A PDF's pages and their sizes (points), read from its page objects (chromium writes them uncompressed). */
function pdfPages(pdf: Buffer) {
  const text = pdf.toString('latin1');
  return {
    count: (text.match(/\/Type\s*\/Page\b/g) ?? []).length,
    sizes: [...text.matchAll(/\/MediaBox\s*\[([^\]]+)\]/g)].map((m) =>
      m[1]!
        .trim()
        .split(/\s+/)
        .slice(2)
        .map((n) => Math.round(Number(n))),
    ),
  };
}

describe.skipIf(!hasChromium)('the in-store admin page in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  const PASSWORD = 'Na-loja-admin-1!';
  let own: TestTenant;
  let admin: string;
  beforeAll(async () => {
    own = await newTenant();
    admin = `na-loja-${own.tenantId}@test.local`;
    await inviteManagerOf(own.tenantId, admin, 'all', { password: PASSWORD, role: 'admin' });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  const signedIn = async (path: string, locale = 'pt-BR') => {
    const watching = await watched(browser, publicUrl, { viewport: VIEWPORTS[0], locale, bypassCSP: true }, [400]);
    const page = await watching.context.newPage();
    await page.goto(`${publicUrl}${path}`);
    await page.locator('#email').fill(admin);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(`**${path}`);
    return { page, ...watching };
  };

  it('shows the poster at three sizes, its code decoding to the JSON URL, and prints it alone on one A4 or one A6 page', async () => {
    const json = await api({ path: '/public/admin/qr', key: own.adminKey, query: { store: 1, journey: 'loja' } });
    const { page, context, problems } = await signedIn('/app/admin/qr?store=1&journey=loja');
    for (const size of VIEWPORTS) {
      await page.setViewportSize(size);
      expect(await axe(page)).toEqual([]);
      await screenshot(page, `poster-page-${size.name}`);
    }
    const png = PNG.sync.read(await page.locator('.poster-qr').screenshot());
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(json.body.url);
    expect(await page.locator('.poster-question').textContent()).toContain('recomendaria');

    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.top').isVisible()).toBe(false);
    expect(await page.locator('#poster-form').isVisible()).toBe(false);
    expect(await page.locator('#kiosks-title').isVisible()).toBe(false);
    await screenshot(page, 'poster-print-a4');
    expect(pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }))).toEqual({ count: 1, sizes: [[595, 842]] });
    await page.goto(`${publicUrl}/app/admin/qr?store=1&journey=loja&size=a6`);
    await screenshot(page, 'poster-print-a6');
    expect(pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }))).toEqual({ count: 1, sizes: [[298, 420]] });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("registers a kiosk showing its address once, counts its answers today, names a wrong field in the tenant's language, and revokes once confirmed", async () => {
    const read = await api({ path: '/public/admin/config', key: own.adminKey });
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: own.adminKey,
      body: { ...(read.body as Record<string, unknown>), locale: 'es' },
      headers: { 'if-match': read.headers.etag! },
    });
    expect(put.status, put.text).toBe(200);
    const { page, context, problems } = await signedIn('/app/admin/qr', 'es');
    await page.setViewportSize(VIEWPORTS[2]!);
    await page.locator('#k-daily_cap').fill('0');
    await page.getByRole('button', { name: 'Registrar el quiosco' }).click();
    expect(await page.locator('#k-daily_cap-error').textContent()).toBe('debe ser como mínimo 1');
    expect(await page.locator('#k-name').getAttribute('aria-invalid')).toBe('true');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'kiosks-refused-desktop-es');

    await page.locator('#k-name').fill('Salida');
    await page.locator('#k-daily_cap').fill('50');
    await page.getByRole('button', { name: 'Registrar el quiosco' }).click();
    await page.waitForURL(/done=registered/);
    const address = await page.locator('#kiosk-url').textContent();
    expect(new URL(address!).pathname).toMatch(/^\/k\/[\w-]{38}$/);
    await page.setViewportSize(VIEWPORTS[0]!);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'kiosks-registered-phone-es');
    const listed = async () => (await api({ path: '/public/admin/kiosks', key: own.adminKey })).body.data as Record<string, unknown>[];
    expect(await listed()).toEqual([
      expect.objectContaining({ name: 'Salida', store: 1, journey: 'loja', daily_cap: 50, revoked_at: null }),
    ]);
    await page.reload();
    expect(await page.locator('#kiosk-url').count()).toBe(0);
    // The tablet answers once: the page counts it among the kiosk's answers today.
    const tablet = await browser.newContext({ locale: 'es' });
    const kiosk = await tablet.newPage();
    await kiosk.goto(`${publicUrl}${new URL(address!).pathname}`);
    await kiosk.locator('input[name=score][value="9"]').check();
    await kiosk.locator('button[type=submit]').click();
    await kiosk.waitForURL(/thanks=promoter$/);
    await tablet.close();
    await page.reload();
    expect(await page.locator('#kiosks li p').first().textContent()).toContain('1 respuesta hoy · como máximo 50 respuestas al día');

    const card = page.locator('#kiosks li').first();
    await card.locator('summary').click();
    await card.getByRole('button', { name: 'Revocar Salida' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Marque la confirmación');
    await page.locator('#kiosks li summary').first().click();
    await page.locator('#kiosks li input[name=confirm]').first().check();
    await page.locator('#kiosks li').first().getByRole('button', { name: 'Revocar Salida' }).click();
    await page.waitForURL(/done=revoked/);
    expect(await page.getByRole('status').textContent()).toBe('Quiosco revocado.');
    expect((await listed())[0]!.revoked_at).not.toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
