import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putSettings, raiseConfigVersion } from '../../shared/adapters/tenant-repository.js';
import { addDays } from '../../shared/dates.js';
import { answerTally, merge } from '../../shared/results/tally.js';
import { ENV } from '../../shared/config.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import { overHttp } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, signIn, watched as watchedBy } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The workspace in Debian's chromium over the local stack and its Cognito emulator: managers invited as the admin
 * command invites them sign in through the form, an invited one chooses a password first, and each sees the results
 * its scope allows, computed from answers given through the chatbot API. axe-core checks the pages; screenshots at
 * 390 and 1280 px are written outside the repository.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;
/** The user token the tenant user of each manager holds (the API's side of the same scope). */
const tokens = new Map<string, string>();
const STORE_MANAGER = { password: 'Loja1-test-pass!' };
const ALL_MANAGER = { temporary: 'Temp-test-pass-1!', password: 'Todas-test-pass-2!' };
let storeManager: string;
let allManager: string;

async function answered(store: number, score: number) {
  const id = await registerSale(api, tenant.key, { store_id: store });
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: {
      transactionId: id,
      attemptId: 1,
      journey: 'loja',
      score,
      classes: [{ classId: 1, label: 'Atendimento', type: 'csat', score: store === 1 ? 5 : 2 }],
    },
  });
  expect(answer.status, answer.text).toBe(201);
}

async function invite(email: string, scope: UserScope, temporary: string) {
  const { invited, token } = await inviteManagerOf(tenant.tenantId, email, scope, { temporary });
  tokens.set(email, token);
  return { directory: cognitoUserDirectory(process.env[ENV.userPoolId]!), invited };
}

const rows = (page: Page, table: string) =>
  page.$$eval(`#${table} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
const summary = (page: Page) =>
  page.$$eval('#summary div', (items) =>
    items.map((item) => [item.querySelector('dt')!.textContent, item.querySelector('dd')!.firstChild!.textContent]),
  );

/** The browser's computed style, as the callbacks run there read it. */
type Display = { getComputedStyle(element: unknown, pseudo?: string): { display: string; content: string } };

/** What sticks out sideways on a phone: the page, and any table or caption wider than its box. */
const sideways = (page: Page) =>
  page.evaluate(() => {
    type Box = { id: string; tagName: string; scrollWidth: number; clientWidth: number; closest(s: string): Box | null };
    const { document, innerWidth } = globalThis as unknown as {
      document: { documentElement: Box; querySelectorAll(selector: string): Iterable<Box> };
      innerWidth: number;
    };
    return [
      ...(document.documentElement.scrollWidth > innerWidth ? ['page'] : []),
      ...[...document.querySelectorAll('.table-wrap, caption, figcaption')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => element.id || element.closest('[id]')?.id || element.tagName),
    ];
  });

/**
 * The selects whose chosen option is cut: its text, in the select's font, wider than the select's box less its padding
 * and the arrow (16 px).
 */
const cutSelects = (page: Page) =>
  page.evaluate(() => {
    type Select = { id: string; clientWidth: number; selectedOptions: { text: string }[] };
    type Style = { font: string; paddingLeft: string; paddingRight: string };
    type Canvas = { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } };
    const { document, getComputedStyle } = globalThis as unknown as {
      document: { querySelectorAll(selector: string): Iterable<Select>; createElement(tag: 'canvas'): Canvas };
      getComputedStyle(element: Select): Style;
    };
    const pen = document.createElement('canvas').getContext('2d');
    return [...document.querySelectorAll('select')]
      .filter((select) => {
        const style = getComputedStyle(select);
        pen.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        return pen.measureText(select.selectedOptions[0]?.text ?? '').width > room;
      })
      .map((select) => `select#${select.id}`);
  });

// A form answered 400 or 401 (a wrong password) is the page the test asked for.
const watched = (options: Parameters<Browser['newContext']>[0] = {}) => watchedBy(browser, publicUrl, options);

describe.skipIf(!hasChromium)('the workspace in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Centro' } });
    expect(store.status).toBe(201);
    // Store 1: 10, 9, 9, 8, 6, 10 (NPS 50); store 2: 7, 3 (NPS -50): 8 answers, NPS 25.
    for (const score of [10, 9, 9, 8, 6, 10]) await answered(1, score);
    for (const score of [7, 3]) await answered(2, score);
    storeManager = `loja1-${tenant.tenantId}@test.local`;
    allManager = `todas-${tenant.tenantId}@test.local`;
    const { directory } = await invite(storeManager, { stores: [1], groups: [1] }, 'Temp-loja1-pass!');
    await directory.setPassword(storeManager, STORE_MANAGER.password);
    expect((await invite(allManager, 'all', ALL_MANAGER.temporary)).invited).toEqual({ email: allManager, invited: 'created' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  it('sends a signed-out visit of /app/ (and of the old /results) to sign in, and back after it', async () => {
    const { context, problems } = await watched();
    const page = await context.newPage();
    await page.goto(`${publicUrl}/results`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.goto(`${publicUrl}/app/`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    expect(await page.textContent('h1')).toBe('Entrar');

    await signIn(page, storeManager, 'not-the-password');
    expect(await page.textContent('[role=alert]')).toBe('E-mail ou senha incorretos.');
    expect(await page.context().cookies()).toEqual([]);
    await page.getByLabel('Senha', { exact: true }).fill(STORE_MANAGER.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForSelector('#summary');
    expect(new URL(page.url()).pathname).toBe('/app/results');
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.path, c.httpOnly, c.secure, c.sameSite]).sort()).toEqual([
      ['sid', '/app', true, true, 'Lax'],
      ['srt', '/app/session', true, true, 'Lax'],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a store-1 manager store 1's results only, on the page and through the API", async () => {
    const { context, problems } = await watched({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/results`);
    await signIn(page, storeManager, STORE_MANAGER.password);
    await page.waitForSelector('#stores');
    expect(await summary(page)).toEqual([
      ['NPS', '50'],
      ['Respostas', '6'],
      ['Pesquisas enviadas', '0'],
      ['Taxa de resposta', '–'],
    ]);
    const stores = await rows(page, 'stores');
    expect(stores).toHaveLength(1);
    // The store's name, its rank (shared/results/ranking.ts), its score, the score's interval, its change, its answers.
    const [, , score, interval, , answers] = stores[0]!;
    expect([score, interval, answers]).toEqual(['50', '-22,4 a 85,5', '6']);
    expect(await page.textContent('main')).not.toContain('Loja Centro');
    // The class the journey asks about, from store 1's answers only (all scored 5).
    expect((await rows(page, 'classes'))[0]!.slice(0, 3)).toEqual(['Atendimento', '5', '6']);
    // One day of answers: one point, said in words, and the same figures as a table.
    expect(await page.textContent('#trend-caption')).toMatch(/^NPS por dia: só um dia com respostas, \d{1,2} de [a-zç]+\.: 50\.$/);
    expect(await page.$$eval('#trend-table tbody tr', (trs) => trs.length)).toBe(1);
    expect(await page.$$eval('#by option', (options) => options.map((o) => o.textContent))).toEqual(['Dia', 'Semana', 'Mês']);
    // The chart is drawn (the page's one script), under the page's content security policy.
    expect(await page.$eval('#trend', (canvas) => (canvas as unknown as { width: number }).width)).toBeGreaterThan(100);
    // On a wide screen the results tables are tables (the phone's cards are for narrow screens only).
    expect(
      await page.$$eval('main table', (tables) => tables.map((t) => (globalThis as unknown as Display).getComputedStyle(t).display)),
    ).toEqual(Array(6).fill('table'));
    await screenshot(page, 'workspace-results-pt-BR-1280');
    expect(problems).toEqual([]);

    // The API, with the user token of the same tenant user: the same scope.
    const today = new Date().toISOString().slice(0, 10);
    const query = { journey: 'loja', from: today, to: today, group_by: 'store' };
    const own = await api({
      path: '/public/results',
      key: tenant.key,
      query,
      headers: { 'x-service-user-token': tokens.get(storeManager)! },
    });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.map((row: { key: string }) => row.key)).toEqual(['1']);
    const other = await api({
      path: '/public/results',
      key: tenant.key,
      query: { ...query, store: 2 },
      headers: { 'x-service-user-token': tokens.get(storeManager)! },
    });
    expect(other.status).toBe(404);
    await context.close();
  });

  it('has an invited manager choose a password, then shows every store, and signs out', async () => {
    const { context, problems } = await watched({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/`);
    await signIn(page, allManager, ALL_MANAGER.temporary);
    expect(await page.textContent('h1')).toBe('Escolha sua senha');
    await page.getByLabel('Nova senha').fill(ALL_MANAGER.password);
    await page.getByLabel('Repita a senha').fill(`${ALL_MANAGER.password}x`);
    await page.getByRole('button', { name: 'Salvar e entrar' }).click();
    expect(await page.textContent('[role=alert]')).toBe('As duas senhas não são iguais.');
    await page.getByLabel('Nova senha').fill(ALL_MANAGER.password);
    await page.getByLabel('Repita a senha').fill(ALL_MANAGER.password);
    await page.getByRole('button', { name: 'Salvar e entrar' }).click();
    await page.waitForSelector('#stores');
    expect((await summary(page)).slice(0, 2)).toEqual([
      ['NPS', '25'],
      ['Respostas', '8'],
    ]);
    const stores = await rows(page, 'stores');
    expect(stores.map((row) => row.slice(2, 3))).toEqual([['50'], ['-50']]);
    // Two answers: too few to rank (minAnswersToRank), listed apart.
    expect(stores[1]![0]).toBe('Loja Centro (poucas respostas para classificar)');
    // On a phone the tables stack, each cell labelled with its column: nothing scrolls sideways, no caption is cut.
    expect(await sideways(page)).toEqual([]);
    const before = (td: unknown) =>
      (globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } }).getComputedStyle(td, '::before')
        .content;
    // The first cell of a store's row is its rank, labelled with its column on a phone.
    expect(await page.$eval('#stores tbody td', before)).toBe('"Posição"');
    await screenshot(page, 'workspace-results-pt-BR-390');

    await page.getByRole('button', { name: 'Sair' }).click();
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${publicUrl}/app/results`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    // The password chosen is the one that signs in now.
    await signIn(page, allManager, ALL_MANAGER.password);
    await page.waitForSelector('#stores');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('passes axe-core on the sign-in form and the results, at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      // CSP bypassed only so that axe-core can be injected.
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/sign-in`);
      expect(await axe(page), `sign-in at ${width}`).toEqual([]);
      await screenshot(page, `workspace-sign-in-${width}`);
      await signIn(page, storeManager, STORE_MANAGER.password);
      await page.waitForSelector('#stores');
      expect(await axe(page), `results at ${width}`).toEqual([]);
      await context.close();
    }
  });

  it('refuses a sign-in posted from another site, whatever the password', async () => {
    const posted = await fetch(`${publicUrl}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ email: storeManager, password: STORE_MANAGER.password }),
    });
    expect(posted.status).toBe(403);
    expect(posted.headers.getSetCookie()).toEqual([]);
  });

  it('shows the region level, ranks with the unranked apart and an arrow only for a change beyond chance, at 390 and 1280 px', async () => {
    // Prepare: regions through the admin API (Sul, and Centro inside it), and 30 detractors for store 1 in the period
    // before the page's 30 days, written to its day counters: its NPS rose from -100 to 50, beyond chance.
    const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
    const regions = [
      { id: 1, name: 'Sul', stores: [1] },
      { id: 2, name: 'Centro', stores: [2], parent: 1 },
    ];
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...read.body, regions },
      headers: { 'if-match': read.headers.etag! },
    });
    expect(put.status, put.text).toBe(200);
    const before = `${addDays(new Date().toISOString().slice(0, 10), -40)}T12:00:00Z`;
    const deltas = Array.from({ length: 30 }, () =>
      answerTally({ journeyId: 1, storeId: 1, employeeId: 1 }, { indicator: 'nps', score: 2, items: [], answeredAt: before, sentOn: null }),
    ).flat();
    await db().client.send(
      new TransactWriteCommand({ TransactItems: counterUpdates(tenant.tenantId, { journeyId: 1, deltas: merge(deltas) }, 0) }),
    );

    for (const width of [390, 1280]) {
      // CSP bypassed only so that axe-core can be injected.
      const { context, problems } = await watched({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/results`);
      await signIn(page, allManager, ALL_MANAGER.password);
      await page.waitForSelector('#regions');

      // Assess: a region's row sums its stores (Centro's rolls up to Sul); ranks by the lower bound, store 2 (2 answers) apart.
      expect((await rows(page, 'regions')).map(([name, figure, , answers]) => [name, figure, answers])).toEqual([
        ['Sul', '25', '8'],
        ['Centro (amostra pequena)', '-50', '2'],
      ]);
      const [first, second] = await rows(page, 'stores');
      expect([first![1], second![1]]).toEqual(['1', '–']);
      expect(second![0]).toBe('Loja Centro (poucas respostas para classificar)');
      expect(first![4]).toMatch(/^↑ \+150, além do acaso$/);
      expect(second![4]).not.toMatch(/[↑↓]/);
      expect(await sideways(page), `at ${width}`).toEqual([]);
      expect(await axe(page), `results by region at ${width}`).toEqual([]);
      await screenshot(page, `workspace-results-regions-pt-BR-${width}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  // Last: it turns the tenant to Spanish.
  it('reads the results in Spanish, narrowed to the QR code by its filter, at 390 and 1280 px, axe clean and nothing sideways', async () => {
    await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
    await raiseConfigVersion(tenant.tenantId);
    // Three QR answers at store 2 on the day of the region test's 30 detractors, written to its counters.
    const day = addDays(new Date().toISOString().slice(0, 10), -40);
    const qr = Array.from({ length: 3 }, () =>
      answerTally(
        { journeyId: 1, storeId: 2, employeeId: 1 },
        { indicator: 'nps', score: 10, items: [], answeredAt: `${day}T12:00:00Z`, sentOn: null, source: 'qr' },
      ),
    ).flat();
    await db().client.send(
      new TransactWriteCommand({ TransactItems: counterUpdates(tenant.tenantId, { journeyId: 1, deltas: merge(qr) }, 0) }),
    );
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/sign-in`);
      await signIn(page, allManager, ALL_MANAGER.password);
      await page.waitForSelector('#stores');
      expect(await page.textContent('#trend-caption')).toMatch(/^NPS por día: solo un día con respuestas, .+: 25\.$/);
      expect(await sideways(page), `at ${width}`).toEqual([]);
      expect(await cutSelects(page), `at ${width}`).toEqual([]);
      expect(await axe(page), `results at ${width}`).toEqual([]);
      await screenshot(page, `workspace-results-es-${width}`);

      // That day's answers by source, then the QR code's alone, chosen in the form.
      await page.goto(`${publicUrl}/app/results?${new URLSearchParams({ journey: 'loja', from: day, to: day })}`);
      expect(await page.textContent('#sources')).toBe('Respuestas por origen: Ventas registradas 30 · Código QR 3 · Tótem 0');
      await page.selectOption('#source', 'qr');
      await Promise.all([page.waitForURL(/source=qr/), page.click('form.filters button[type=submit]')]);
      expect(await page.textContent('#sources')).toBe('Respuestas por origen: Ventas registradas 0 · Código QR 3 · Tótem 0');
      expect((await rows(page, 'stores')).map(([name, , , , , answers]) => [name, answers])).toEqual([
        ['Loja Centro (pocas respuestas para clasificar)', '3'],
      ]);
      expect(await sideways(page), `by source at ${width}`).toEqual([]);
      expect(await axe(page), `results by source at ${width}`).toEqual([]);
      await screenshot(page, `workspace-results-qr-es-${width}`);
      await context.close();
    }
  });
});
