import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The results page in Debian's chromium over the local stack: a manager opens /results, gives the key and the user
 * token, and sees the summary, the trend and the stores and employees ranked, with the figures the API computed
 * from answers given through the chatbot API. axe-core checks the page; a screenshot is written outside the
 * repository.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;

async function answered(store: number, score: number) {
  const id = await registerSale(api, tenant.key, { store_id: store });
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [] },
  });
  expect(answer.status, answer.text).toBe(201);
}

/** Opens the page, fills the form and waits for the rankings. */
async function showResults(context: BrowserContext, token = tenant.userToken): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${publicUrl}/results`);
  await page.getByLabel('Chave da API').fill(tenant.key);
  await page.getByLabel('Token de usuário').fill(token);
  await page.getByRole('button', { name: 'Ver resultados' }).click();
  await page.waitForSelector('#stores tbody tr', { timeout: 20_000 });
  return page;
}

const rows = (page: Page, table: string) =>
  page.$$eval(`#${table} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));

describe.skipIf(!existsSync(CHROMIUM))('the results page in a browser', () => {
  beforeAll(async () => {
    tenant = await newTenant();
    const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Centro' } });
    expect(store.status).toBe(201);
    // Store 1: 10, 9, 9, 8, 6, 10 (NPS 50); store 2: 7, 3 (NPS -50, a small sample).
    for (const score of [10, 9, 9, 8, 6, 10]) await answered(1, score);
    for (const score of [7, 3]) await answered(2, score);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(() => browser?.close());

  it('shows the NPS, the trend and the ranked stores and employees, offline, under its content security policy', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(publicUrl)) problems.push(`elsewhere: ${request.url()}`);
    });
    await page.close();
    const shown = await showResults(context);
    shown.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    const summary = await shown.$$eval('#summary div', (items) =>
      items.map((item) => [item.children[0]!.textContent, item.children[1]!.textContent]),
    );
    // 8 answers: 4 promoters, 2 detractors (6 and 3).
    expect(summary).toEqual([
      ['NPS', '25'],
      ['Respostas', '8'],
      ['Pesquisas enviadas', '0'],
      ['Taxa de resposta', '–'],
    ]);
    expect(await rows(shown, 'stores')).toEqual([
      // The 95% interval (Wilson's, see shared/results/report.ts): 4 promoters and 1 detractor of 6; 1 detractor of 2.
      ['Loja Paulista', '50', '-22,4 a 85,5', '6', '0', '–'],
      ['Loja Centro (amostra pequena)', '-50', '-90,5 a 48,5', '2', '0', '–'],
    ]);
    expect((await rows(shown, 'employees'))[0]!.slice(1, 2)).toEqual(['25']);
    // The chart is drawn, and said in words for those who cannot see it.
    expect(await shown.$eval('#trend', (canvas) => (canvas as unknown as { width: number }).width)).toBeGreaterThan(100);
    expect(await shown.textContent('#trend-caption')).toMatch(/^NPS por dia: \d{4}-\d{2}-\d{2} 25$/);
    await shown.screenshot({ path: join(tmpdir(), 'results-page-1200.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('passes axe-core, and says what went wrong for a bad token', async () => {
    // CSP bypassed only so that axe-core can be injected.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await showResults(context);
    await page.addScriptTag({ content: AXE });
    const results = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as {
      violations: { id: string; impact: string; nodes: unknown[] }[];
    };
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: join(tmpdir(), 'results-page-390.png'), fullPage: true });

    await page.getByLabel('Token de usuário').fill('not-a-token');
    await page.getByRole('button', { name: 'Ver resultados' }).click();
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toMatch(/^Não foi possível ler os resultados \(401: /);
    expect(await page.isHidden('#results')).toBe(true);
    await context.close();
  });
});
