import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { LOCALES, type Locale } from '../../shared/locale.js';
import { surveyPage } from '../../shared/surveys/page-html.js';
import { overHttp } from '../support/api.js';
import { mailTo as mailboxTo } from '../support/mailbox.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { screenshot } from '../support/screenshots.js';
import { AXE_OPTIONS, hasChromium, injectChecker, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The survey in each language as a phone shows it, in Debian's chromium at 320, 390 and 768 px: the e-mail and the
 * page fit the screen (no horizontal scroll), every score is a tap target of at least 44 x 44 px, 0-10 is two
 * balanced rows (6 + 5) or one row and 1-7 one row, the follow-up of the tapped score is in view, and axe-core and
 * HTML_CodeSniffer (pa11y's runner, WCAG 2 AA) find nothing on the page, the thanks, the unsubscribe and the error
 * pages. Screenshots when asked (test/support/screenshots.ts).
 */
const WIDTHS = [320, 390, 768];
const api = overHttp('public');
const [publicUrl, sesUrl] = [inject('publicUrl'), inject('sesUrl')];
let browser: Browser;
let tenant: TestTenant;

const mailTo = (address: string) => mailboxTo(sesUrl, address);

/** axe-core's violations of every impact, and HTML_CodeSniffer's WCAG 2 AA errors. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await injectChecker(page, 'axe.min.js');
  await injectChecker(page, 'HTMLCS.js');
  return page.evaluate(async (options) => {
    const w = globalThis as unknown as {
      axe: { run(options: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
      HTMLCS: {
        process(standard: string, element: unknown, done: () => void): void;
        getMessages(): { type: number; code: string; msg: string }[];
      };
      document: unknown;
    };
    const axe = (await w.axe.run(options)).violations.map((v) => `axe ${v.id} (${v.nodes.length})`);
    await new Promise<void>((done) => w.HTMLCS.process('WCAG2AA', w.document, done));
    const sniffer = w.HTMLCS.getMessages()
      .filter((m) => m.type === 1)
      .map((m) => `htmlcs ${m.code}: ${m.msg}`);
    return [...axe, ...sniffer];
  }, AXE_OPTIONS);
}

/** The document's width as laid out: more than the viewport means a horizontal scroll. */
const scrollWidth = () =>
  (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;

/** The page scrolls nowhere sideways, and every tap target of `selector` is at least 44 x 44 px. */
async function fitsAndTaps(page: Page, selector: string, what: string) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(scrollWidth), `${what}: scroll width`).toBeLessThanOrEqual(width);
  const boxes = await page
    .locator(selector)
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.width, r.height]));
  expect(boxes.length, what).toBeGreaterThan(0);
  for (const [w, h] of boxes) {
    expect(w, `${what}: target width`).toBeGreaterThanOrEqual(44);
    expect(h, `${what}: target height`).toBeGreaterThanOrEqual(44);
  }
}

/** The number of buttons in each row of a scale, top to bottom. */
const rowsOf = (page: Page, field: string) =>
  page.locator(`.scale:has(input[name="${field}"]) label`).evaluateAll((labels) => {
    const rows = new Map<number, number>();
    for (const label of labels) {
      const top = Math.round(label.getBoundingClientRect().top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  });

const JOURNEY_ID: Record<Locale, number> = { 'pt-BR': 11, es: 12, en: 13 };
const slug = (locale: Locale) => `loja-${locale.toLowerCase()}`;

async function postTransaction(email: string, locale: Locale): Promise<void> {
  const posted = await api({
    method: 'POST',
    path: '/v2/transactions',
    key: tenant.key,
    body: {
      store: { id: 1 },
      employee: { id: 1 },
      customer: { externalId: `L-${email}`, name: 'Maria Silva', email },
      transaction: { journeySlug: slug(locale) },
    },
  });
  expect(posted.status, posted.text).toBe(201);
}

// A minute a test: each is one page and one accessibility run, 5-20 s with the machine eight times oversubscribed.
describe.skipIf(!hasChromium)('the survey in every language, on a phone', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    // One NPS journey per language, asking a csat, a csat5Stars and a ces class: the 11, 5 and 7 button scales.
    await putSettings(tenant.tenantId, {
      ...DEMO_SETTINGS,
      journeys: [
        ...DEMO_SETTINGS.journeys,
        ...LOCALES.map((locale) => ({
          ...DEMO_SETTINGS.journeys.find((j) => j.slug === 'loja')!,
          id: JOURNEY_ID[locale],
          slug: slug(locale),
          locale,
          classes: [1, 2, 3],
          channels: ['email' as const],
        })),
      ],
    });
    await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@demo.local', name: 'Pesquisa Demo' } });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** Each language's survey e-mail, as the mailbox received it, and the survey link it carries. */
  const mails = new Map<Locale, { html: string; link: string }>();
  beforeAll(async () => {
    for (const locale of LOCALES) {
      const email = `screens-${locale.toLowerCase()}-${Date.now()}@example.com`;
      await postTransaction(email, locale);
      const mail = await mailTo(email);
      mails.set(locale, { html: mail.body.html, link: /(http\S+\/s\/[\w-]{44})/.exec(mail.body.text)![1]! });
    }
  });

  /** A page of `width` in the browser's `locale`, closed after `use`. */
  async function withPage(locale: Locale, width: number, use: (page: Page) => Promise<void>) {
    const context = await browser.newContext({ viewport: { width, height: width === 768 ? 1024 : 844 }, bypassCSP: true, locale });
    try {
      await use(await context.newPage());
    } finally {
      await context.close();
    }
  }

  // One test a language and width (each one e-mail, one page and one accessibility run), so that none comes near its
  // limit on a machine busy with CI's other tiers: the test that did all of them at once took 26 s of its 30 alone.
  for (const locale of LOCALES) {
    for (const width of WIDTHS) {
      it(`${locale} at ${width} px: the e-mail and the page fit with 44 px targets, the tapped score's follow-up in view, no accessibility problem`, async () => {
        const { html, link } = mails.get(locale)!;
        await withPage(locale, width, async (page) => {
          // The e-mail as a mail client shows it.
          await page.setContent(html);
          expect(await page.getAttribute('html', 'lang')).toBe(locale);
          await fitsAndTaps(page, 'a', `${locale} e-mail at ${width}`);
          await screenshot(page, `email-${locale}-${width}`);

          // The page its score-3 button opens: a detractor, whose follow-up question is the comment's label.
          await page.goto(`${link}?score=3`);
          expect(await page.getAttribute('html', 'lang')).toBe(locale);
          await fitsAndTaps(page, '.scale label, button, footer a', `${locale} page at ${width}`);
          const main = await rowsOf(page, 'score');
          expect(main, `0-10 at ${width}`).toEqual(width < 576 ? [6, 5] : [11]);
          expect(await rowsOf(page, 'class_3'), `1-7 at ${width}`).toEqual([7]);
          const followUp = page.locator('label[for="comment"] .fu-detractor');
          expect(await followUp.isVisible()).toBe(true);
          expect(await page.locator('label[for="comment"] .fu-any').isVisible()).toBe(false);
          const box = (await followUp.boundingBox())!;
          expect(box.y + box.height, 'the follow-up is in view').toBeLessThanOrEqual(page.viewportSize()!.height);
          expect(await accessibilityProblems(page)).toEqual([]);
          await screenshot(page, `page-${locale}-${width}`);
        });
      });
    }

    it(`${locale}: the unsubscribe page and the page of a link that is no link, in the browser's language, no accessibility problem`, async () => {
      const { link } = mails.get(locale)!;
      await withPage(locale, 320, async (page) => {
        await page.goto(`${link}/unsubscribe`);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.goto(`${publicUrl}/s/not-a-token`);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(await accessibilityProblems(page)).toEqual([]);
      });
    });

    it(`${locale}: another score changes the follow-up with no script, and the answer is recorded`, async () => {
      const { link } = mails.get(locale)!;
      await withPage(locale, 768, async (page) => {
        await page.goto(`${link}?score=3`);
        await page.locator('input[name="score"][value="10"]').check({ force: true });
        expect(await page.locator('label[for="comment"] .fu-promoter').isVisible()).toBe(true);
        await page.locator('textarea').fill('Ok');
        await page.locator('button[type="submit"]').click();
        await page.waitForURL((url) => !url.search);
      });
    });

    for (const width of WIDTHS) {
      it(`${locale} at ${width} px: the thanks of an answered survey fit, with no accessibility problem`, async () => {
        const { link } = mails.get(locale)!;
        await withPage(locale, width, async (page) => {
          await page.goto(link);
          expect(await page.getAttribute('html', 'lang')).toBe(locale);
          expect(await page.locator('textarea').count(), 'the thanks, not the form').toBe(0);
          expect(await page.evaluate(scrollWidth)).toBeLessThanOrEqual(width);
          expect(await accessibilityProblems(page)).toEqual([]);
          await screenshot(page, `thanks-${locale}-${width}`);
        });
      });
    }
  }

  it("paints the page in the brand's colour, still with no accessibility problem", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const rendered = surveyPage({
      locale: 'pt-BR',
      brand: { name: 'Ótica Visão', colour: '#7c2d12' },
      token: 'tok',
      customerFirstName: 'Maria',
      question: {
        field: 'score',
        legend: 'De 0 a 10, quanto você recomendaria a Ótica Visão?',
        indicator: 'nps',
        chosen: 9,
        optional: false,
      },
      followUps: [{ bucket: 'promoter', text: 'O que você mais gostou?' }],
      classes: [{ field: 'class_1', legend: 'Quão fácil foi: Entrega?', indicator: 'ces', chosen: undefined, optional: true }],
      comment: '',
      problems: [],
    });
    await page.setContent(rendered.html);
    const background = await page
      .locator('input[value="9"] + span')
      .evaluate(
        (e) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor,
      );
    expect(background).toBe('rgb(124, 45, 18)');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'page-branded-390');
    await context.close();
  });
});
