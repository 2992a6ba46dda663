import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { recoveryRequester } from '../../shared/adapters/wiring/recovery.js';
import { overHttp } from '../support/api.js';
import { emailsOf, until, type Mail } from '../support/mailbox.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The recovery survey as a customer lives it, in Debian's chromium, against the local stack (its pollers run the
 * dispatcher): a resolved case's recovery e-mail arrives, the customer taps "Sim", adds a score and sends. axe-core
 * checks the page; a phone-sized screenshot when asked (test/support/screenshots.ts).
 */
const api = overHttp('public');
const sesUrl = inject('sesUrl');
let browser: Browser;
let tenant: TestTenant;

const mailsTo = (address: string, count: number) =>
  until(async () => {
    const emails = await emailsOf<Mail & { subject: string }>(sesUrl);
    const mine = emails.filter((e) => e.destination.to.includes(address));
    return mine.length >= count ? mine : undefined;
  }, `${count} e-mails to ${address}`);

describe.skipIf(!hasChromium)('the recovery survey in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@demo.local', name: 'Pesquisa Demo' } });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('from the recovery e-mail to a recorded "yes": tap Sim, add a score, send, see thanks', async () => {
    const email = `recovery-browser-${Date.now()}@example.com`;
    const posted = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, journey: 'ecommerce', customer_integration: `RB-${Date.now()}`, name: 'Maria Silva', email },
    });
    expect(posted.status, posted.text).toBe(201);
    await mailsTo(email, 1);
    const id = posted.body.id as number;
    expect(
      await recoveryRequester.request(tenant.tenantId, { id, journeyId: 2, storeId: 1, employeeId: 1, openedAt: new Date().toISOString() }),
    ).toBe('scheduled');
    const mail = (await mailsTo(email, 2)).find((m) => m.subject.endsWith('resolvemos?'))!;

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await context.newPage();
    await page.setContent(mail.body.html);
    await page.getByRole('link', { name: 'Sim' }).click();
    await page.waitForURL(/\/s\/[\w-]{44}\?solved=yes$/);
    expect(await page.getByRole('radio', { name: 'Sim' }).isChecked()).toBe(true);
    expect(await axe(page, { serious: true })).toEqual([]);
    await page.getByRole('radio', { name: '5', exact: true }).check();
    await screenshot(page, 'recovery-page-390x844');
    await page.getByRole('button', { name: 'Enviar resposta' }).click();
    await page.getByRole('heading', { name: 'Obrigado!' }).waitFor();
    expect(await page.textContent('body')).toContain('Que bom que resolvemos!');
    expect(await axe(page, { serious: true })).toEqual([]);
    await context.close();
  });
});
