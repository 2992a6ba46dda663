import { describe, expect, it } from 'vitest';
import { ConcurrentEditError, NotFoundError } from '../../shared/errors.js';
import {
  pageTransactionOf,
  submitSurvey,
  showSurvey,
  unsubscribe,
  type PagePorts,
  type PageTransaction,
} from '../../shared/surveys/answer-page.js';
import { answered } from './cases/world.js';
import { isGsm7, recoveryEmail, SMS_MAX, surveyEmail, surveySms } from '../../shared/surveys/compose.js';
import { AttemptBusy, deliverSurvey } from '../../shared/surveys/delivery.js';
import { mailbox } from '../../shared/mailbox.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { readSurveyLink, signSurveyLink, type SurveyLink } from '../../shared/surveys/link.js';
import {
  DeliveryRefused,
  type AttemptKey,
  type Claim,
  type ClaimLease,
  type ClaimedAttempt,
  type DeliveryPorts,
  type Senders,
} from '../../shared/surveys/ports.js';
import type { SurveyBody } from '../../shared/surveys/answer-schema.js';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { CHATBOT_ENDPOINT, eventEndpoint, webhookSecret } from '../../shared/events/signature.js';
import type { Settings } from '../../shared/tenants/config-schema.js';

/** Survey delivery and the survey page against in-memory ports: no table, no provider, no Java. */

const SECRET = 'unit-survey-secret';
const NOW = new Date('2026-11-22T12:00:00Z');
const BASE = 'https://surveys.example.com';

const settings: Settings = {
  journeys: [
    {
      id: 1,
      slug: 'loja',
      indicator: 'nps',
      classes: [1],
      channels: ['whatsapp', 'email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
    },
    {
      id: 3,
      slug: 'atendimento',
      indicator: 'nps',
      classes: [],
      channels: ['whatsapp'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: ['whatsapp'],
    },
  ],
  classes: [{ id: 1, label: 'Atendimento', type: 'csat' }],
  groups: [],
  delivery: {
    email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' },
    sms: { originationIdentity: '+5511900000001' },
    whatsapp: { phoneNumberId: 'pn-1', template: 'pesquisa', language: 'pt_BR' },
    chatbot: { url: 'https://bot.example.com/hook' },
  },
};

// ---- Links -------------------------------------------------------------------------------------------------------

describe('survey links', () => {
  const link: SurveyLink = { tenantId: 7, transactionId: 2 ** 48 - 1, attemptId: 3, channel: 'sms', expiresAt: 1_800_000_000 };

  it('are 44 URL-safe characters that name the attempt and nothing personal', () => {
    const token = signSurveyLink(link, SECRET);
    expect(token).toMatch(/^[\w-]{44}$/);
    expect(readSurveyLink(token, SECRET, NOW)).toEqual({ status: 'valid', link });
  });

  it('are unknown when tampered with, signed by another secret, or malformed', () => {
    const token = signSurveyLink(link, SECRET);
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    expect(readSurveyLink(flipped, SECRET, NOW).status).toBe('unknown');
    expect(readSurveyLink(token, 'another-secret', NOW).status).toBe('unknown');
    expect(readSurveyLink(`${token}x`, SECRET, NOW).status).toBe('unknown');
    expect(readSurveyLink('../../etc/passwd', SECRET, NOW).status).toBe('unknown');
    // Another tenant's link cannot be turned into this tenant's: the tag covers the tenant.
    const other = signSurveyLink({ ...link, tenantId: 8 }, SECRET);
    expect(other.slice(0, 10)).not.toBe(token.slice(0, 10));
  });

  it('expire at their time', () => {
    const token = signSurveyLink({ ...link, expiresAt: Math.floor(NOW.getTime() / 1000) }, SECRET);
    expect(readSurveyLink(token, SECRET, new Date(NOW.getTime() - 1000)).status).toBe('valid');
    expect(readSurveyLink(token, SECRET, NOW).status).toBe('expired');
  });
});

// ---- Messages ----------------------------------------------------------------------------------------------------

/** What Outlook for Windows reads of an e-mail (its conditional comments opened, the others' part dropped). */
const outlook = (mail: string) =>
  mail.replace(/<!--\[if !mso\]><!-->[\s\S]*?<!--<!\[endif\]-->/g, '').replace(/<!--\[if mso\]>|<!\[endif\]-->/g, '');
/** What every other mail client reads of it. */
const others = (mail: string) => mail.replace(/<!--\[if mso\]>[\s\S]*?<!\[endif\]-->/g, '');

describe('survey messages', () => {
  it('fit an SMS in one GSM-7 segment with the whole link, however long the store name', () => {
    const link = `${BASE}/s/${'A'.repeat(44)}`;
    for (const store of ['Padaria São João', 'Loja 😀 Emoji', 'X'.repeat(300), '']) {
      const text = surveySms({ company: store, link, locale: 'pt-BR' });
      expect(text.length, store).toBeLessThanOrEqual(SMS_MAX);
      expect(isGsm7(text), store).toBe(true);
      expect(text).toContain(link);
    }
    expect(surveySms({ company: 'Padaria São João', link, locale: 'pt-BR' })).toContain('Padaria Sao Joao');
  });

  it('e-mail: greets by first name, names the store, one button per score preselecting it, text part and unsubscribe link', () => {
    const mail = surveyEmail({
      customerName: 'Maria <b>Silva</b>',
      brand: { name: 'Loja & Cia' },
      journey: { indicator: 'nps' },
      locale: 'pt-BR',
      link: `${BASE}/s/tok`,
      unsubscribeLink: `${BASE}/s/tok/unsubscribe`,
    });
    expect(mail.subject).toBe('Como foi sua experiência com Loja & Cia?');
    expect(mail.html).toContain('Olá, Maria!');
    expect(mail.html).toContain('Loja &amp; Cia');
    expect(mail.html).not.toContain('<b>');
    for (let score = 0; score <= 10; score++) expect(mail.html).toContain(`href="${BASE}/s/tok?score=${score}"`);
    expect(mail.html).toContain(`${BASE}/s/tok/unsubscribe`);
    expect(mail.text).toContain(`${BASE}/s/tok`);
    expect(mail.text).toContain('Olá, Maria!');
  });

  it('e-mail: every button is bulletproof, its size and colour on its cell and a VML button for Outlook for Windows', () => {
    // Prepare
    const input = {
      customerName: 'Maria',
      brand: { name: 'Loja', colour: '#0a7d45' },
      locale: 'pt-BR' as const,
      link: `${BASE}/s/tok`,
      unsubscribeLink: `${BASE}/s/tok/unsubscribe`,
    };
    const survey = surveyEmail({ ...input, journey: { indicator: 'nps' } }).html;
    const recovery = recoveryEmail({ ...input, journey: { indicator: 'nps' } }).html;
    const buttons = [
      ...Array.from({ length: 11 }, (_, score) => ({
        mail: survey,
        href: `${BASE}/s/tok?score=${score}`,
        label: String(score),
        width: 44,
      })),
      { mail: recovery, href: `${BASE}/s/tok?solved=yes`, label: 'Sim', width: 88 },
      { mail: recovery, href: `${BASE}/s/tok?solved=no`, label: 'Não', width: 88 },
    ];
    // Assess
    for (const { mail, href, label, width } of buttons) {
      const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const vml = new RegExp(
        `<v:roundrect [^>]*href="${esc(href)}" style="height:44px;v-text-anchor:middle;width:${width}px" arcsize="14%" stroke="f" fillcolor="#0a7d45"><w:anchorlock/><center [^>]*>${esc(label)}</center></v:roundrect>`,
      );
      expect(outlook(mail), href).toMatch(vml);
      expect(outlook(mail), href).not.toContain(`<a href="${href}"`);
      const cell = new RegExp(
        `<td align="center" valign="middle" width="${width}" height="44" bgcolor="#0a7d45" style="width:${width}px;height:44px;[^"]*background:#0a7d45"><a href="${esc(href)}" style="display:block;width:${width}px;line-height:44px;[^"]*"[^>]*>${esc(label)}</a></td>`,
      );
      expect(others(mail), href).toMatch(cell);
      expect(others(mail), href).not.toContain('v:roundrect');
    }
    // No button leans on a link's own size, which Outlook ignores.
    expect(survey + recovery).not.toMatch(/<a [^>]*(min-width|inline-block;min)/);
  });

  it('e-mail: Outlook for Windows reads the column in a fixed table as wide as its max-width elsewhere (a ghost table)', () => {
    // Prepare
    const input = {
      customerName: 'Maria',
      brand: { name: 'Loja', colour: '#0a7d45' },
      locale: 'pt-BR' as const,
      journey: { indicator: 'nps' as const },
      link: `${BASE}/s/tok`,
      unsubscribeLink: `${BASE}/s/tok/unsubscribe`,
    };
    for (const mail of [surveyEmail(input).html, recoveryEmail(input).html]) {
      // Act: the column's width for the other clients, and the table Outlook reads around it.
      const width = /<table role="presentation" width="100%" [^>]*style="max-width:(\d+)px;/.exec(others(mail))?.[1];
      const ghost = new RegExp(
        `<table role="presentation" width="${width}" cellpadding="0" cellspacing="0" align="center"><tr><td width="${width}">\\n(<table role="presentation" width="100%" [^>]*max-width:${width}px[\\s\\S]*?</table>)\\n</td></tr></table>`,
      ).exec(outlook(mail));
      // Assess: 560 px, everything the customer reads inside it, from the company's name to the unsubscribe link.
      expect(width).toBe('560');
      expect(ghost, 'the ghost table around the column').not.toBeNull();
      expect(ghost![1]).toContain('>Loja</td>');
      expect(ghost![1]).toContain(`href="${BASE}/s/tok/unsubscribe"`);
      expect(others(mail)).not.toContain(`width="${width}"`);
    }
  });

  it('never greets by a contact: a customer created without a name is named by its phone, e-mail or cpf', () => {
    for (const customerName of ['+5511987650000', 'maria@example.com', '123.456.789-09']) {
      const mail = surveyEmail({
        customerName,
        brand: { name: 'Loja' },
        journey: { indicator: 'nps' },
        locale: 'pt-BR',
        link: `${BASE}/s/tok`,
        unsubscribeLink: `${BASE}/s/tok/unsubscribe`,
      });
      expect(mail.html).not.toContain(customerName);
      expect(mail.text).not.toContain(customerName);
    }
  });

  it('writes a display name outside ASCII as a MIME encoded-word', () => {
    expect(mailbox('a@b.c', 'Loja Exemplo')).toBe('"Loja Exemplo" <a@b.c>');
    expect(mailbox('a@b.c', 'Padaria São João')).toBe(`=?UTF-8?B?${Buffer.from('Padaria São João').toString('base64')}?= <a@b.c>`);
    expect(mailbox('a@b.c', undefined)).toBe('a@b.c');
  });
});

// ---- Delivery ----------------------------------------------------------------------------------------------------

interface Stored {
  status: 'scheduled' | 'sent' | 'answered' | 'failed';
  claimedUntil?: number;
  messageId?: string;
  reason?: string;
  /** The registration instant whose day the analytics export is told to write again. */
  analyticsMark?: string | undefined;
}

/** In-memory ports that behave as the DynamoDB attempt store does: a claim is a conditional write. */
function memoryDelivery(
  attempt: Partial<ClaimedAttempt> = {},
  behaviour: Partial<Record<keyof Senders, () => Promise<{ messageId: string }>>> = {},
) {
  const claimed: ClaimedAttempt = {
    tenantId: 1,
    transactionId: 42,
    attemptId: 1,
    channel: 'email',
    journeyId: 1,
    storeId: 1,
    employeeId: 1,
    customerId: 9,
    contact: 'maria@example.com',
    customerName: 'Maria Silva',
    ...attempt,
  };
  const state: Stored = { status: 'scheduled' };
  const calls: { channel: keyof Senders; message: unknown }[] = [];
  let optedOut = false;
  let erased = false;
  const scheduled: { message: DispatchMessage; dueAt: Date }[] = [];
  const sender =
    (channel: keyof Senders) =>
    async (message: unknown): Promise<{ messageId: string }> => {
      calls.push({ channel, message });
      return behaviour[channel] ? behaviour[channel]() : { messageId: `${channel}-${calls.length}` };
    };
  const ports: DeliveryPorts & { settings: () => Promise<Settings> } = {
    attempts: {
      async claim(key: AttemptKey, { now, leaseSeconds: lease }: ClaimLease): Promise<Claim> {
        if (key.transactionId !== claimed.transactionId || key.attemptId !== claimed.attemptId) return { status: 'missing' };
        if (state.status !== 'scheduled') return { status: 'done' };
        const seconds = now.getTime() / 1000;
        if (state.claimedUntil !== undefined && state.claimedUntil >= seconds) return { status: 'busy' };
        state.claimedUntil = seconds + lease;
        return { status: 'claimed', attempt: claimed };
      },
      async markSent(_key, sent) {
        Object.assign(state, { status: 'sent', messageId: sent.messageId, claimedUntil: undefined, analyticsMark: sent.analyticsMark });
      },
      async markFailed(_key, failure) {
        Object.assign(state, { status: 'failed', reason: failure.reason, claimedUntil: undefined, analyticsMark: failure.analyticsMark });
      },
      async release() {
        state.claimedUntil = undefined;
      },
    },
    reachability: { check: async () => (erased ? 'erased' : optedOut ? 'opted_out' : 'ok') },
    scheduler: {
      schedule: async (message, dueAt) => {
        scheduled.push({ message, dueAt });
      },
    },
    stores: { tradeName: async () => 'Loja Centro' },
    senders: { email: sender('email'), sms: sender('sms'), whatsapp: sender('whatsapp'), webhook: sender('webhook') },
    settings: async () => settings,
  };
  const message: DispatchMessage = {
    version: 1,
    tenantId: 1,
    transactionId: claimed.transactionId,
    attemptId: claimed.attemptId,
    journeyId: claimed.journeyId,
    journey: 'loja',
    channel: claimed.channel,
    createdAt: NOW.toISOString(),
  };
  return {
    ports,
    state,
    calls,
    message,
    scheduled,
    optOut: () => (optedOut = true),
    erase: () => (erased = true),
    deliver: (now = NOW) => deliverSurvey({ message, ports, config: { surveySecret: SECRET, baseUrl: BASE }, now }),
  };
}

describe('survey delivery', () => {
  it("marks its registration's day for the analytics export when sent or failed after that day in the tenant's zone, not on it", async () => {
    // NOW is 09:00 in São Paulo: its day began at 03:00 UTC.
    const dayBegan = '2026-11-22T03:00:00.000Z';
    const onItsDay = memoryDelivery({ registeredAt: dayBegan });
    expect(await onItsDay.deliver()).toBe('sent');
    expect(onItsDay.state.analyticsMark).toBeUndefined();
    const dayBefore = '2026-11-22T02:59:59.999Z';
    const late = memoryDelivery({ registeredAt: dayBefore });
    expect(await late.deliver()).toBe('sent');
    expect(late.state.analyticsMark).toBe(dayBefore);
    const refused = memoryDelivery({ registeredAt: dayBefore });
    refused.optOut();
    expect(await refused.deliver()).toBe('failed');
    expect(refused.state.analyticsMark).toBe(dayBefore);
  });

  it('sends an attempt once, however often its message is delivered', async () => {
    const d = memoryDelivery();
    expect(await d.deliver()).toBe('sent');
    expect(await d.deliver()).toBe('duplicate');
    expect(await d.deliver(new Date(NOW.getTime() + 86_400_000))).toBe('duplicate');
    expect(d.calls).toHaveLength(1);
    expect(d.state).toMatchObject({ status: 'sent', messageId: 'email-1' });
    const email = d.calls[0]!.message as { to: string; from: string; headers: { name: string; value: string }[]; text: string };
    expect(email.to).toBe('maria@example.com');
    expect(email.from).toBe('"Loja Exemplo" <pesquisa@loja.example>');
    expect(email.headers).toContainEqual({ name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' });
    // The link in the e-mail opens this attempt, on this channel, for the journey's validity.
    const token = /\/s\/([\w-]{44})/.exec(email.text)![1]!;
    expect(readSurveyLink(token, SECRET, NOW)).toEqual({
      status: 'valid',
      link: { tenantId: 1, transactionId: 42, attemptId: 1, channel: 'email', expiresAt: NOW.getTime() / 1000 + 7 * 86_400 },
    });
  });

  it("sends nothing once the customer was erased, though the attempt's transaction is not marked yet, and plans nothing more", async () => {
    // A sale that read the customer just before its erasure wrote this transaction after it (issue 29, H1).
    const d = memoryDelivery();
    d.erase();
    expect(await d.deliver()).toBe('missing');
    expect(d.calls).toEqual([]);
    expect(d.scheduled).toEqual([]);
    expect(d.state).toMatchObject({ status: 'scheduled', claimedUntil: undefined });
  });

  it('leaves an attempt another delivery holds, and takes it once that claim has lapsed', async () => {
    const d = memoryDelivery();
    await d.ports.attempts.claim({ tenantId: 1, transactionId: 42, attemptId: 1 }, { now: NOW, leaseSeconds: 120, channel: 'email' });
    await expect(d.deliver()).rejects.toBeInstanceOf(AttemptBusy);
    expect(await d.deliver(new Date(NOW.getTime() + 121_000))).toBe('sent');
    expect(d.calls).toHaveLength(1);
  });

  it('fails for good when the provider refuses the contact, and does not retry', async () => {
    const d = memoryDelivery(
      { channel: 'sms', contact: '+5511900000000' },
      {
        sms: () => Promise.reject(new DeliveryRefused('ValidationException: invalid number')),
      },
    );
    expect(await d.deliver()).toBe('failed');
    expect(d.state).toMatchObject({ status: 'failed', reason: 'refused' });
    expect(await d.deliver()).toBe('duplicate');
  });

  it('gives the claim back when the provider throttles, so that the queue retries at once', async () => {
    let throttle = true;
    const d = memoryDelivery(
      { channel: 'whatsapp', contact: '+5511987654321' },
      {
        whatsapp: async () => {
          if (throttle) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottledRequestException' });
          return { messageId: 'wamid.1' };
        },
      },
    );
    await expect(d.deliver()).rejects.toThrow('Rate exceeded');
    expect(d.state.status).toBe('scheduled');
    throttle = false;
    expect(await d.deliver()).toBe('sent');
    const sent = d.calls.at(-1)!.message as { parameters: string[]; template: string; language: string };
    expect(sent).toMatchObject({ template: 'pesquisa', language: 'pt_BR' });
    expect(sent.parameters.slice(0, 2)).toEqual(['Maria', 'Loja Centro']);
    expect(sent.parameters[2]).toMatch(/^https:\/\/surveys\.example\.com\/s\/[\w-]{44}$/);
  });

  it('does not send to a customer who opted out after the transaction', async () => {
    const d = memoryDelivery();
    d.optOut();
    expect(await d.deliver()).toBe('failed');
    expect(d.state).toMatchObject({ status: 'failed', reason: 'opted_out' });
    expect(d.calls).toHaveLength(0);
  });

  it("hands a journey's whatsapp attempt to the tenant's chatbot, signed (Standard Webhooks) with the hand-off's own secret", async () => {
    const d = memoryDelivery({ channel: 'whatsapp', journeyId: 3, contact: '+5511987654321' });
    // Sent now: the receiver refuses a timestamp more than 5 minutes from its clock. Without quiet hours, so that the
    // test passes at any hour (from 21:00 in São Paulo the default quiet hours would hold the WhatsApp attempt).
    settings.delivery.quietHours = null;
    try {
      expect(await d.deliver(new Date())).toBe('sent');
    } finally {
      delete settings.delivery.quietHours;
    }
    const hook = d.calls[0]!.message as { url: string; body: string; headers: Record<string, string> };
    expect(d.calls[0]!.channel).toBe('webhook');
    expect(hook.url).toBe('https://bot.example.com/hook');
    expect(JSON.parse(hook.body)).toEqual({
      transactionId: 42,
      attemptId: 1,
      journey: 'atendimento',
      source: 'whatsapp',
      customerFirstName: 'Maria',
      phone: '+5511987654321',
    });
    expect(hook.headers['webhook-id']).toBe('attempt_1_42_1');
    // Verified as a receiver would, with the Standard Webhooks library.
    expect(
      new Webhook(webhookSecret({ rootSecret: SECRET, tenantId: 1, endpoint: CHATBOT_ENDPOINT, generation: 1 })).verify(
        hook.body,
        hook.headers,
      ),
    ).toMatchObject({ transactionId: 42 });
    // The secret of one of the tenant's event endpoints cannot forge a hand-off.
    const eventSecret = webhookSecret({
      rootSecret: SECRET,
      tenantId: 1,
      endpoint: eventEndpoint('https://bot.example.com/hook'),
      generation: 1,
    });
    expect(() => new Webhook(eventSecret).verify(hook.body, hook.headers)).toThrow(WebhookVerificationError);
  });

  it('fails an attempt whose channel the tenant has not configured, naming what is missing', async () => {
    const d = memoryDelivery({ channel: 'ura', contact: '+5511987654321' });
    expect(await d.deliver()).toBe('failed');
    expect(d.state).toMatchObject({ status: 'failed', reason: 'not_configured' });
  });
});

// ---- The survey page ---------------------------------------------------------------------------------------------

function memoryPage(transaction: Partial<PageTransaction> = {}) {
  const tx: PageTransaction = {
    id: 42,
    journeyId: 1,
    journeySlug: 'loja',
    storeId: 1,
    customerId: 9,
    customerName: 'Maria Silva',
    attemptId: 1,
    status: 'sent',
    erased: false,
    locale: 'pt-BR',
    score: null,
    ...transaction,
  };
  const answers: SurveyBody[] = [];
  const optedOut: number[] = [];
  const ports: PagePorts = {
    transaction: async (tenantId, id) => (tenantId === 1 && id === tx.id ? tx : undefined),
    settings: async () => settings,
    brand: async () => ({ name: 'Loja Centro' }),
    answer: async (_tenantId, body) => {
      if (tx.status === 'answered') throw new ConcurrentEditError('answered');
      answers.push(body);
      tx.status = 'answered';
      return body;
    },
    optOut: async (_tenantId, customerId) => {
      optedOut.push(customerId);
    },
  };
  const token = (link: Partial<SurveyLink> = {}) =>
    signSurveyLink(
      { tenantId: 1, transactionId: 42, attemptId: 1, channel: 'email', expiresAt: NOW.getTime() / 1000 + 86_400, ...link },
      SECRET,
    );
  return { ports, answers, optedOut, token, tx };
}

describe('the survey page', () => {
  it("reads the transaction's record for the answer, and writes none of the customer's contacts when serialised", () => {
    const record = { ...answered(41, 9, null), surveyContacts: { phone: '+5511987654321', email: 'ana@example.com' } };

    const read = pageTransactionOf(41, record);

    // What a log line of it would write (Powertools' logger serialises with JSON.stringify).
    expect(JSON.stringify(read)).not.toMatch(/987654321|ana@example\.com/);
    expect(read).toMatchObject({ id: 41, customerId: 9, customerName: 'Ana Souza', storeId: 3, score: 9 });
    expect(read.record?.()).toBe(record);
  });

  it('shows the form with the score of the link chosen, and records nothing', async () => {
    const p = memoryPage();
    const page = await showSurvey({ token: p.token(), score: '9', ports: p.ports, secret: SECRET, now: NOW });
    expect(page.status).toBe(200);
    expect(page.html).toContain('Loja Centro');
    expect(page.html).toMatch(/name="score" value="9"[^>]* checked/);
    expect(page.html).toContain('name="class_1"');
    expect(page.html).toContain('maxlength="1000"');
    expect(p.answers).toHaveLength(0);
    // A score off the scale is not chosen.
    expect((await showSurvey({ token: p.token(), score: '11', ports: p.ports, secret: SECRET, now: NOW })).html).not.toMatch(
      / checked[ >]/,
    );
  });

  it('greets by first name, and never by the phone a customer without a name is named by (a link may be forwarded)', async () => {
    const named = memoryPage();
    expect((await showSurvey({ token: named.token(), score: undefined, ports: named.ports, secret: SECRET, now: NOW })).html).toContain(
      'Maria, sua opinião importa',
    );
    const unnamed = memoryPage({ customerName: '+5511987650000' });
    const html = (await showSurvey({ token: unnamed.token(), score: undefined, ports: unnamed.ports, secret: SECRET, now: NOW })).html;
    expect(html).toContain('Sua opinião importa');
    expect(html).not.toContain('987650000');
  });

  it("records the form through the one answer path, with the attempt's channel as source, then 303", async () => {
    const p = memoryPage();
    const form = new URLSearchParams({ score: '9', class_1: '5', comment: 'Ótimo atendimento' });
    const page = await submitSurvey({ token: p.token(), form, ports: p.ports, secret: SECRET, now: NOW });
    expect(page).toMatchObject({ status: 303, location: p.token() });
    expect(p.answers).toEqual([
      {
        transactionId: 42,
        attemptId: 1,
        journey: 'loja',
        score: 9,
        classes: [{ classId: 1, label: 'Atendimento', type: 'csat', score: 5 }],
        comment: 'Ótimo atendimento',
        source: 'email',
      },
    ]);
    expect((await submitSurvey({ token: p.token(), form, ports: p.ports, secret: SECRET, now: NOW })).status).toBe(409);
    expect((await showSurvey({ token: p.token(), score: undefined, ports: p.ports, secret: SECRET, now: NOW })).html).toContain('Obrigado');
  });

  it("thanks in the words of the main score's bucket: the journey's own in the survey's language, else the built-in ones", async () => {
    const detractor = memoryPage();
    const posted = await submitSurvey({
      token: detractor.token(),
      form: new URLSearchParams({ score: '3' }),
      ports: detractor.ports,
      secret: SECRET,
      now: NOW,
    });
    expect(posted.status).toBe(303);
    expect(posted.html).toContain('Sentimos muito que a experiência não tenha sido boa: Loja Centro vai ler o que você contou.');
    const answered = memoryPage({ status: 'answered', score: 10, locale: 'en' });
    expect(
      (await showSurvey({ token: answered.token(), score: undefined, ports: answered.ports, secret: SECRET, now: NOW })).html,
    ).toContain('We are glad you enjoyed Loja Centro!');
    settings.journeys[0]!.thanks = { promoter: { en: 'Thanks, see you soon at {company}!' } };
    try {
      const own = await showSurvey({ token: answered.token(), score: undefined, ports: answered.ports, secret: SECRET, now: NOW });
      expect(own.html).toContain('Thanks, see you soon at Loja Centro!');
      expect(own.html).toContain('<html lang="en">');
    } finally {
      delete settings.journeys[0]!.thanks;
    }
  });

  it('answers 400 with the form and the problem for a missing, out-of-scale or unknown field, and records nothing', async () => {
    const p = memoryPage();
    const cases: [Record<string, string>, string][] = [
      [{}, 'Escolha uma nota.'],
      [{ score: '11' }, 'A nota deve ser de 0 a 10.'],
      [{ score: 'x' }, 'A nota deve ser de 0 a 10.'],
      [{ score: '9', class_1: '6' }, 'A nota de &quot;Atendimento&quot; deve ser de 1 a 5.'],
      [{ score: '9', class_2: '3' }, 'A pergunta 2 não faz parte desta pesquisa.'],
      [{ score: '9', admin: '1' }, 'O campo &quot;admin&quot; não faz parte desta pesquisa.'],
      [{ score: '9', comment: 'a'.repeat(1001) }, 'O comentário pode ter até 1.000 caracteres.'],
    ];
    for (const [fields, problem] of cases) {
      const page = await submitSurvey({ token: p.token(), form: new URLSearchParams(fields), ports: p.ports, secret: SECRET, now: NOW });
      expect(page.status, JSON.stringify(fields)).toBe(400);
      expect(page.html, JSON.stringify(fields)).toContain(problem);
      expect(page.html).toContain('<form');
    }
    expect(p.answers).toHaveLength(0);
  });

  it('answers 410 when the customer was erased: before the page opened, or while the form was filled in', async () => {
    const erased = memoryPage({ erased: true });
    expect((await showSurvey({ token: erased.token(), score: undefined, ports: erased.ports, secret: SECRET, now: NOW })).status).toBe(410);
    expect(
      (await submitSurvey({ token: erased.token(), form: new URLSearchParams('score=9'), ports: erased.ports, secret: SECRET, now: NOW }))
        .status,
    ).toBe(410);
    expect(erased.answers).toEqual([]);

    const racing = memoryPage();
    racing.ports.answer = async () => {
      throw new NotFoundError('No such survey attempt for this journey.');
    };
    const page = await submitSurvey({
      token: racing.token(),
      form: new URLSearchParams('score=9'),
      ports: racing.ports,
      secret: SECRET,
      now: NOW,
    });
    expect(page.status).toBe(410);
    expect(page.html).toContain('Pesquisa encerrada');
  });

  it("answers 404 for a tampered token, another attempt's or another tenant's, and 410 once expired", async () => {
    const p = memoryPage();
    const form = new URLSearchParams({ score: '9' });
    expect(
      (
        await showSurvey({
          token: p.token().replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
          score: undefined,
          ports: p.ports,
          secret: SECRET,
          now: NOW,
        })
      ).status,
    ).toBe(404);
    expect(
      (await showSurvey({ token: p.token({ attemptId: 2 }), score: undefined, ports: p.ports, secret: SECRET, now: NOW })).status,
    ).toBe(404);
    expect((await submitSurvey({ token: p.token({ tenantId: 2 }), form, ports: p.ports, secret: SECRET, now: NOW })).status).toBe(404);
    const expired = p.token({ expiresAt: NOW.getTime() / 1000 - 1 });
    expect((await showSurvey({ token: expired, score: undefined, ports: p.ports, secret: SECRET, now: NOW })).status).toBe(410);
    expect((await submitSurvey({ token: expired, form, ports: p.ports, secret: SECRET, now: NOW })).status).toBe(410);
    expect(p.answers).toHaveLength(0);
  });

  it('opts the customer out from the unsubscribe link, even after the survey expired', async () => {
    const p = memoryPage();
    const expired = p.token({ expiresAt: NOW.getTime() / 1000 - 1 });
    expect((await unsubscribe({ token: expired, ports: p.ports, secret: SECRET, now: NOW })).status).toBe(200);
    expect(p.optedOut).toEqual([9]);
  });
});
