import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { digestDays } from '../../shared/digest/figures.js';
import { nextRunAt } from '../../shared/digest/sending.js';
import { dueTimerKey } from '../../shared/adapters/due-timers.js';
import { minuteOf } from '../../shared/timers/timers.js';
import { answerTally, merge, sentTally } from '../../shared/results/tally.js';
import { overHttp } from '../support/api.js';
import { emailsTo, until, type Mail } from '../support/mailbox.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, signIn, watched } from '../support/workspace.js';
import { APP_ADMIN_USERS_PATH, APP_DIGEST_PATH } from '../../shared/session/paths.js';
import { keys } from '../../shared/keys.js';
import { registerSale } from '../support/sales.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * Digests through the local stack (issue 48): POST /public/admin/digests puts one e-mail per opted-in e-mail user in
 * the mailbox, in the tenant's language (es), and posting again sends none; a scheduled run handled several times at
 * once sends once; GET /public/digest answers what GET /public/results answers for the same period and scope; the
 * e-mail is drawn at 390 and 700 px in chromium without horizontal scrolling.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const sesUrl = inject('sesUrl');
const publicUrl = inject('publicUrl');
const ZONE = 'America/Sao_Paulo';
let tenant: TestTenant;
let browser: Browser;
let createdAt: Date;
const stamp = Date.now();
const [ANA, BIA, CAIO] = [`ana-${stamp}@example.com`, `bia-${stamp}@example.com`, `caio-${stamp}@example.com`] as const;

const mails = (to: string) => emailsTo<Mail & { subject: string; headers: { name: string; value: string }[] }>(sesUrl, to);

/** Answers of journey loja counted on `day` (the same tally the answer path writes), one transaction id each. */
async function answered(day: string, storeId: number, employeeId: number, scores: number[]) {
  for (const [i, score] of scores.entries()) {
    const where = { journeyId: 1, storeId, employeeId };
    const deltas = merge([
      ...sentTally(where, new Date(`${day}T12:00:00Z`)),
      ...answerTally(where, { indicator: 'nps', score, items: [], answeredAt: `${day}T13:00:00Z`, sentOn: day }),
    ]);
    const items = counterUpdates(tenant.tenantId, { journeyId: 1, deltas }, 1000 + i);
    await db().client.send(new TransactWriteCommand({ TransactItems: items }));
  }
}

/** The document's width as laid out: more than the viewport means a horizontal scroll. */
const scrollWidth = () =>
  (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;

const user = (token: string) => ({ 'x-service-user-token': token });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** A user's choice of digest, as the users API answers it. */
const digestOf = async (name: string) =>
  (await api({ path: '/public/admin/users', key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === name).digest;

beforeAll(async () => {
  createdAt = new Date();
  tenant = await newTenant();
  await Promise.all([
    putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'resumen@demo.local', name: 'Resumen Demo' } }),
    putSettings(tenant.tenantId, { ...DEMO_SETTINGS, locale: 'es', timeZone: ZONE }),
    tenantService.createUser(tenant.tenantId, { name: ANA, scope: 'all' }),
    tenantService.createUser(tenant.tenantId, { name: BIA, scope: { stores: [1], groups: [1] } }),
    tenantService.createUser(tenant.tenantId, { name: CAIO, scope: 'all' }),
  ]);
  const days = digestDays('week', new Date(), ZONE);
  await answered(days.from, 1, 1, [10, 9, 9, 6, 10, 8]);
  await answered(days.to, 2, 1, [3, 9]);
  await answered(days.previous.from, 1, 1, [6, 5, 9]);
  if (hasChromium) browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('digests through the local stack', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('e-mails each opted-in e-mail user once in the tenant language, however often it is posted', async () => {
    const off = await api({ method: 'PATCH', path: `/public/admin/users/${CAIO}`, key: tenant.adminKey, body: { digest: 'off' } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.digest).toBe('off');

    const posted = await api({ method: 'POST', path: '/public/admin/digests', key: tenant.adminKey, body: { period: 'week' } });
    expect(posted.status, posted.text).toBe(202);
    // Ana and Bia: the tokens' users `full` and `limited` have no e-mail address, Caio opted out.
    expect(posted.body).toEqual({ queued: 2 });
    const [ana] = await until(async () => ((await mails(ANA)).length ? mails(ANA) : undefined), 'the digest to Ana');
    const [bia] = await until(async () => ((await mails(BIA)).length ? mails(BIA) : undefined), 'the digest to Bia');
    expect(ana!.subject).toContain('Resumen semanal');
    expect(ana!.body.text).toContain('Loja');
    expect(ana!.body.text).toContain('/app/digest?period=week');
    expect(bia!.subject).toContain('Resumen semanal');

    // Posted twice more at once: every message is a duplicate of a digest claimed and sent.
    const again = await Promise.all(
      [1, 2].map(() => api({ method: 'POST', path: '/public/admin/digests', key: tenant.adminKey, body: { period: 'week' } })),
    );
    expect(again.map((r) => r.status)).toEqual([202, 202]);
    // The scheduled run, delivered three times at once, fans out the same digests again (and parks the next run).
    const days = digestDays('week', new Date(), ZONE);
    const run = { version: 1 as const, tenantId: tenant.tenantId, period: 'week' as const, from: days.from };
    expect(await Promise.all([1, 2, 3].map(() => digestSending.handle(run)))).toEqual(['queued', 'queued', 'queued']);
    // Each user's message handled at once by several consumers: one sends, the others find it claimed.
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => digestSending.handle({ ...run, user: ANA })));
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect((await mails(CAIO)).length).toBe(0);

    // Bia chooses a daily digest: none while the tenant has them off.
    const daily = await api({ method: 'PATCH', path: `/public/admin/users/${BIA}`, key: tenant.adminKey, body: { digest: 'daily' } });
    expect(daily.status, daily.text).toBe(200);
    const day = { ...run, period: 'day' as const, from: digestDays('day', new Date(), ZONE).from, user: BIA };
    expect(await digestSending.handle(day)).toBe('nobody');
    // The tenant turns them on in its configuration: five consumers at once, one e-mail.
    const config = await api({ path: '/public/admin/config', key: tenant.adminKey });
    expect(config.body.digests).toEqual({ daily: false });
    const on = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...config.body, digests: { daily: true } },
      headers: { 'if-match': config.headers.etag! },
    });
    expect(on.status, on.text).toBe(200);
    const sent = await Promise.all([1, 2, 3, 4, 5].map(() => digestSending.handle(day)));
    expect(sent.filter((o) => o === 'sent')).toHaveLength(1);
    expect(sent.filter((o) => o === 'duplicate')).toHaveLength(4);
    await until(async () => ((await mails(BIA)).some((m) => m.subject.includes('Resumen diario')) ? true : undefined), 'the daily digest');
    // By now the queued duplicates have been handled too (the queue is first in, first out enough for this): still one each.
    expect((await mails(ANA)).filter((m) => m.subject.includes('semanal'))).toHaveLength(1);
    expect((await mails(BIA)).filter((m) => m.subject.includes('semanal'))).toHaveLength(1);

    // Ana stops her digests from the e-mail without signing in: the link its RFC 8058 headers name, which names no one.
    expect(ana!.headers).toContainEqual({ name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' });
    const header = ana!.headers.find((h) => h.name === 'List-Unsubscribe')!.value;
    const [, link, token] = /^<(http\S+\/d\/([\w-]{28})\/unsubscribe)>$/.exec(header)!;
    expect(ana!.body.text).toContain(link);
    const confirm = await api({ path: `/d/${token}/unsubscribe` });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Detener los resúmenes');
    expect(await digestOf(ANA)).toBe('weekly');
    const stopped = await api({ method: 'POST', path: `/d/${token}/unsubscribe`, body: 'List-Unsubscribe=One-Click', headers: FORM });
    expect(stopped.status, stopped.text).toBe(200);
    expect([await digestOf(ANA), await digestOf(BIA)]).toEqual(['off', 'daily']);
    expect((await api({ method: 'POST', path: `/d/${token!.slice(0, -2)}xy/unsubscribe`, headers: FORM })).status).toBe(404);
  });

  it("parks a new tenant's first scheduled run at its creation, the next 08:00 in its zone", async () => {
    // Prepare: the tenant's creation (beforeAll) parked the run, in the default zone, São Paulo.
    const dueAt = nextRunAt(new Date(createdAt.getTime() + 16 * 60_000), ZONE);
    const message = { version: 1 as const, tenantId: tenant.tenantId, period: 'day' as const, from: digestDays('day', dueAt, ZONE).from };
    // Act
    const { Item } = await db().client.send(
      new GetCommand({
        TableName: db().tableName,
        Key: dueTimerKey(minuteOf(dueAt), 'digest', { ...message, dueAt: dueAt.toISOString() }),
      }),
    );
    // Assess
    expect(Item?.message).toEqual({ ...message, dueAt: dueAt.toISOString() });
  });

  it.skipIf(!hasChromium)("lets a manager choose their own digest on the workspace's digest page, on a phone and a desktop", async () => {
    // Prepare: a manager of every store, signed in with their own password; the page speaks the tenant's Spanish.
    const email = `gerente-${stamp}@example.com`;
    const password = 'Digest-browser-pass1!';
    await inviteManagerOf(tenant.tenantId, email, 'all', { password });
    for (const [viewport, label, choice] of [
      [{ width: 390, height: 844 }, 'No recibirlo', 'off'],
      [{ width: 1280, height: 900 }, 'Cada mañana (y el semanal los lunes)', 'daily'],
    ] as const) {
      const { context, problems } = await watched(browser, publicUrl, { viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${publicUrl}${APP_DIGEST_PATH}`);
      await signIn(page, email, password);
      await page.waitForURL(`**${APP_DIGEST_PATH}`);
      // Act
      await page.getByLabel(label).check();
      await page.getByRole('button', { name: 'Guardar' }).click();
      await page.waitForURL(`**${APP_DIGEST_PATH}?saved=1`);
      // Assess
      expect(await page.getByRole('status').textContent()).toBe('Opción guardada.');
      expect(await page.getByLabel(label).isChecked()).toBe(true);
      expect(await axe(page), `at ${viewport.width} px`).toEqual([]);
      await screenshot(page, `digest-page-${viewport.width}`);
      expect(await digestOf(email)).toBe(choice);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('answers GET /public/digest with the figures GET /public/results answers for the same period and scope', async () => {
    for (const token of [tenant.userToken, tenant.limitedToken]) {
      const digest = await api({ path: '/public/digest', key: tenant.key, headers: user(token), query: { period: 'week' } });
      expect(digest.status, digest.text).toBe(200);
      const loja = digest.body.journeys.find((j: { journey: { slug: string } }) => j.journey.slug === 'loja');
      const results = async (from: string, to: string) =>
        (
          await api({
            path: '/public/results',
            key: tenant.key,
            headers: user(token),
            query: { journey: 'loja', from, to, group_by: 'journey' },
          })
        ).body.data[0];
      const [week, before] = await Promise.all([
        results(digest.body.from, digest.body.to),
        results(digest.body.previous.from, digest.body.previous.to),
      ]);
      expect(loja).toMatchObject({
        score: week.nps.score,
        ci95: week.nps.ci95,
        previous_score: before.nps.score,
        responses: week.responses,
        sent: week.sent,
        response_rate: week.response_rate,
      });
    }
    const limited = await api({ path: '/public/digest', key: tenant.key, headers: user(tenant.limitedToken), query: { store: 2 } });
    expect(limited.status).toBe(404);
    const wrong = await api({ path: '/public/digest', key: tenant.key, headers: user(tenant.userToken), query: { period: 'month' } });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('period');
  });

  it.skipIf(!hasChromium)('is drawn at 390 and 700 px without horizontal scrolling', async () => {
    const [mail] = await mails(ANA);
    for (const width of [390, 700]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.setContent(mail!.body.html);
      const scroll = await page.evaluate(scrollWidth);
      expect(scroll, `at ${width} px`).toBeLessThanOrEqual(width);
      await screenshot(page, `digest-${width}`);
      await page.close();
    }
  });

  it.skipIf(!hasChromium)('names the top themes among detractors with a redacted example, drawn at 390 and 700 px', async () => {
    // Prepare: two detractors' comments on the wait in store 1 today, analysed by the stack's own analysis queue.
    for (const comment of ['A fila estava enorme, esperei 40 minutos, me liguem no 11 98765-4321', 'Fila enorme no caixa de novo']) {
      const id = await registerSale(api, tenant.key, { store_id: 1, phone: '11987654321' });
      const answer = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment };
      expect((await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer })).status).toBe(201);
      await until(async () => {
        const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, id) }));
        return Item?.analysis;
      }, 'the analysis of the answer');
    }
    // Act: Bia's daily digest (she chose it, the tenant turned it on) of today's answers, by their UTC day.
    const today = new Date().toISOString().slice(0, 10);
    const run = { version: 1 as const, tenantId: tenant.tenantId, period: 'day' as const, from: today, user: BIA };
    expect(await digestSending.handle(run)).toBe('sent');
    const mail = await until(
      async () => (await mails(BIA)).find((m) => m.body.text.includes('menciones negativas')),
      'the digest with themes',
    );
    // Assess: the theme, its count, its newest example without the phone; in the text part too.
    for (const part of [mail.body.text, mail.body.html]) {
      expect(part).toMatch(/2 menciones negativas/);
      expect(part).toContain('Por ejemplo: «Fila enorme no caixa de novo»');
      expect(part).not.toContain('98765');
    }
    for (const width of [390, 700]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.setContent(mail.body.html);
      expect(await page.evaluate(scrollWidth), `at ${width} px`).toBeLessThanOrEqual(width);
      await screenshot(page, `digest-themes-${width}`);
      await page.close();
    }
  });

  it.skipIf(!hasChromium)("sets a user's digest on the users admin page, on a phone and a desktop", async () => {
    // Prepare: a tenant admin signed in with their own password; the page speaks the tenant's Spanish.
    const admin = `admin-${stamp}@example.com`;
    const password = 'Digest-admin-pass1!';
    await inviteManagerOf(tenant.tenantId, admin, 'all', { password, role: 'admin' });
    for (const [viewport, label, choice] of [
      [{ width: 390, height: 844 }, 'Ninguno', 'off'],
      [{ width: 1280, height: 900 }, 'Diario (y el semanal)', 'daily'],
    ] as const) {
      const { context, problems } = await watched(browser, publicUrl, { viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${publicUrl}${APP_ADMIN_USERS_PATH}`);
      await signIn(page, admin, password);
      await page.waitForURL(`**${APP_ADMIN_USERS_PATH}`);
      // Act: Caio's select, then its button.
      const card = page.locator('li.user', { has: page.getByRole('heading', { name: CAIO }) });
      await card.getByLabel('Resumen por correo').selectOption({ label });
      await card.getByRole('button', { name: `Guardar el resumen ${CAIO}` }).click();
      await page.waitForURL(`**${APP_ADMIN_USERS_PATH}?done=changed`);
      // Assess
      expect(await digestOf(CAIO)).toBe(choice);
      expect(
        await page
          .locator('li.user', { has: page.getByRole('heading', { name: CAIO }) })
          .getByLabel('Resumen por correo')
          .inputValue(),
      ).toBe(choice);
      expect(await axe(page), `at ${viewport.width} px`).toEqual([]);
      await screenshot(page, `digest-users-${viewport.width}`);
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
