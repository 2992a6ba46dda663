import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import { overHttp } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, signIn, watched as watchedBy } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The answers inbox in Debian's chromium over the local stack and its Cognito emulator: a store-1 manager, invited as
 * the admin command invites, reads its store's answers and comments (never store 2's), filters, opens an employee's
 * answers, pages back and exports CSV. axe-core checks the page; screenshots at 390 and 1280 px when asked
 * (test/support/screenshots.ts).
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;
let storeManager: string;
let allManager: string;
const PASSWORD = 'Loja1-inbox-pass!';
const ALL_PASSWORD = 'Todas-inbox-pass!';
/** The customers of store 1's answers, by comment (or score when without one). */
const customers = new Map<string, number>();

async function answered(store: number, score: number, comment?: string) {
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
      ...(comment ? { comment } : {}),
      classes: [{ classId: 1, label: 'Atendimento', type: 'csat', score: store === 1 ? 4 : 2 }],
    },
  });
  expect(answer.status, answer.text).toBe(201);
  const sale = await api({ path: `/public/transaction/${id}`, key: tenant.key });
  customers.set(comment ?? String(score), sale.body.customer_id ?? sale.body.customer?.id);
}

const invite = (email: string, scope: UserScope, password: string) =>
  inviteManagerOf(tenant.tenantId, email, scope, { temporary: 'Temp-inbox-pass1!', password });

/** Each answer listed: its score, its bucket, its comment (null without one), its store and employee links. */
const listed = (page: Page) =>
  page.$$eval('#answers > li', (items) =>
    items.map((item) => ({
      score: item.querySelector('.score strong')!.textContent,
      bucket: item.querySelector('.score span')!.textContent,
      comment: item.querySelector('.comment')?.textContent ?? null,
      store: item.querySelectorAll('.meta a')[0]!.textContent,
    })),
  );

// A page answered 400 (a filter refused) is the page the test asked for.
const watched = (options: Parameters<Browser['newContext']>[0] = {}) => watchedBy(browser, publicUrl, options, [400]);

describe.skipIf(!hasChromium)('the answers inbox in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    const store = await api({
      method: 'POST',
      path: '/public/store',
      key: tenant.key,
      body: { trade_name: 'Loja Centro', store_id: 'centro' },
    });
    expect(store.status).toBe(201);
    // Store 2's employee: offered by name to the all-stores manager only.
    const employee = await api({
      method: 'POST',
      path: '/public/employee',
      key: tenant.key,
      body: { name: 'Bruno Lima', store_id: 'centro' },
    });
    expect(employee.status, employee.text).toBe(200);
    // Oldest first: store 1 has two detractors with comments (one a spreadsheet formula), one without, a promoter.
    await answered(1, 10, 'Adorei o atendimento');
    await answered(1, 3, 'Demorou demais no caixa');
    await answered(1, 5);
    await answered(1, 6, '=HYPERLINK("http://evil.example","clique")');
    await answered(2, 2, 'Loja dois estava suja');
    await answered(2, 9, 'Ótimo na Centro');
    storeManager = `inbox-loja1-${tenant.tenantId}@test.local`;
    allManager = `inbox-todas-${tenant.tenantId}@test.local`;
    await invite(storeManager, { stores: [1], groups: [1] }, PASSWORD);
    await invite(allManager, 'all', ALL_PASSWORD);
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  it("shows a store-1 manager store 1's answers with their comments, newest first, and never store 2's", async () => {
    const { context, problems } = await watched({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/answers`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await signIn(page, storeManager, PASSWORD);
    await page.waitForSelector('#answers');
    expect(new URL(page.url()).pathname).toBe('/app/answers');
    expect(await page.getByRole('link', { name: 'Respostas' }).getAttribute('aria-current')).toBe('page');
    expect(await listed(page)).toEqual([
      { score: '6', bucket: 'Detrator', comment: '=HYPERLINK("http://evil.example","clique")', store: 'Loja Paulista' },
      { score: '5', bucket: 'Detrator', comment: null, store: 'Loja Paulista' },
      { score: '3', bucket: 'Detrator', comment: 'Demorou demais no caixa', store: 'Loja Paulista' },
      { score: '10', bucket: 'Promotor', comment: 'Adorei o atendimento', store: 'Loja Paulista' },
    ]);
    const main = await page.textContent('main');
    expect(main).toContain('Atendimento: 4');
    expect(main).toContain('chatbot');
    expect(main).not.toContain('suja');
    expect(main).not.toContain('Loja Centro');
    await screenshot(page, 'workspace-answers-1280');

    // The employee filter offers store 1's employees by name (not store 2's), and filters by the one chosen.
    const employees = page.getByLabel('Funcionário', { exact: true });
    expect(await employees.locator('option').allTextContents()).toEqual(['Todos os funcionários', 'Ana Souza']);
    await employees.selectOption({ label: 'Ana Souza' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/employee=1/);
    expect(await listed(page)).toHaveLength(4);
    expect(await employees.inputValue()).toBe('1');

    // Store 2 by address: refused, saying so, and nothing of it shown.
    const refused = await page.goto(`${publicUrl}/app/answers?store=2`);
    expect(refused!.status()).toBe(400);
    expect(await page.textContent('[role=alert]')).toBe('Loja não encontrada entre as suas.');
    expect(await page.textContent('main')).not.toContain('suja');

    // The comments shown are in the access log, read by this manager through the workspace.
    const access = await api({
      path: '/public/privacy/access',
      key: tenant.key,
      query: { customer: customers.get('Demorou demais no caixa')! },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(access.status, access.text).toBe(200);
    expect(
      access.body.data
        .filter((entry: { operation: string }) => entry.operation === 'getAppAnswers')
        .map((entry: { user: string }) => entry.user),
    ).toContain(storeManager);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('filters detractors with comments, opens an employee, pages back by cursor and exports the filter as CSV', async () => {
    const { context, problems } = await watched({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/answers`);
    await signIn(page, storeManager, PASSWORD);
    await page.waitForSelector('#answers');
    await page.getByLabel('Faixa').selectOption('detractor');
    await page.getByLabel('Só com comentário').check();
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/bucket=detractor/);
    expect((await listed(page)).map((a) => [a.score, a.comment])).toEqual([
      ['6', '=HYPERLINK("http://evil.example","clique")'],
      ['3', 'Demorou demais no caixa'],
    ]);
    // The filter form shows the filter it applied.
    expect(await page.getByLabel('Só com comentário').isChecked()).toBe(true);
    await screenshot(page, 'workspace-answers-390');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('respostas.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFFid,transaction_id,answered_at,journey,store,employee')).toBe(true);
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    // The formula is neutralised; store 2's answers are not in the file.
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""clique"")"`);
    expect(lines[2]).toContain('Demorou demais no caixa');
    expect(csv).not.toContain('suja');

    // The employee's name opens its answers (with the period, without the other filters).
    await page.locator('#answers .meta a').nth(1).click();
    await page.waitForURL(/employee=1/);
    expect(new URL(page.url()).searchParams.get('bucket')).toBeNull();
    expect(await listed(page)).toHaveLength(4);

    // Two at a time: "Mais antigas" goes on from the cursor with the same filters, to the last page.
    await page.goto(`${publicUrl}/app/answers?store=1&limit=2`);
    expect((await listed(page)).map((a) => a.score)).toEqual(['6', '5']);
    await page.getByRole('link', { name: 'Mais antigas' }).click();
    await page.waitForURL(/cursor=/);
    expect((await listed(page)).map((a) => a.score)).toEqual(['3', '10']);
    // The export from this page starts here and names the next file in its Link header when there is one.
    const exported = await context.request.get(
      await page
        .getByRole('link', { name: 'Exportar CSV' })
        .getAttribute('href')
        .then((h) => `${publicUrl}${h}`),
    );
    expect(exported.status()).toBe(200);
    expect(exported.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect((await exported.text()).trim().split('\r\n')).toHaveLength(3);
    const first = await context.request.get(`${publicUrl}/app/answers.csv?store=1&limit=2`);
    expect(first.headers().link).toMatch(/^<\/app\/answers\.csv\?store=1&limit=2&cursor=[^>]+>; rel="next"$/);
    const second = await context.request.get(`${publicUrl}${/^<([^>]+)>/.exec(first.headers().link!)![1]}`);
    expect(
      (await second.text())
        .split('\r\n')
        .slice(1, 3)
        .map((line) => line.split(',')[9]),
    ).toEqual(['3', '10']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('exports every answer of the filters as a spreadsheet: started, in progress, done, and the link downloads it', async () => {
    const { context, problems } = await watched({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/answers`);
    await signIn(page, storeManager, PASSWORD);
    await page.waitForSelector('#answers');
    // Started: back on the page of the same filters, the period written out, saying how far it got (or that it is done).
    await page.getByRole('button', { name: 'Exportar planilha completa' }).click();
    await page.waitForURL(/\/app\/answers\?from=.*#export$/);
    expect(await page.textContent('#export [role=status]')).toMatch(/^(Preparando a planilha|Planilha pronta)/);
    // The local stack's consumer writes it: "Atualizar" until it is done.
    for (let i = 0; i < 40 && !(await page.getByRole('link', { name: 'Baixar a planilha' }).count()); i++) {
      await page.waitForTimeout(250);
      const refresh = page.getByRole('link', { name: 'Atualizar' });
      if (await refresh.count()) await refresh.click();
    }
    expect(await page.textContent('#export [role=status]')).toContain('Planilha pronta: 4 respostas.');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Baixar a planilha' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^respostas-\d{4}-\d\d-\d\d-a-\d{4}-\d\d-\d\d\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const [header, ...rows] = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(header).toMatch(/^Respondida em \(America\/Sao_Paulo\);Jornada;Código da loja;Loja;/);
    expect(rows).toHaveLength(4);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""clique"")"`);
    expect(text).not.toContain('suja');
    // The file itself comes from the bucket (a presigned address the route redirected to): no other request left.
    expect(problems.filter((p) => !p.startsWith(`elsewhere: ${new URL(download.url()).origin}/`))).toEqual([]);
    await context.close();
  });

  it("shows the all-stores manager both stores' answers; a store's name, here and in the results, opens that store's", async () => {
    const { context, problems } = await watched({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${publicUrl}/app/answers`);
    await signIn(page, allManager, ALL_PASSWORD);
    await page.waitForSelector('#answers');
    expect(await page.getByLabel('Funcionário', { exact: true }).locator('option').allTextContents()).toEqual([
      'Todos os funcionários',
      'Ana Souza',
      'Bruno Lima',
    ]);
    expect((await listed(page)).map((a) => a.store)).toEqual([
      'Loja Centro',
      'Loja Centro',
      'Loja Paulista',
      'Loja Paulista',
      'Loja Paulista',
      'Loja Paulista',
    ]);
    await page.getByRole('link', { name: 'Loja Centro' }).first().click();
    await page.waitForURL(/store=2/);
    expect((await listed(page)).map((a) => a.comment)).toEqual(['Ótimo na Centro', 'Loja dois estava suja']);

    // From the results: a store's name in the ranking opens its answers, and an employee's, theirs.
    await page.goto(`${publicUrl}/app/results?journey=loja`);
    await page.locator('#stores').getByRole('link', { name: 'Loja Centro (poucas respostas para classificar)' }).click();
    await page.waitForURL(/\/app\/answers\?/);
    expect(new URL(page.url()).searchParams.get('store')).toBe('2');
    expect(new URL(page.url()).searchParams.get('journey')).toBe('loja');
    expect((await listed(page)).map((a) => a.comment)).toEqual(['Ótimo na Centro', 'Loja dois estava suja']);
    await page.goBack();
    await page.locator('#employees').getByRole('link', { name: 'Ana Souza' }).click();
    await page.waitForURL(/employee=1/);
    expect(await listed(page)).toHaveLength(6);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('passes axe-core on the inbox, at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      // CSP bypassed only so that axe-core can be injected.
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/answers`);
      await signIn(page, storeManager, PASSWORD);
      await page.waitForSelector('#answers');
      expect(await axe(page), `answers at ${width}`).toEqual([]);
      await page.goto(`${publicUrl}/app/answers?store=2`);
      expect(await axe(page), `refused filter at ${width}`).toEqual([]);
      await context.close();
    }
  });
});
