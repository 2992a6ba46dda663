import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { mailTo as mailboxTo, until } from '../support/mailbox.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, isChecker, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The whole loop as a customer lives it, in Debian's chromium: a transaction is posted, its e-mail arrives in the
 * local mailbox, the customer taps the score-9 button, rates the classes, writes a comment and submits; the API then
 * shows the answer. axe-core checks the page; a phone-sized screenshot when asked (test/support/screenshots.ts).
 */
const api = overHttp('public');
const [publicUrl, sesUrl] = [inject('publicUrl'), inject('sesUrl')];
let browser: Browser;
let tenant: TestTenant;

const mailTo = (address: string) => mailboxTo(sesUrl, address);

async function postTransaction(email: string, journey = 'loja'): Promise<number> {
  const posted = await api({
    method: 'POST',
    path: '/v2/transactions',
    key: tenant.key,
    body: {
      store: { id: 1 },
      employee: { id: 1 },
      customer: { externalId: `B-${email}`, name: 'Maria Silva', email },
      transaction: { journeySlug: journey },
    },
  });
  expect(posted.status, posted.text).toBe(201);
  return until(async () => {
    const outcome = await api({ path: `/v2/transactions/requests/${posted.headers['x-request-id']}`, key: tenant.key });
    return outcome.body.status === 'created' ? (outcome.body.transactionId as number) : undefined;
  }, 'the transaction');
}

describe.skipIf(!hasChromium)('the survey page in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    await putDelivery(tenant.tenantId, {
      quietHours: null,
      email: { from: 'pesquisa@demo.local', name: 'Pesquisa Demo' },
    });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('from the e-mail to a recorded answer: tap 9, rate the classes, comment, submit, see thanks', async () => {
    const email = `browser-${Date.now()}@example.com`;
    const id = await postTransaction(email);
    const mail = await mailTo(email);

    // A phone, without JavaScript (the page needs none); CSP bypassed only so that axe-core can be injected.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: true, bypassCSP: true });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(publicUrl) && !request.url().startsWith('http://localhost:') && !isChecker(request.url()))
        elsewhere.push(request.url());
    });
    // The e-mail as a mail client shows it; its score-9 button opens the page with 9 chosen.
    await page.setContent(mail.body.html);
    await page.getByRole('link', { name: 'Nota 9' }).click();
    await page.waitForURL(/\/s\/[\w-]{44}\?score=9$/);
    elsewhere.length = 0;
    await page.reload();
    expect(await page.locator('input[name="score"][value="9"]').isChecked()).toBe(true);
    expect(await page.locator('h1').textContent()).toBe('Maria, sua opinião importa');
    expect(await axe(page, { serious: true })).toEqual([]);

    // Rate the classes with the keyboard and the pointer, as people do.
    await page.getByRole('radio', { name: '4', exact: true }).nth(1).check();
    await page.getByRole('radio', { name: '5 estrelas' }).check();
    await page.getByLabel('O que você mais gostou?').fill('Atendimento excelente, voltarei.');
    await screenshot(page, 'survey-page-390x844');
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    await page.waitForSelector('h1:text("Obrigado!")');
    expect(await axe(page, { serious: true })).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();

    const transaction = await api({ path: `/public/transaction/${id}`, key: tenant.key });
    expect(transaction.body.rating).toEqual({ score: 9, comment: 'Atendimento excelente, voltarei.' });
    expect(transaction.body.rating_items).toEqual([
      { class_id: 1, score: 4 },
      { class_id: 2, score: 5 },
    ]);
    expect(transaction.body.survey).toMatchObject({ status: 'answered', channel: 'email' });
    const evaluation = await api({ path: `/public/rating/formbuilder/${id}`, key: tenant.key });
    expect(evaluation.body).toMatchObject({ score: 9, source: 'email', src: 1 });
  });

  it('records nothing until the form is submitted: opening every button of the e-mail (as mail scanners do) answers nothing', async () => {
    const email = `scanner-${Date.now()}@example.com`;
    const id = await postTransaction(email);
    const mail = await mailTo(email);
    const links = [...mail.body.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(links.length).toBeGreaterThanOrEqual(12);
    for (const link of links) expect((await fetch(link)).status, link).toBe(200);
    expect((await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.survey.status).toBe('sent');
    // The page is small and self-contained.
    const page = await fetch(links[0]!);
    const html = await page.text();
    expect(html.length).toBeLessThan(30 * 1024);
    // Its icon is inline: the browser asks for no /favicon.ico (a 404 in the console).
    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml;base64,/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('works without JavaScript, and answers the second submit with 409', async () => {
    const email = `nojs-${Date.now()}@example.com`;
    await postTransaction(email, 'ecommerce');
    const mail = await mailTo(email);
    const link = /(http\S+\/s\/[\w-]{44})/.exec(mail.body.text)![1]!;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('radio', { name: '5', exact: true }).first().check();
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    await page.waitForSelector('h1:text("Obrigado!")');
    const again = await fetch(link, { method: 'POST', body: 'score=4', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('já foi respondida');
    await context.close();
  });
});
