import { addDays, monthsOf } from '../dates.js';
import type { TenantEvent } from '../events/ports.js';
import { html } from '../html.js';
import { alertTranslator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { APP_RESULTS_PATH } from '../session/paths.js';
import type { Settings } from '../settings/settings.js';
import { weekOf } from './groupings.js';
import type { ResultCounters } from './ports.js';
import { changeOf, type Change } from './ranking.js';
import { addInto, digitsOf, estimateOf } from './report.js';

/**
 * Alerts on changes beyond chance (issue 49 §3): once a day, for a tenant with `alerts.scoreDrop`, each store whose last
 * 7 days are significantly below its 28 days before (the ranking's interval rule) gets one e-mail to its managers, and
 * one message to each chat endpoint that takes `score.drop` and hears of the store, at most once a week. Read from the
 * stores' day counters of each journey (a few Queries a journey, however many answers), never from the answers.
 */
export const SCORE_DROP = { recentDays: 7, baselineDays: 28 } as const;

export interface ScoreDropPorts {
  settings(tenantId: number): Promise<Settings>;
  counters: ResultCounters;
  /** The store's managers with an e-mail: users whose scope holds it, who sign in, enabled. */
  managers(tenantId: number, storeId: number): Promise<string[]>;
  storeName(tenantId: number, storeId: number): Promise<string>;
  /** Claims the store's alert of the week (a conditional put): false when it was claimed before. */
  claim(tenantId: number, storeId: number, week: string): Promise<boolean>;
  email(message: { from: string; to: string[]; subject: string; html: string; text: string }): Promise<void>;
  /** Queues the event to the tenant's chat endpoints that take it and its store (never throws). */
  chat(tenantId: number, event: Omit<TenantEvent, 'type'> & { type: 'score.drop' }): Promise<void>;
  /** The base URL of the workspace's links. */
  readonly baseUrl: string;
}

interface Drop {
  journey: string;
  before: number;
  now: number;
  change: Change;
}

/** The days a check on `today` compares: the 7 days up to yesterday, and the 28 before them. */
export function windowsOf(today: string) {
  const end = addDays(today, -1);
  const recent = { from: addDays(end, 1 - SCORE_DROP.recentDays), to: end };
  const baseline = { from: addDays(recent.from, -SCORE_DROP.baselineDays), to: addDays(recent.from, -1) };
  return { recent, baseline };
}

export function scoreDrops(ports: ScoreDropPorts) {
  /** The drops of each store in one journey. */
  async function dropsIn(tenantId: number, journey: Settings['journeys'][number], today: string): Promise<Map<number, Drop>> {
    const { recent, baseline } = windowsOf(today);
    const reads = monthsOf(baseline.from, recent.to).map((partition) =>
      ports.counters.read({ tenantId, journeyId: journey.id, dimension: 'store', grain: 'day', partition, shards: journey.resultShards }),
    );
    const sums = new Map<number, { recent: Record<string, number>; baseline: Record<string, number> }>();
    for (const row of (await Promise.all(reads)).flat()) {
      const window =
        row.period >= recent.from && row.period <= recent.to
          ? 'recent'
          : row.period >= baseline.from && row.period <= baseline.to
            ? 'baseline'
            : undefined;
      if (!window) continue;
      const store = sums.get(row.ids[0]!) ?? { recent: {}, baseline: {} };
      addInto(store[window], row.counts);
      sums.set(row.ids[0]!, store);
    }
    const drops = new Map<number, Drop>();
    const round = (value: number) => Math.round(value * 10 ** digitsOf(journey.indicator)) / 10 ** digitsOf(journey.indicator);
    for (const [storeId, counts] of sums) {
      const [now, before] = [estimateOf(counts.recent, journey.indicator), estimateOf(counts.baseline, journey.indicator)];
      if (!now || !before) continue;
      const change = changeOf(now, before);
      if (change.significant && change.value < 0)
        drops.set(storeId, { journey: journey.name ?? journey.slug, before: round(before.value), now: round(now.value), change });
    }
    return drops;
  }

  /** Checks one tenant on `today` (YYYY-MM-DD, UTC): answers the stores alerted. */
  return async function checkScoreDrops(tenantId: number, today: string): Promise<number[]> {
    const settings = await ports.settings(tenantId);
    const from = settings.delivery.email?.from;
    if (!settings.alerts?.scoreDrop || !from) return [];
    const byStore = new Map<number, Drop[]>();
    for (const drops of await Promise.all(settings.journeys.map((journey) => dropsIn(tenantId, journey, today))))
      for (const [storeId, drop] of drops) byStore.set(storeId, [...(byStore.get(storeId) ?? []), drop]);
    const alerted: number[] = [];
    for (const [storeId, drops] of byStore) {
      const to = await ports.managers(tenantId, storeId);
      if (!to.length || !(await ports.claim(tenantId, storeId, weekOf(today)))) continue;
      const store = await ports.storeName(tenantId, storeId);
      const locale = settings.locale ?? 'pt-BR';
      await ports.email({ from, to, ...scoreDropEmail({ company: settings.brand?.name ?? store, store, drops, locale }) });
      const link = `${ports.baseUrl}${APP_RESULTS_PATH}?${new URLSearchParams(windowsOf(today).recent)}`;
      await ports.chat(tenantId, {
        // The same id for the store's alert of the week: a run fired again sends each endpoint nothing more.
        id: `score-drop-${storeId}-${weekOf(today)}`,
        type: 'score.drop',
        created_at: new Date().toISOString(),
        data: { store_id: storeId, ...scoreDropChat({ store, drops, locale, link }) },
      });
      alerted.push(storeId);
    }
    return alerted;
  };
}

/** The e-mail to a store's managers: each journey whose week fell beyond chance, from what to what. */
export function scoreDropEmail({ company, store, drops, locale }: { company: string; store: string; drops: Drop[]; locale: Locale }) {
  const t = alertTranslator(locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const subject = t('scoreDrop.subject', { store });
  const lines = [
    t('scoreDrop.intro', { store, recent: SCORE_DROP.recentDays, baseline: SCORE_DROP.baselineDays }),
    ...drops.map((drop) =>
      t('scoreDrop.line', { journey: drop.journey, before: number.format(drop.before), now: number.format(drop.now) }),
    ),
    t('scoreDrop.chance'),
  ];
  const document = html`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font:16px/1.5 Arial,sans-serif;color:#111827;margin:0;padding:16px">
<p style="margin:0 0 8px;font-weight:bold">${company}</p>
${lines.map((line, at) => html`${at > 0 && '\n'}<p style="margin:0 0 12px">${line}</p>`)}
</body></html>`;
  return { subject, html: document.toString(), text: `${company}\n\n${lines.join('\n')}\n` };
}

/** A chat message as a score drop writes it: a title, lines and a link (shared/chat/ports.ts's `ChatDigest`). */
export interface DropChat {
  title: string;
  lines: string[];
  link: string;
  /** The link's words. */
  open: string;
}

/** The chat message of a store's drop: the journeys that fell, from what to what, and the week's results. No person named. */
export function scoreDropChat({
  store,
  drops,
  locale,
  link,
}: {
  store: string;
  drops: Pick<Drop, 'journey' | 'before' | 'now'>[];
  locale: Locale;
  link: string;
}): DropChat {
  const t = alertTranslator(locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  return {
    title: t('scoreDrop.chatTitle', { store }),
    lines: drops.map((drop) =>
      t('scoreDrop.line', { journey: drop.journey, before: number.format(drop.before), now: number.format(drop.now) }),
    ),
    open: t('scoreDrop.open'),
    link,
  };
}
