import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BROKEN_AFTER, CHAT_RETRY_MINUTES, deliverChat } from '../../shared/chat/delivery.js';
import { chatDeliveries } from '../../shared/chat/fan-out.js';
import type { ChatDelivery, ChatDeliveryPorts, ChatEndpoint, ChatMessageInput, FailedChatDelivery } from '../../shared/chat/ports.js';
import { chatWords, slackMessage, teamsMessage } from '../../shared/chat/render.js';
import { tenantEvent } from '../../shared/events/events.js';
import { scoreDropChat } from '../../shared/results/score-drop.js';
import { AlertsConfig } from '../../shared/tenants/config-schema.js';

/** The chat alerts' rules without the emulators: the messages, the fan-out, the address rules, one send per delivery. */
const opened: ChatMessageInput = {
  type: 'case.opened',
  locale: 'pt-BR',
  number: null,
  score: 2,
  store: 'Loja Centro',
  employee: 'Ana',
  due: '05/03/2026, 12:04 BRT',
  link: 'https://api.example.com/app/cases/42',
};

describe('the chat messages', () => {
  it("gives Slack text and blocks with the score, store, employee and a button to the case, in the tenant's language", () => {
    const message = slackMessage(opened);
    expect(message.text).toBe('Novo caso: nota 2 na Loja Centro');
    expect(message.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Novo caso: nota 2 na Loja Centro' } },
      { type: 'section', text: { type: 'plain_text', text: 'Um cliente deu nota 2 na Loja Centro, atendido por Ana.' } },
      { type: 'section', text: { type: 'plain_text', text: 'Prazo para resolver: 05/03/2026, 12:04 BRT' } },
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Abrir o caso' }, url: opened.link, style: 'primary' }],
      },
    ]);
    expect(slackMessage({ ...opened, locale: 'es' }).text).not.toBe(message.text);
  });

  it("names the case's short number after the intro, in pt-BR, es and en", () => {
    const second = (locale: 'pt-BR' | 'es' | 'en') => chatWords({ ...opened, locale, number: 12 }).lines[1];
    expect([second('pt-BR'), second('es'), second('en')]).toEqual(['Caso nº 12', 'Caso n.º 12', 'Case no. 12']);
    expect(JSON.stringify(slackMessage(opened))).not.toMatch(/nº/);
  });

  it('shows the comment, as plain text, only when the endpoint takes it', () => {
    expect(JSON.stringify(slackMessage(opened))).not.toMatch(/Comentário|comentário/);
    const withComment = slackMessage({ ...opened, comment: '<!channel> *péssimo*' });
    expect(withComment.blocks[2]).toEqual({
      type: 'section',
      text: { type: 'plain_text', text: 'Comentário do cliente: <!channel> *péssimo*' },
    });
    expect(slackMessage({ ...opened, comment: null }).blocks[2]).toMatchObject({ text: { text: 'O cliente não deixou comentário.' } });
  });

  it('gives Teams a Workflows message with an Adaptive Card 1.4 that opens the case', () => {
    const card = teamsMessage({ ...opened, type: 'case.overdue', comment: 'Demorou' });
    expect(card).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: 'Caso atrasado: nota 2 na Loja Centro' },
              {
                type: 'RichTextBlock',
                inlines: [{ type: 'TextRun', text: expect.stringContaining('passou do prazo (05/03/2026, 12:04 BRT)') }],
              },
              { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: 'Comentário do cliente: Demorou' }] },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Abrir o caso', url: opened.link }],
          },
        },
      ],
    });
  });

  it('cuts a long comment to what Slack takes in a section', () => {
    const { blocks } = slackMessage({ ...opened, comment: 'x'.repeat(5000) });
    expect((blocks[2] as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(3000);
  });

  it('shows a digest as its part composed it', () => {
    const message = slackMessage({
      type: 'digest',
      locale: 'pt-BR',
      title: 'Resumo da semana',
      lines: ['NPS 61'],
      link: 'https://x.example/app/digest',
      open: 'Abrir',
    });
    expect(message).toMatchObject({
      text: 'Resumo da semana',
      blocks: [{ type: 'header' }, { text: { text: 'NPS 61' } }, { type: 'actions' }],
    });
  });

  it("shows a store's score drop in the tenant's language: each journey that fell, from what to what, and the week's results", () => {
    const words = scoreDropChat({
      store: 'Downtown',
      drops: [
        { journey: 'Store', before: 75, now: -25 },
        { journey: 'Delivery', before: 4.5, now: 3.25 },
      ],
      locale: 'en',
      link: 'https://x.example/app/results?from=2031-03-03&to=2031-03-09',
    });
    const card = teamsMessage({ type: 'score.drop', locale: 'en', ...words }).attachments[0]!.content;
    expect(card.body.map((block) => ('text' in block ? block.text : block.inlines[0]!.text))).toEqual([
      'Downtown: score fell beyond chance',
      'Store: from 75 to -25',
      'Delivery: from 4.5 to 3.25',
    ]);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: "See the week's results", url: 'https://x.example/app/results?from=2031-03-03&to=2031-03-09' },
    ]);
  });
});

const endpoint = (fields: Partial<ChatEndpoint> = {}): ChatEndpoint => ({
  kind: 'slack',
  url: 'https://hooks.slack.com/services/a',
  events: ['case.opened'],
  comment: false,
  ...fields,
});
const caseOpened = (store: number) =>
  tenantEvent(7, {
    type: 'case.opened',
    subject: '42',
    data: { case_id: 42, store_id: store, employee_id: 1, score: 2 },
    at: new Date('2026-11-26T12:00:00Z'),
  });

describe('the fan-out', () => {
  it('sends an event to the endpoints that take its type and its store', () => {
    const endpoints = [
      endpoint({ url: 'https://a.example/all' }),
      endpoint({ url: 'https://a.example/store2', stores: [2] }),
      endpoint({ url: 'https://a.example/overdue', events: ['case.overdue'] }),
    ];
    expect(chatDeliveries(7, endpoints, caseOpened(1)).map((d) => d.url)).toEqual(['https://a.example/all']);
    expect(chatDeliveries(7, endpoints, caseOpened(2)).map((d) => d.url)).toEqual(['https://a.example/all', 'https://a.example/store2']);
    expect(
      chatDeliveries(7, endpoints, tenantEvent(7, { type: 'case.resolved', subject: '42', data: { store_id: 1 }, at: new Date() })),
    ).toEqual([]);
  });
});

describe('alerts.chat', () => {
  const parse = (chat: unknown[]) => v.safeParse(AlertsConfig, { chat });
  const issues = (chat: unknown[]) => {
    const parsed = parse(chat);
    return parsed.success ? undefined : v.flatten(parsed.issues).nested;
  };

  it('takes at most 20 endpoints, each https on a public host on AWS', () => {
    const many = Array.from({ length: 20 }, (_, i) => endpoint({ url: `https://hooks.slack.com/services/${i}` }));
    expect(parse(many).success).toBe(true);
    expect(issues([...many, endpoint({ url: 'https://hooks.slack.com/services/x' })])).toEqual({ chat: ['may list at most 20 endpoints'] });
    expect(issues([endpoint({ url: 'http://hooks.slack.com/a' })])?.['chat.0.url']).toEqual([
      'must be https on a public host (http only on a local deployment)',
    ]);
    expect(issues([endpoint({ url: 'https://169.254.169.254/a' })])?.['chat.0.url']?.[0]).toMatch(/public host/);
    expect(issues([endpoint(), endpoint()])).toEqual({ 'chat.1': ['lists a URL twice (an endpoint is known by its URL)'] });
    expect(issues([{ ...endpoint(), kind: 'discord', events: ['survey.answered'] }])).toEqual({
      'chat.0.kind': ['must be one of slack, teams'],
      'chat.0.events.0': ['must be one of case.opened, case.overdue, digest, score.drop'],
    });
  });
});

/** In-memory ports that keep the table's promises: a claim is taken once, or again from an earlier try's failure. */
function memoryPorts(answers: number[]) {
  const claims = new Map<string, { status: 'sent' | 'failed'; attempt: number }>();
  const posted: string[] = [];
  const failures: FailedChatDelivery[] = [];
  const requeued: { delivery: ChatDelivery; delay: number }[] = [];
  let gone = 0;
  const ports: ChatDeliveryPorts = {
    post: async (_url, body) => (posted.push(body), answers.shift() ?? 200),
    requeue: async (delivery, delay) => void requeued.push({ delivery, delay }),
    async claim(_tenantId, id, delivery) {
      const claim = claims.get(id);
      if (claim && !(claim.status === 'failed' && claim.attempt < delivery.attempt)) return false;
      claims.set(id, { status: 'sent', attempt: delivery.attempt });
      return true;
    },
    recordFailure: async (_tenantId, failure) => {
      failures.push(failure);
      claims.set(failure.id, { status: 'failed', attempt: failure.attempt });
    },
    endpoint: async () => ({ ...endpoint(), gone }),
    compose: async () => opened,
    recordGone: async () => ++gone,
    recordAnswered: async () => void (gone = 0),
  };
  return { ports, posted, failures, requeued, gone: () => gone };
}

describe('a chat delivery', () => {
  const delivery: ChatDelivery = { tenantId: 7, url: endpoint().url, event: { ...caseOpened(1), type: 'case.opened' }, attempt: 1 };
  const now = new Date('2026-11-26T12:00:00Z');

  it('is sent once however often the queue delivers it', async () => {
    const { ports, posted } = memoryPorts([]);
    expect(await deliverChat(delivery, ports, now)).toBe('delivered');
    expect(await deliverChat(delivery, ports, now)).toBe('duplicate');
    expect(posted).toHaveLength(1);
  });

  it('is retried after a failure with growing waits, and a redelivery of the failed try sends nothing', async () => {
    const { ports, posted, requeued, failures } = memoryPorts([503]);
    expect(await deliverChat(delivery, ports, now)).toBe('retrying');
    expect(requeued[0]).toMatchObject({ delivery: { attempt: 2 }, delay: CHAT_RETRY_MINUTES[0] * 60 });
    expect(failures[0]).toMatchObject({ error: 'HTTP 503', next_attempt_at: '2026-11-26T12:01:00.000Z' });
    expect(await deliverChat(delivery, ports, now)).toBe('duplicate');
    expect(await deliverChat(requeued[0]!.delivery, ports, new Date('2026-11-26T12:01:00Z'))).toBe('delivered');
    expect(posted).toHaveLength(2);
  });

  it(`is not retried on a 404 or 410, and ${BROKEN_AFTER} of them in a row mark the endpoint broken until it answers again`, async () => {
    const { ports, requeued, gone } = memoryPorts([410, 404, 200]);
    expect(await deliverChat(delivery, ports, now)).toBe('failed');
    expect(await deliverChat({ ...delivery, url: 'https://hooks.slack.com/services/b' }, ports, now)).toBe('failed');
    expect(requeued).toEqual([]);
    expect(gone()).toBe(BROKEN_AFTER);
    expect(await deliverChat({ ...delivery, url: 'https://hooks.slack.com/services/c' }, ports, now)).toBe('delivered');
    expect(gone()).toBe(0);
  });
});
