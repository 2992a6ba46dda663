import { maskedAmong } from '../../shared/chat/masked-url.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as chatConsumer } from '../../functions/queue/chat-alerts.js';
import { invoke } from '../../infra/local/invoke.js';
import { caseStore } from '../../shared/adapters/case-repository.js';
import { chatStatus } from '../../shared/adapters/chat-deliveries.js';
import type { ChatDelivery } from '../../shared/chat/ports.js';
import { tenantEvent } from '../../shared/events/events.js';
import { inProcess } from '../support/api.js';
import { sqsEvent } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { answered, changeConfig } from '../support/regional-digest.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';
import { digestChatDelivery } from '../../shared/digest/chat.js';
import { digestDays } from '../../shared/digest/figures.js';
import { timeZoneOf } from '../../shared/locale.js';
import { tenantSettings } from '../../shared/adapters/wiring/tenants.js';
import { outboxOf } from '../support/mailbox.js';

/**
 * Case alerts in Slack and Teams through the local stack: the tenant's chat endpoints set through the admin API and
 * pointed at the local outbox; a detractor's answer on journey loja goes the whole way (case queue, case opener, chat
 * queue, chat consumer: the stack's own pollers) to the outbox. Then the chat consumer invoked here: a redelivery of
 * a sent message, and a second 410 of an endpoint that marks it broken.
 */
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const outboxUrl = inject('outboxUrl');
let tenant: TestTenant;
const url = (name: string, query = '') => `${outboxUrl}/chat/${tenant.tenantId}-${name}${query}`;
const endpoints = () => ({
  slack: url('slack'),
  teams: url('teams'),
  comment: url('comment'),
  store2: url('store2'),
  gone: url('gone', '?status=410'),
  digestSlack: url('digest-slack'),
  digestTeams: url('digest-teams'),
  failing: url('failing', '?status=500'),
});

interface Received {
  channel: string;
  to: string;
  text: string;
}
const chatMessages = async () =>
  (await outboxOf<Received>(outboxUrl)).filter((m) => m.channel === 'chat' && m.to.includes(`/chat/${tenant.tenantId}-`));
const to = (messages: Received[], endpoint: string) =>
  messages.filter((m) => `${outboxUrl}${m.to}` === endpoint).map((m) => JSON.parse(m.text));

/** Waits (a quarter of a second between looks, at most a minute) until `done` holds of the chat messages received. */
async function received(done: (messages: Received[]) => boolean): Promise<Received[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const messages = await chatMessages();
    if (done(messages) || Date.now() > until) return messages;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The URLs of the tenant's chat endpoints, as configured below. */
const configured = () => Object.values(endpoints());

beforeAll(async () => {
  tenant = await newTenant();
  const { slack, teams, comment, store2, gone, digestSlack, digestTeams, failing } = endpoints();
  await changeConfig(api, tenant, (config) => ({
    ...config,
    alerts: {
      chat: [
        { kind: 'slack', url: slack, events: ['case.opened'] },
        { kind: 'teams', url: teams, events: ['case.opened', 'case.overdue'], comment: false },
        { kind: 'slack', url: comment, events: ['case.opened'], comment: true },
        { kind: 'slack', url: store2, events: ['case.opened'], stores: [2] },
        { kind: 'teams', url: gone, events: ['case.opened'] },
        { kind: 'slack', url: digestSlack, events: ['digest'] },
        { kind: 'teams', url: digestTeams, events: ['digest'], stores: [2] },
        { kind: 'slack', url: failing, events: ['score.drop'] },
      ],
    },
  }));
});

describe('case alerts in chat', () => {
  let caseId: number;

  it('sends a Slack message and a Teams card within a minute of a detractor answer in store 1, none to store 2', async () => {
    // Prepare: a sale in store 1 to a customer with an e-mail and a phone.
    caseId = await registerSale(api, tenant.key, { phone: '11987654321', name: 'Bia Lima' });
    const started = Date.now();

    // Act: the customer answers 2 with a comment that holds a cpf.
    const answer = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: {
        transactionId: caseId,
        attemptId: 1,
        journey: 'loja',
        score: 2,
        comment: 'Fila enorme, cpf 123.456.789-09, me liga 11 98765-4321 joao@x.com',
        classes: [],
      },
    });
    expect(answer.status).toBe(201);
    const { slack, teams, comment, store2, gone } = endpoints();
    const messages = await received((m) => [slack, teams, comment, gone].every((e) => to(m, e).length > 0));

    // Assess
    expect(Date.now() - started).toBeLessThan(60_000);
    const [slackMessage] = to(messages, slack);
    expect(slackMessage.text).toMatch(/2/);
    expect(slackMessage.blocks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'header' }),
        {
          type: 'actions',
          elements: [expect.objectContaining({ type: 'button', url: expect.stringMatching(new RegExp(`/app/cases/${caseId}$`)) })],
        },
      ]),
    );
    // The case's short number, to read out on the phone (the tenant's first case: 1), as the API answers it.
    const { number } = (await caseStore.find(tenant.tenantId, caseId))!;
    expect(number).toBe(1);
    expect(slackMessage.blocks).toContainEqual({ type: 'section', text: { type: 'plain_text', text: `Caso nº ${number}` } });
    // No contact, name or (without the opt-in) comment of the customer's.
    expect(JSON.stringify(slackMessage)).not.toMatch(/@example\.com|98765|Bia|Lima|cpf|Fila/);
    // With the opt-in, the comment, without the contact typed in it.
    const withComment = JSON.stringify(to(messages, comment)[0]);
    expect(withComment).toContain('Fila enorme, cpf [cpf], me liga [phone] [email]');
    expect(withComment).not.toMatch(/123\.456|98765|joao/);

    const [card] = to(messages, teams);
    expect(card).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: expect.arrayContaining([{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: 'Caso nº 1' }] }]),
            actions: [{ type: 'Action.OpenUrl', url: expect.stringContaining(`/app/cases/${caseId}`) }],
          },
        },
      ],
    });
    expect(JSON.stringify(card)).not.toMatch(/@example\.com|98765|Bia|Lima|Fila/);
    expect(to(messages, store2)).toEqual([]);
  });

  it('sends nothing twice when the queue delivers a sent message again', async () => {
    const delivery: ChatDelivery = {
      tenantId: tenant.tenantId,
      url: endpoints().slack,
      event: {
        ...tenantEvent(tenant.tenantId, {
          type: 'case.opened',
          subject: String(caseId),
          data: { case_id: caseId, store_id: 1, employee_id: 1, score: 2 },
          at: new Date(),
        }),
        type: 'case.opened',
      },
      attempt: 1,
    };
    const response = await invoke('chatAlerts', chatConsumer, sqsEvent([delivery], { queue: 'ChatQueue', receiveCount: 2 }));
    expect(response.batchItemFailures).toEqual([]);
    expect(to(await chatMessages(), endpoints().slack)).toHaveLength(1);
  });

  it('marks an endpoint that answered 410 twice broken, and lists its failures', async () => {
    const { gone } = endpoints();
    expect((await chatStatus.health(tenant.tenantId, configured())).get(maskedAmong(gone, configured()))).toEqual({
      gone: 1,
      broken: false,
    });
    // Another case's message to the same endpoint.
    const event = tenantEvent(tenant.tenantId, {
      type: 'case.opened',
      subject: String(caseId + 1_000_000),
      data: { case_id: caseId + 1_000_000, store_id: 1, employee_id: 1, score: 1 },
      at: new Date(),
    });
    const response = await invoke(
      'chatAlerts',
      chatConsumer,
      sqsEvent([{ tenantId: tenant.tenantId, url: gone, event, attempt: 1 }], { queue: 'ChatQueue' }),
    );
    expect(response.batchItemFailures).toEqual([]);

    expect((await chatStatus.health(tenant.tenantId, configured())).get(maskedAmong(gone, configured()))).toEqual({
      gone: 2,
      broken: true,
    });
    const failed = await chatStatus.failed(tenant.tenantId, 10, configured());
    // The URL, a credential, masked among the tenant's endpoints' as the configuration reads it.
    const shown = maskedAmong(gone, configured());
    expect(shown).toMatch(/^http:\/\/[^/]+\/…[^/]+$/);
    expect(failed.map((f) => [f.url, f.error, f.next_attempt_at])).toEqual([
      [shown, 'HTTP 410', null],
      [shown, 'HTTP 410', null],
    ]);
  });
});

describe('the digest in chat', () => {
  it("sends each endpoint taking the digest one summary of its stores' week, once however often it is posted", async () => {
    // Prepare: last week's answers, two in store 1 and one in store 2.
    const days = digestDays('week', new Date(), timeZoneOf(await tenantSettings(tenant.tenantId)));
    await answered(tenant.tenantId, days.from, 1, [10, 9]);
    await answered(tenant.tenantId, days.to, 2, [3]);
    const { digestSlack, digestTeams } = endpoints();

    // Act: the admin's post (the digest queue, then the chat queue: the stack's pollers).
    const posted = await api({ method: 'POST', path: '/public/admin/digests', key: tenant.adminKey, body: { period: 'week' } });
    expect(posted.status, posted.text).toBe(202);
    const messages = await received((m) => to(m, digestSlack).length > 0 && to(m, digestTeams).length > 0);

    // Assess: Slack's every store (3 answers), Teams' store 2 only (1 answer), each with the digest page's link.
    const [slack] = to(messages, digestSlack);
    expect(slack.text).toMatch(/\d/);
    expect(slack.blocks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'header' }),
        {
          type: 'actions',
          elements: [
            expect.objectContaining({
              url: expect.stringMatching(/\/app\/digest\?period=week&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/),
            }),
          ],
        },
      ]),
    );
    expect(JSON.stringify(slack)).toMatch(/: 3 ·/);
    const [card] = to(messages, digestTeams);
    expect(card).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            actions: [
              {
                type: 'Action.OpenUrl',
                url: expect.stringMatching(/\/app\/digest\?period=week&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/),
              },
            ],
          },
        },
      ],
    });
    expect(JSON.stringify(card)).toMatch(/: 1 ·/);
    expect(JSON.stringify(card)).not.toMatch(/: 3 ·/);

    // A second run of the period queues each endpoint's message again (the chat queue's claim is what sends it once):
    // handled here, each finds its message claimed.
    const run = { version: 1 as const, tenantId: tenant.tenantId, period: 'week' as const, from: days.from };
    expect(await digestSending.handle({ ...run, chat: digestSlack })).toBe('sent');
    const again = [digestSlack, digestTeams].map((url) =>
      digestChatDelivery(tenant.tenantId, {
        url,
        period: 'week',
        from: days.from,
        digest: { title: 't', lines: [], link: 'l', open: 'o' },
        now: new Date(),
      }),
    );
    const response = await invoke('chatAlerts', chatConsumer, sqsEvent(again, { queue: 'ChatQueue' }));
    expect(response.batchItemFailures).toEqual([]);
    const after = await chatMessages();
    expect([to(after, digestSlack).length, to(after, digestTeams).length]).toEqual([1, 1]);
  });
});

describe('failed chat messages through the API', () => {
  it('lists them to an admin, and re-sends one once, written to the audit log', async () => {
    // Prepare: a score-drop message to an endpoint that answers 500.
    const { failing } = endpoints();
    const event = {
      id: `score-drop-1-${Date.now()}`,
      type: 'score.drop' as const,
      created_at: new Date().toISOString(),
      data: { store_id: 1, title: 'Queda', lines: [], link: 'https://x/app/results', open: 'Ver' },
    };
    const response = await invoke(
      'chatAlerts',
      chatConsumer,
      sqsEvent([{ tenantId: tenant.tenantId, url: failing, event, attempt: 1 }], { queue: 'ChatQueue' }),
    );
    expect(response.batchItemFailures).toEqual([]);

    // Act
    const list = await api({ path: '/public/chat/deliveries', key: tenant.adminKey, query: { status: 'failed' } });
    const refused = await api({ path: '/public/chat/deliveries', key: tenant.key, query: { status: 'failed' } });

    // Assess: newest first, with the retry the consumer parked.
    expect(list.status, list.text).toBe(200);
    expect(refused.status).toBe(403);
    expect(list.text).not.toContain(failing);
    const failed = list.body.data.find((d: { url: string }) => d.url === maskedAmong(failing, configured()));
    expect(failed).toMatchObject({
      event_id: event.id,
      type: 'score.drop',
      attempt: 1,
      error: 'HTTP 500',
      next_attempt_at: expect.any(String),
    });

    const retried = await api({ method: 'POST', path: `/public/chat/deliveries/${failed.id}/retry`, key: tenant.adminKey });
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toEqual({ id: failed.id, status: 'replaying' });
    // The re-send posted (and failed again, listed as attempt 2, not retried again automatically).
    await received((m) => to(m, failing).length >= 2);
    const relisted = await api({ path: '/public/chat/deliveries', key: tenant.adminKey, query: { status: 'failed' } });
    expect(
      relisted.body.data
        .filter((d: { id: string }) => d.id === failed.id)
        .map((d: { attempt: number; next_attempt_at: unknown }) => [d.attempt, d.next_attempt_at]),
    ).toEqual([[2, null]]);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    expect(audit.body.data[0]).toMatchObject({
      action: 'chat.retry',
      changes: [{ path: `alerts.chat.deliveries.${failed.id}`, old: 'failed', new: 'replaying' }],
    });
    expect((await api({ method: 'POST', path: `/public/chat/deliveries/dlv_${'x'.repeat(32)}/retry`, key: tenant.adminKey })).status).toBe(
      404,
    );
  });
});
