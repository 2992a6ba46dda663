import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import type { Locale } from '../../shared/locale.js';
import { overHttp } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { DEMO_LOGO } from '../support/logos.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, watched as watchedBy } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * Every workspace page in the tenant's language, brand and time zone (issue 46 §2), in Debian's chromium over the
 * local stack: for each language the tenant is set to (its browser speaking the same), the sign-in page and every
 * signed-in page (a case's too) are `<html lang>` of it with the brand's name and logo, axe-clean, and the keys page writes its times
 * in the tenant's zone, naming it. Screenshots at 390 and 1280 px when asked (test/support/screenshots.ts).
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
const [PHONE, DESKTOP] = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];
/**
 * The sizes each language is seen at: the service's own language at both, the other two at one each (every page is
 * the same template whatever the language, and each width is seen in two languages).
 */
const VIEWPORTS: Record<Locale, { width: number; height: number }[]> = { 'pt-BR': [PHONE, DESKTOP], es: [PHONE], en: [DESKTOP] };
const PASSWORD = 'Admin-languages-pass1!';
const PAGES = [
  '/app/answers',
  '/app/results',
  '/app/cases',
  '/app/admin/general',
  '/app/admin/journeys',
  '/app/admin/webhooks',
  '/app/admin/users',
  '/app/admin/keys',
  '/app/admin/brand',
];
/** Madrid: CET or CEST in es, GMT+1 or GMT+2 in en and pt-BR; never the service's own São Paulo or UTC. */
const MADRID_TIME = /\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}(?: [AP]M)? (?:CET|CEST|GMT\+[12])/;
let browser: Browser;
let tenant: TestTenant;
let admin: string;
/** A detractor's case of the tenant, whose page is visited with the others. */
let casePath: string;

async function setTenant(locale: Locale, logo: unknown) {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const document = read.body as Record<string, unknown>;
  const body = { ...document, locale, timeZone: 'Europe/Madrid', brand: { name: 'Café Aurora', logo } };
  const put = await api({
    method: 'PUT',
    path: '/public/admin/config',
    key: tenant.adminKey,
    body,
    headers: { 'if-match': read.headers.etag! },
  });
  expect(put.status, put.text).toBe(200);
}

async function expectTenantPage(page: Page, locale: Locale, what: string) {
  expect(await page.getAttribute('html', 'lang'), what).toBe(locale);
  expect(await page.locator('header .brand span').textContent(), what).toBe('Café Aurora');
  expect(await page.locator('header .brand img').getAttribute('src'), what).toMatch(/\/brand\/logos\//);
}

describe.skipIf(!hasChromium)(
  "every workspace page in the tenant's language, brand and time zone",
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    let logo: unknown;
    beforeAll(async () => {
      tenant = await newTenant();
      admin = `admin-languages-${tenant.tenantId}@test.local`;
      await tenantService.createUser(tenant.tenantId, { name: admin, scope: 'all', role: 'admin' });
      await inviteManagerOf(tenant.tenantId, admin, 'all', { password: PASSWORD });
      const uploaded = await api({
        method: 'POST',
        path: '/public/admin/brand/logos',
        key: tenant.adminKey,
        headers: { 'content-type': 'image/png' },
        body: DEMO_LOGO,
      });
      expect(uploaded.status, uploaded.text).toBe(201);
      logo = uploaded.body;
      const id = await registerSale(api, tenant.key, { phone: '11987654321' });
      const answer = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment: 'Fila longa', classes: [] };
      const answered = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer });
      expect(answered.status, answered.text).toBe(201);
      const opened = () => api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
      await until(async () => ((await opened()).status === 200 ? true : undefined), `the case of transaction ${id}`);
      casePath = `/app/cases/${id}`;
      browser = await launchChromium();
    }, 60_000);
    afterAll(() => browser?.close());

    for (const locale of ['es', 'en', 'pt-BR'] as const)
      it(`speaks ${locale} with the brand on every page, times in the tenant's zone`, async () => {
        await setTenant(locale, logo);
        for (const viewport of VIEWPORTS[locale]) {
          const { context, problems } = await watchedBy(browser, publicUrl, { viewport, locale, bypassCSP: true }, []);
          const page = await context.newPage();
          const shot = (name: string) => screenshot(page, `${locale}-${viewport.width}-${name}`);
          await page.goto(`${publicUrl}/app/answers`);
          expect(await page.getAttribute('html', 'lang'), 'sign-in').toBe(locale);
          expect(await axe(page), `sign-in at ${viewport.width}`).toEqual([]);
          await shot('sign-in');
          await page.locator('#email').fill(admin);
          await page.locator('#password').fill(PASSWORD);
          await page.locator('button[type=submit]').click();
          await page.waitForURL('**/app/answers');
          for (const path of [...PAGES, casePath]) {
            if (page.url() !== `${publicUrl}${path}`) await page.goto(`${publicUrl}${path}`);
            await expectTenantPage(page, locale, path);
            expect(await axe(page), `${path} at ${viewport.width}`).toEqual([]);
            await shot(path.slice('/app/'.length).replace(/\//g, '-'));
          }
          await page.goto(`${publicUrl}/app/admin/keys`);
          expect(await page.locator('#keys').textContent()).toMatch(MADRID_TIME);
          await page.goto(`${publicUrl}/app/admin`);
          await page.waitForURL('**/app/admin/general');
          expect(await page.locator('#g-timeZone option[selected]').getAttribute('value')).toBe('Europe/Madrid');
          expect(problems).toEqual([]);
          await context.close();
        }
      }, 180_000);
  },
);
