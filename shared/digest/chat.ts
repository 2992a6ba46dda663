import type { UserRecord } from '../access/ports.js';
import type { ChatDelivery, ChatDigest, ChatEndpoint } from '../chat/ports.js';
import { alertTranslator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import type { Settings } from '../settings/settings.js';
import { digestWords } from './email.js';
import type { DigestFigures, DigestPeriod } from './figures.js';

/*
 * The digest in the team's chat (issue 48): each chat endpoint that takes the `digest` event gets one summary of the
 * period for its stores (all when it lists none) — the score and its change, answers, open and overdue cases, the best
 * and worst, a link to the digest page — under one id per period, so that the chat's claim (one message per event and
 * endpoint) sends it once however often the period's digests are queued. No person is named but the ranked employees.
 */

/** The endpoints that take the digest. */
export const digestEndpoints = (settings: Pick<Settings, 'alerts'>): ChatEndpoint[] =>
  (settings.alerts?.chat ?? []).filter((endpoint) => endpoint.events.includes('digest'));

/** Whom an endpoint's digest is read as: a reader of its stores, or of every store, as a user of that scope would be. */
export const endpointReader = (endpoint: ChatEndpoint): UserRecord => ({
  name: 'chat',
  scope: endpoint.stores ? { stores: endpoint.stores, groups: [] } : 'all',
  tokenHash: '',
  created_at: '',
});

/** The id of a period's digest in chat: the same for every run of the period, whichever endpoint. */
export const digestChatId = (period: DigestPeriod, from: string) => `digest-${period}-${from}`;

/** The summary's words: the subject, a line per journey with answers, its best and worst, the count of each list of cases. */
export function digestChat(input: { figures: DigestFigures; company: string; locale: Locale; timeZone: string; link: string }): ChatDigest {
  const { figures, locale } = input;
  const t = alertTranslator(locale);
  const words = digestWords(input);
  const count = (n: number) => (figures.cases.more && n >= 1 ? `${n}+` : String(n));
  return {
    title: words.subject,
    lines: [
      ...words.journeys.flatMap((j) => [
        [`${j.name}: ${j.score}`, ...j.lines].join(' · '),
        ...(j.best.length ? [`+ ${j.best.join(', ')}`] : []),
        ...(j.worst.length ? [`- ${j.worst.join(', ')}`] : []),
      ]),
      `${t('digest.openCases')}: ${count(figures.cases.open.length)} · ${t('digest.overdueCases')}: ${count(figures.cases.overdue.length)}`,
    ],
    link: input.link,
    open: t('digest.open'),
  };
}

/** The chat queue's message of a period's digest to one endpoint. */
export const digestChatDelivery = (
  tenantId: number,
  url: string,
  period: DigestPeriod,
  from: string,
  digest: ChatDigest,
  now: Date,
): ChatDelivery => ({
  tenantId,
  url,
  event: { id: digestChatId(period, from), type: 'digest', created_at: now.toISOString(), data: { ...digest } },
  attempt: 1,
});
