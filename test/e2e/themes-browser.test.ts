import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locale } from '../../shared/locale.js';
import { overHttp } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, watched } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The themes of the comments in Debian's chromium over the local stack (issue 47): three answers analysed by the local
 * pollers and the local Comprehend; the results page's Themes section, whose row opens the inbox filtered by its theme;
 * the inbox's chips and its sentiment filter; the chips of a detractor's case. axe-core at 390x844 and 1280x900, in
 * pt-BR and es; the admin's themes page with the period's suggestions, one made a theme. Screenshots when asked (test/support/screenshots.ts).
 */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
const PASSWORD = 'Temas-loja-1!';
const COMMENTS = {
  fila: 'A fila estava enorme, esperei 40 minutos no caixa. Me liguem no 11 98765-4321',
  staff: 'O atendente foi muito educado e atencioso',
  price: 'Os preços estão caros demais, péssimo',
} as const;
/** Two comments of no theme that share their words: what the admin's page suggests (a phrase of one answer never is). */
const UNTHEMED = ['Adorei o cheiro de café na entrada', 'Que cheiro bom de café logo na entrada'];
/** The page's width as laid out: wider than the viewport, it scrolls sideways. */
const pageWidth = () =>
  (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;
let browser: Browser;
let tenant: TestTenant;
let manager: string;
let admin: string;
let caseId: number;

async function answered(score: number, comment: string): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: 1, phone: '11987654321' });
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, comment, classes: [] },
  });
  expect(answer.status, answer.text).toBe(201);
  return id;
}

async function setLocale(locale: Locale) {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const put = await api({
    method: 'PUT',
    path: '/public/admin/config',
    key: tenant.adminKey,
    body: { ...(read.body as Record<string, unknown>), locale },
    headers: { 'if-match': read.headers.etag! },
  });
  expect(put.status, put.text).toBe(200);
}

/** The words each language shows: the Themes section, a theme's name, the sentiment's label and the inbox's chips. */
const WORDS = {
  'pt-BR': { themes: 'Temas', wait: 'Espera', negative: 'Sentimento: Negativo', chips: 'Temas do comentário' },
  es: { themes: 'Temas', wait: 'Espera', negative: 'Sentimiento: Negativo', chips: 'Temas del comentario' },
} as const;

describe.skipIf(!hasChromium)('the themes of the comments in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    manager = `temas-${tenant.tenantId}@test.local`;
    await inviteManagerOf(tenant.tenantId, manager, 'all', { password: PASSWORD });
    admin = `temas-admin-${tenant.tenantId}@test.local`;
    await inviteManagerOf(tenant.tenantId, admin, 'all', { password: PASSWORD, role: 'admin' });
    caseId = await answered(2, COMMENTS.fila);
    await answered(10, COMMENTS.staff);
    await answered(3, COMMENTS.price);
    for (const comment of UNTHEMED) await answered(9, comment);
    // Analysed by the local pollers: every comment has its sentiment.
    await until(async () => {
      const listed = await api({ path: '/public/answers', key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
      const data = listed.body.data as { sentiment: string | null }[];
      return data.length === 3 + UNTHEMED.length && data.every((a) => a.sentiment !== null) ? true : undefined;
    }, 'the analysis of the comments');
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  const visit = async (page: Page, path: string, name: string, shot: (name: string) => Promise<unknown>) => {
    if (page.url() !== `${publicUrl}${path}`) await page.goto(`${publicUrl}${path}`);
    expect(await axe(page), `${path}`).toEqual([]);
    await shot(name);
  };

  it("shows the admin's themes page and its suggestions, and makes a suggestion a theme in one step", async () => {
    for (const viewport of VIEWPORTS) {
      const { context, problems } = await watched(browser, publicUrl, { viewport, locale: 'pt-BR', bypassCSP: true }, []);
      const page = await context.newPage();
      const shot = (name: string) => screenshot(page, `admin-${viewport.width}-${name}`);
      await page.goto(`${publicUrl}/app/admin/themes`);
      await page.locator('#email').fill(admin);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('button[type=submit]').click();
      await page.waitForURL('**/app/admin/themes');
      expect(await page.locator('#theme-wait h3').textContent()).toBe('Espera wait');
      const suggestions = page.locator('section[aria-labelledby=suggestions-title] li.card');
      expect(await suggestions.count()).toBeGreaterThan(0);
      await visit(page, '/app/admin/themes', 'themes', shot);
      if (viewport.width === 1280) {
        const phrase = (await suggestions.first().locator('h3').textContent())!;
        await suggestions
          .first()
          .getByRole('button', { name: `Criar tema ${phrase}` })
          .click();
        await page.waitForURL(/\/app\/admin\/themes\?saved=/);
        expect(await page.getByRole('status').textContent()).toMatch(/^Tema [a-z0-9-]+ salvo\./);
        expect(await page.locator('section[aria-labelledby=suggestions-title] h3').allTextContents()).not.toContain(phrase);
        await visit(page, page.url().slice(publicUrl.length), 'saved', shot);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('tells what customers complain about from what they praise, with each theme’s line and newest comments, on a phone too', async () => {
    for (const viewport of VIEWPORTS) {
      const { context, problems } = await watched(browser, publicUrl, { viewport, locale: 'pt-BR', bypassCSP: true }, []);
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/results?journey=loja`);
      await page.locator('#email').fill(manager);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('button[type=submit]').click();
      await page.waitForURL('**/app/results?journey=loja');
      const complaints = page.locator('#complaints');
      const praise = page.locator('#praise');
      expect(await complaints.locator('h3').textContent()).toBe('Do que reclamam');
      expect(await complaints.locator('.theme-head a').allTextContents()).toEqual(expect.arrayContaining(['Espera', 'Preço']));
      expect(await praise.locator('.theme-head a').allTextContents()).toContain('Atendimento');
      expect(await praise.locator('.theme-head a').allTextContents()).not.toContain('Espera');
      // The queue's newest comment, redacted: the phone number never reaches the page.
      const wait = complaints.locator('.theme-item', { has: page.getByRole('link', { name: 'Espera', exact: true }) });
      const quoted = await wait.locator('.examples q').allTextContents();
      expect(quoted).toEqual(['A fila estava enorme, esperei 40 minutos no caixa. Me liguem no [phone]']);
      expect(await page.content()).not.toContain('98765');
      // Its line over 12 weeks, named in words; this week's complaint, not beyond chance.
      const line = wait.getByRole('img');
      expect(await line.getAttribute('aria-label')).toMatch(/^Reclamações por semana, nas 12 semanas até .*: (0, ){11}1$/);
      expect(await line.locator('rect').count()).toBe(12);
      expect(await wait.textContent()).toContain('Última semana: +1, dentro do acaso');
      // A phone reads it without scrolling sideways.
      expect(await page.evaluate(pageWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await axe(page), 'results').toEqual([]);
      await page.locator('section[aria-labelledby=themes-title]').screenshot({ path: `/tmp/themes-${viewport.width}.png` });
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 120_000);

  for (const locale of ['pt-BR', 'es'] as const)
    it(`shows the themes in ${locale}: results, a theme's answers, the sentiment filter, the case`, async () => {
      const words = WORDS[locale];
      if (locale !== 'pt-BR') await setLocale(locale);
      for (const viewport of VIEWPORTS) {
        const { context, problems } = await watched(browser, publicUrl, { viewport, locale, bypassCSP: true }, []);
        const page = await context.newPage();
        const shot = (name: string) => screenshot(page, `${locale}-${viewport.width}-${name}`);
        await page.goto(`${publicUrl}/app/results?journey=loja`);
        await page.locator('#email').fill(manager);
        await page.locator('#password').fill(PASSWORD);
        await page.locator('button[type=submit]').click();
        await page.waitForURL('**/app/results?journey=loja');

        // The Themes section: a row per theme of the period's comments; the queue's row opens its answers.
        const section = page.locator('section[aria-labelledby=themes-title]');
        expect(await section.locator('h2').textContent()).toBe(words.themes);
        expect(await section.locator('tbody th').allTextContents()).toEqual(expect.arrayContaining([words.wait]));
        await visit(page, page.url().slice(publicUrl.length), 'results', shot);
        await section.locator('#themes').getByRole('link', { name: words.wait, exact: true }).click();
        await page.waitForURL(/\/app\/answers\?.*theme=wait/);

        // The inbox of that theme: the one comment, its sentiment and its chips.
        const comments = page.locator('blockquote.comment');
        expect(await comments.allTextContents()).toEqual([COMMENTS.fila]);
        expect(await page.locator('.analysis .sentiment').allTextContents()).toEqual([words.negative]);
        expect(await page.getByRole('list', { name: words.chips }).getByRole('link').allTextContents()).toContain(words.wait);
        await visit(page, page.url().slice(publicUrl.length), 'answers-wait', shot);

        // The sentiment filter, with no theme: the two negative comments.
        await page.locator('#f-theme').selectOption('');
        await page.locator('#f-sentiment').selectOption('negative');
        await page.locator('form.filters button[type=submit]').click();
        await page.waitForURL(/sentiment=negative/);
        expect((await comments.allTextContents()).sort()).toEqual([COMMENTS.fila, COMMENTS.price].sort());
        await visit(page, page.url().slice(publicUrl.length), 'answers-negative', shot);

        // The detractor's case: its comment's sentiment and themes.
        await visit(page, `/app/cases/${caseId}`, 'case', shot);
        const answer = page.locator('section[aria-labelledby=answer-title]');
        expect(await answer.locator('.sentiment').textContent()).toBe(words.negative);
        expect(await answer.getByRole('list', { name: words.chips }).getByRole('link').allTextContents()).toContain(words.wait);
        expect(problems).toEqual([]);
        await context.close();
      }
    }, 180_000);
});
