import type { UserRecord } from '../access/ports.js';
import type { ChatDelivery, ChatDigest, ChatEndpoint } from '../chat/ports.js';
import { alertTranslator, type AlertKey, type Translate } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import type { Settings } from '../settings/settings.js';
import { digestWords, type ScopeWords } from './email.js';
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

/**
 * The summary's words, shorter than the e-mail's: what to do first, each journey's score and its stores by name (3 at
 * most, those needing attention first), the top complaints, the overdue and open cases (3 each, with store, age and
 * owner), a period without answers said so with its last weeks; a link to the digest page.
 */
export function digestChat(input: { figures: DigestFigures; company: string; locale: Locale; timeZone: string; link: string }): ChatDigest {
  const { figures, locale } = input;
  const t = alertTranslator(locale);
  const words = digestWords(input);
  const count = (n: number) => (figures.cases.more && n >= 1 ? `${n}+` : String(n));
  const few = <T>(list: T[]) => list.slice(0, CHAT_ITEMS);
  return {
    title: words.subject,
    lines: [
      words.first.line,
      ...(words.quiet ? [[words.quiet.line, ...words.quiet.weeks].join(' ')] : []),
      ...words.journeys.flatMap((j) => [
        [`${j.name}: ${j.score}`, ...j.lines].join(' · '),
        ...(j.regions ? scopeLines({ rows: j.regions.rows, unlisted: 0, attention: words.attention, t }) : []),
        ...scopeLines({ rows: j.stores.rows, unlisted: j.stores.unlisted, attention: words.attention, t }),
      ]),
      `${words.themes.title}: ${
        words.themes.items.length
          ? few(words.themes.items)
              .map((i) => i.theme)
              .join(' · ')
          : words.themes.none
      }`,
      ...(words.praise ? [`${words.praise.title}: ${words.praise.line}`] : []),
      `${t('digest.overdueCases')}: ${count(figures.cases.overdue.length)} · ${t('digest.openCases')}: ${count(figures.cases.open.length)}`,
      ...words.cases.flatMap((c, at) => few([figures.cases.overdue, figures.cases.open][at]!.length ? c.lines : [])),
    ],
    link: input.link,
    open: t('digest.open'),
  };
}

/** How many stores, complaints and cases of each list a chat summary names. */
export const CHAT_ITEMS = 3;

/**
 * A journey's stores (or regions) in chat, by name: the first CHAT_ITEMS with answers, in the e-mail's order (those
 * needing attention first, marked), then how many more the digest page lists (without answers, or beyond them).
 */
function scopeLines({
  rows,
  unlisted,
  attention,
  t,
}: {
  rows: ScopeWords[];
  unlisted: number;
  attention: string;
  t: Translate<AlertKey>;
}): string[] {
  const named = rows.filter((r) => r.answered).slice(0, CHAT_ITEMS);
  // A journey without answers is said so on its own line: its stores, none answered, are not counted there.
  if (!named.length) return [];
  const more = rows.length - named.length + unlisted;
  return [
    ...named.map((r) => (r.attention ? `! ${r.line} (${attention})` : `• ${r.line}`)),
    ...(more > 0 ? [`• ${t('digest.moreStores', { count: more })}`] : []),
  ];
}

/** The chat queue's message of a period's digest to one endpoint. */
export const digestChatDelivery = (
  tenantId: number,
  { url, period, from, digest, now }: { url: string; period: DigestPeriod; from: string; digest: ChatDigest; now: Date },
): ChatDelivery => ({
  tenantId,
  url,
  event: { id: digestChatId(period, from), type: 'digest', created_at: now.toISOString(), data: { ...digest } },
  attempt: 1,
});
