import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { answerTally, countedOf, merge, scoredRating } from '../../shared/results/tally.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, watched } from '../support/workspace.js';
import { screenshot, SCREENSHOTS } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * "What moves the score" on the results page in Debian's chromium over the local stack (issue 60 §1): 200 answers of
 * journey loja, where the service item (Atendimento) drives the score and cleanliness (Limpeza) does not, counted as
 * the answer path counts them; the section names the item to improve first, its table reads as cards on a phone
 * without a sideways scroll; axe-core at 390x844 and 1280x900. Screenshots when asked (test/support/screenshots.ts).
 */
const publicUrl = inject('publicUrl');
const PASSWORD = 'Fatores-loja-1!';
let browser: Browser;
let tenant: TestTenant;
let manager: string;
const today = new Date().toISOString().slice(0, 10);

/** 200 answers counted today in store 1, in one write (their deltas summed: the same items, the same sums). */
async function seed() {
  let state = 7;
  const next = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const deltas = Array.from({ length: 200 }, () => {
    const [service, cleaning] = [1 + Math.floor(next() * 5), 1 + Math.floor(next() * 5)];
    const score = Math.min(10, Math.max(0, 2 * service - 1 + Math.round((next() - 0.5) * 4)));
    const sale = {
      journey_id: 1,
      store_id: 1,
      employee_id: 1,
      rating: { score },
      rating_items: [
        { class_id: 1, score: service },
        { class_id: 2, score: cleaning },
      ],
    };
    return answerTally(countedOf(sale), scoredRating(sale, DEMO_SETTINGS, { answeredAt: `${today}T12:00:00Z`, sentOn: null })!);
  });
  const items = counterUpdates(tenant.tenantId, { journeyId: 1, deltas: merge(deltas.flat()) }, 1);
  await db().client.send(new TransactWriteCommand({ TransactItems: items }));
}

/** The document's width as laid out: more than the viewport means a horizontal scroll. */
const scrollWidth = () =>
  (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;

describe.skipIf(!hasChromium)('what moves the score, in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    manager = `fatores-${tenant.tenantId}@test.local`;
    await inviteManagerOf(tenant.tenantId, manager, 'all', { password: PASSWORD });
    await seed();
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ] as const)
    it(`names the item to improve first and ranks the items at ${viewport.width} px, axe-clean`, async () => {
      const { context, problems } = await watched(browser, publicUrl, { viewport, locale: 'pt-BR', bypassCSP: true }, []);
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/results?journey=loja&from=${today}&to=${today}`);
      await page.locator('#email').fill(manager);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('button[type=submit]').click();
      await page.waitForURL('**/app/results?**');
      const section = page.getByRole('region', { name: 'O que move a nota' });
      expect(await section.locator('p.lead').textContent()).toMatch(/^Melhore primeiro: Atendimento\. /);
      expect(await section.locator('tbody th').allTextContents()).toEqual(['Atendimento', 'Limpeza']);
      expect(
        await section
          .getByRole('table', { name: /Itens avaliados/ })
          .locator('tbody tr')
          .first()
          .locator('td')
          .last()
          .textContent(),
      ).toBe('Sim');
      expect(await page.evaluate(scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await axe(page)).toEqual([]);
      await screenshot(page, `results-${viewport.width}`);
      // The section alone, to look at beside the whole page.
      if (SCREENSHOTS) await section.screenshot({ path: `${SCREENSHOTS}/drivers-${viewport.width}.png` });
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
});
