import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { digestSending } from '../../shared/adapters/wiring/digest.js';
import type { CaseRecord } from '../../shared/cases/record.js';
import { addDays } from '../../shared/dates.js';
import { weekOf } from '../../shared/results/groupings.js';
import { APP_DIGEST_PATH, appCasePath } from '../../shared/session/paths.js';
import { overHttp } from '../support/api.js';
import { axe, BROWSER_TEST_TIMEOUT, hasChromium, launchChromium } from '../support/browser.js';
import { emailsOf, until, type Mail } from '../support/mailbox.js';
import { openedCase, REGIONAL_STORES, regionalTenant, SUL } from '../support/regional-digest.js';
import { screenshot } from '../support/screenshots.js';
import { inviteManagerOf, signIn, watched } from '../support/workspace.js';

/**
 * The digest a regional manager acts on (issue 60 §3), as they read it, in pt-BR and in es: answers today at three
 * stores of two regions, a manager of region Sul (two of them), an overdue case at one of its stores and an open one at
 * the other. The workspace's digest page of today and the weekly e-mail as the local mailbox received it, each at 390
 * and 1280 px: the region's stores by name and no other, the first line naming the store and the case, each case with
 * its store, age and owner, nothing cut or scrolling sideways, axe-clean. Then the e-mail's button (issue 58): a link
 * drawn with table cells and Outlook's VML, to the digest page under the stage's base, in the tenant's words, inside
 * the 640 px ghost table. Each test is one language and one thing, so that it fits its limit on a loaded machine.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const sesUrl = inject('sesUrl');
const publicUrl = inject('publicUrl');
const PASSWORD = 'Regional-digest-pass1!';
const stamp = Date.now();
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;

/** The words a reader of each language reads, as the catalogues say them. */
const WORDS = {
  'pt-BR': {
    subject: 'Resumo semanal',
    first: (c: CaseRecord, owner: string) =>
      `Primeiro: o caso #${c.number} em ${REGIONAL_STORES[0]} está vencido, aberto hoje (${owner}). Ligue para o cliente.`,
    case: (c: CaseRecord, store: string, owner: string) => `#${c.number} em ${store}: nota 2, aberto hoje, ${owner}, prazo `,
    regions: 'Regiões',
    stores: 'Lojas, as que pedem atenção primeiro',
    overdue: 'Casos atrasados',
    open: 'Casos abertos',
    button: 'Ver o resumo no painel',
  },
  es: {
    subject: 'Resumen semanal',
    first: (c: CaseRecord, owner: string) =>
      `Primero: el caso #${c.number} en ${REGIONAL_STORES[0]} está vencido, abierto hoy (${owner}). Llame al cliente.`,
    case: (c: CaseRecord, store: string, owner: string) => `#${c.number} en ${store}: nota 2, abierto hoy, ${owner}, vence `,
    regions: 'Regiones',
    stores: 'Tiendas, las que piden atención primero',
    overdue: 'Casos vencidos',
    open: 'Casos abiertos',
    button: 'Ver el resumen en el panel',
  },
} as const;
type Language = keyof typeof WORDS;

interface Scene {
  manager: string;
  today: string;
  /** The overdue case (the region's first store) and the open one (its second). */
  late: CaseRecord;
  open: CaseRecord;
  mail: Mail & { subject: string };
}

/** Each language's tenant, manager, cases and e-mail, set up once and only for the tests that read them. */
const scenes = new Map<Language, Promise<Scene>>();
const sceneOf = (language: Language) => {
  if (!scenes.has(language)) scenes.set(language, setUp(language));
  return scenes.get(language)!;
};

async function setUp(locale: Language): Promise<Scene> {
  const { tenant, ids, today } = await regionalTenant(api, { locale });
  // The manager exists before the cases open: the one person who signs in and sees the store, each case's owner.
  const manager = `regional-${locale.toLowerCase()}-${stamp}@example.com`;
  await inviteManagerOf(tenant.tenantId, manager, SUL, { password: PASSWORD });
  const late = await openedCase(api, chatbot, tenant, ids[0]!, { overdue: true });
  const open = await openedCase(api, chatbot, tenant, ids[1]!);
  // The weekly e-mail of this week (today in it), as the digest queue's consumer sends it.
  const run = { version: 1 as const, tenantId: tenant.tenantId, period: 'week' as const, from: weekOf(today), user: manager };
  expect(await digestSending.handle(run)).toBe('sent');
  const mail = await until(async () => {
    const emails = await emailsOf<Mail & { subject: string }>(sesUrl);
    // The manager also owns the cases: their alerts come to the same address.
    return emails.find((e) => e.destination.to.includes(manager) && e.subject.startsWith(WORDS[locale].subject));
  }, `the digest to ${manager}`);
  return { manager, today, late, open, mail };
}

/**
 * What sticks out sideways or is cut, within `root`: the document wider than the window, an element reaching past the
 * window's edges, or one whose content is wider than its box.
 */
const sticksOut = (page: Page, root: string) =>
  page.evaluate((root) => {
    type Box = {
      tagName: string;
      className: string;
      textContent: string | null;
      scrollWidth: number;
      clientWidth: number;
      getBoundingClientRect(): { left: number; right: number; width: number };
    };
    const { document, innerWidth } = globalThis as unknown as {
      document: { documentElement: Box; querySelectorAll(selector: string): Iterable<Box> };
      innerWidth: number;
    };
    const named = (e: Box) =>
      `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ''} "${(e.textContent ?? '').trim().slice(0, 40)}"`;
    return [
      ...(document.documentElement.scrollWidth > innerWidth ? [`the page: ${document.documentElement.scrollWidth} px`] : []),
      ...[...document.querySelectorAll(`${root} *`)]
        .filter((e) => {
          const box = e.getBoundingClientRect();
          return box.width > 0 && (box.left < -1 || box.right > innerWidth + 1 || e.scrollWidth > e.clientWidth + 1);
        })
        .map(named),
    ];
  }, root);

let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('a regional manager reads the digest', { timeout: BROWSER_TEST_TIMEOUT * 2 }, () => {
  for (const language of ['pt-BR', 'es'] as const) {
    const words = WORDS[language];

    it.skipIf(!hasChromium)(
      `${language}: the digest page names the region's stores, what to do first and each case's store, age and owner`,
      async () => {
        // Prepare: the manager signed in (the sign-in page follows the browser, pt-BR; the digest speaks the tenant's).
        const { manager, today, late, open } = await sceneOf(language);
        const { context, problems } = await watched(browser, publicUrl, { viewport: WIDTHS[0], bypassCSP: true });
        const page = await context.newPage();
        const digest = `${APP_DIGEST_PATH}?from=${today}&to=${today}`;
        await page.goto(`${publicUrl}${digest}`);
        await signIn(page, manager, PASSWORD);
        await page.waitForURL((url) => url.pathname === APP_DIGEST_PATH);
        if (!page.url().endsWith(digest)) await page.goto(`${publicUrl}${digest}`);
        for (const viewport of WIDTHS) {
          // Act: today's digest on a phone, then on a desktop.
          await page.setViewportSize(viewport);
          // Assess
          expect(await page.getAttribute('html', 'lang')).toBe(language);
          const main = page.locator('main');
          // The region, then its stores by name; the other region's store nowhere.
          const listed = (title: string) => main.locator('h3', { hasText: title }).first().locator('xpath=following-sibling::ul[1]/li');
          expect(await listed(words.regions).allTextContents()).toEqual([expect.stringMatching(/^Sul: /)]);
          const stores = await listed(words.stores).allTextContents();
          expect(stores.map((s) => s.slice(0, s.indexOf(':'))).sort()).toEqual([REGIONAL_STORES[0], REGIONAL_STORES[1]]);
          expect(await main.textContent()).not.toContain(REGIONAL_STORES[2]);
          // What to do first: the overdue case at its store, a link to the case.
          const first = main.locator('.first');
          expect((await first.locator('strong').textContent())!).toBe(words.first(late, manager));
          expect(await first.getByRole('link').getAttribute('href')).toMatch(new RegExp(`${appCasePath(late.id)}$`));
          // Each case: its number, store, age and owner; a link to its page.
          const cases = (title: string) =>
            main.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) }).getByRole('link');
          expect(await cases(words.overdue).allTextContents()).toEqual([
            expect.stringContaining(words.case(late, REGIONAL_STORES[0], manager)),
          ]);
          expect(await cases(words.open).allTextContents()).toEqual([
            expect.stringContaining(words.case(open, REGIONAL_STORES[1], manager)),
          ]);
          expect(await sticksOut(page, 'main'), `at ${viewport.width} px`).toEqual([]);
          expect(await axe(page), `at ${viewport.width} px`).toEqual([]);
          await screenshot(page, `page-${language}-${viewport.width}`);
        }
        expect(problems).toEqual([]);
        await context.close();
      },
    );

    it.skipIf(!hasChromium)(
      `${language}: the e-mail as received says the same, readable at 390 and 1280 px, nothing cut or sideways`,
      async () => {
        // Prepare: the weekly e-mail the manager received.
        const { manager, late, open, mail } = await sceneOf(language);
        const page = await browser.newPage({ viewport: WIDTHS[0] });
        await page.setContent(mail.body.html);
        for (const viewport of WIDTHS) {
          // Act: opened on a phone, then on a desktop.
          await page.setViewportSize(viewport);
          // Assess
          expect(await page.getAttribute('html', 'lang')).toBe(language);
          const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
          expect(text).toContain(words.first(late, manager));
          expect(text).toContain(`${words.regions} Sul: `);
          expect(text).toContain(`${words.stores} `);
          for (const store of REGIONAL_STORES.slice(0, 2)) expect(text).toContain(`${store}: `);
          expect(text).not.toContain(REGIONAL_STORES[2]);
          expect(text).toContain(`${words.overdue} ${words.case(late, REGIONAL_STORES[0], manager)}`);
          expect(text).toContain(`${words.open} ${words.case(open, REGIONAL_STORES[1], manager)}`);
          // Readable: no line of figures smaller than 13 px.
          const small = await page
            .locator('p, li, td')
            .evaluateAll((els) =>
              els
                .filter(
                  (e) => (e.textContent ?? '').trim() && parseFloat((globalThis as unknown as Styles).getComputedStyle(e).fontSize) < 13,
                )
                .map((e) => (e.textContent ?? '').slice(0, 40)),
            );
          expect(small).toEqual([]);
          expect(await sticksOut(page, 'body'), `at ${viewport.width} px`).toEqual([]);
          // A mail client shows the e-mail inside its own page, which holds the landmarks: an e-mail's own `main` would be
          // a second one there, so the two landmark rules are the client's, not the e-mail's.
          expect(await axe(page, { skip: ['landmark-one-main', 'region'] }), `at ${viewport.width} px`).toEqual([]);
          await screenshot(page, `email-${language}-${viewport.width}`);
        }
        await page.close();
      },
    );
  }

  it("es: the e-mail's button is a bulletproof link to the digest page under the stage's base, inside Outlook's 640 px table", async () => {
    // Prepare: the weekly e-mail as received.
    const { mail, today } = await sceneOf('es');
    const html = mail.body.html;
    // Assess. Outlook for Windows: one fixed 640 px table around the whole column, opened before the content and closed after.
    const ghost =
      '<!--[if mso]><table role="presentation" width="640" cellpadding="0" cellspacing="0" align="center"><tr><td width="640"><![endif]-->';
    const closed = '<!--[if mso]></td></tr></table><![endif]-->';
    expect(html.split(ghost)).toHaveLength(2);
    expect(html.split(closed)).toHaveLength(2);
    expect(html.indexOf(ghost)).toBeLessThan(html.indexOf('<h1'));
    // The button: Outlook's VML rectangle, else a table cell of the brand's colour that a link fills.
    const button =
      /<!--\[if mso\]><v:roundrect [^>]*href="([^"]+)"[^>]*>.*?<center[^>]*>([^<]+)<\/center><\/v:roundrect><!\[endif\]--><!--\[if !mso\]><!--><table role="presentation"[^>]*><tr><td [^>]*bgcolor="(#[0-9a-fA-F]{6})"[^>]*><a href="([^"]+)" style="display:block;[^"]*"[^>]*>([^<]+)<\/a><\/td><\/tr><\/table><!--<!\[endif\]-->/.exec(
        html,
      );
    expect(button, 'the bulletproof button').not.toBeNull();
    const [, vmlHref, vmlLabel, , href, label] = button!;
    expect(html.indexOf(ghost)).toBeLessThan(button!.index);
    expect(button!.index).toBeLessThan(html.indexOf(closed));
    // The e-mail's own week (from, to), whenever it is opened.
    const own = `${APP_DIGEST_PATH}?period=week&from=${weekOf(today)}&to=${addDays(weekOf(today), 6)}`;
    // In HTML, each & of the link is written &amp;.
    const written = `${publicUrl}${own}`.replaceAll('&', '&amp;');
    expect([vmlHref, href]).toEqual([written, written]);
    expect([vmlLabel, label]).toEqual([WORDS.es.button, WORDS.es.button]);
    // The link is the workspace's digest page: without a session, it leads to the session's refresh, and back to it.
    const followed = await fetch(href!.replaceAll('&amp;', '&'), { redirect: 'manual' });
    expect(followed.status).toBe(303);
    expect(followed.headers.get('location')).toContain(`next=${encodeURIComponent(own)}`);
  });
});

type Styles = { getComputedStyle(element: unknown): { fontSize: string } };
