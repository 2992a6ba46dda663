import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENV, requireEnv } from '../../shared/config.js';
import { signSurveyLink } from '../../shared/surveys/link.js';
import { overHttp } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { hasChromium, launchChromium } from '../support/browser.js';

/**
 * The comment's label as a phone (390 px) shows it on each page that asks the survey (the e-mail's survey page, a
 * store's QR code, a kiosk): for a score of each bucket, exactly one question is visible, the follow-up of that bucket
 * (issue 58: every rule after the detractors' was invalid CSS, so passives and promoters read two questions at once).
 * No script: the page's own style sheet does it.
 */
const api = overHttp('public');
const publicUrl = inject('publicUrl');
let browser: Browser;
let tenant: TestTenant;

/** A score of each bucket of the NPS journey `loja`, and its follow-up question in pt-BR. */
const BUCKETS = [
  { score: 3, followUp: 'O que podemos melhorar?' },
  { score: 8, followUp: 'O que faltou para a nota ser 10?' },
  { score: 10, followUp: 'O que você mais gostou?' },
];

/** The visible parts of the comment's label, without the "(optional)" mark. */
const visibleQuestions = (page: Page) =>
  page
    .locator('label[for="comment"] > span:not(.optional)')
    .evaluateAll((spans) => spans.filter((s) => s.getClientRects().length > 0).map((s) => s.textContent));

async function readsOneQuestionEach(page: Page) {
  // No score chosen: the general question alone.
  expect(await visibleQuestions(page)).toHaveLength(1);
  for (const { score, followUp } of BUCKETS) {
    await page.locator(`input[name="score"][value="${score}"]`).check({ force: true });
    expect(await visibleQuestions(page), `score ${score}`).toEqual([followUp]);
  }
  // The comment is optional, and its label says so.
  expect(await page.locator('label[for="comment"] > .optional').isVisible()).toBe(true);
}

const phone = () => browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false, locale: 'pt-BR' });

describe.skipIf(!hasChromium)("the comment's follow-up question on a phone", () => {
  beforeAll(async () => {
    tenant = await newTenant();
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('the survey page shows the one follow-up of the chosen score', { timeout: 60_000 }, async () => {
    const id = await registerSale(api, tenant.key);
    const token = signSurveyLink(
      { tenantId: tenant.tenantId, transactionId: id, attemptId: 1, channel: 'email', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      requireEnv(ENV.surveySecret),
    );
    const context = await phone();
    const page = await context.newPage();
    await page.goto(`${publicUrl}/s/${token}`);
    await readsOneQuestionEach(page);
    await context.close();
  });

  it("a store's QR code shows the one follow-up of the chosen score", { timeout: 60_000 }, async () => {
    const res = await api({ path: '/public/admin/qr', key: tenant.adminKey, query: { store: 1, journey: 'loja' } });
    expect(res.status, res.text).toBe(200);
    const context = await phone();
    const page = await context.newPage();
    await page.goto(`${publicUrl}${new URL(res.body.url as string).pathname}`);
    await readsOneQuestionEach(page);
    await context.close();
  });

  it("a store's kiosk shows the one follow-up of the chosen score", { timeout: 60_000 }, async () => {
    const res = await api({
      method: 'POST',
      path: '/public/admin/kiosks',
      key: tenant.adminKey,
      body: { store: 1, journey: 'loja', name: 'Caixa' },
    });
    expect(res.status, res.text).toBe(201);
    const context = await phone();
    const page = await context.newPage();
    await page.goto(`${publicUrl}${new URL(res.body.url as string).pathname}`);
    await readsOneQuestionEach(page);
    await context.close();
  });
});
