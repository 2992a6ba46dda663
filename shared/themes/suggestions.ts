import * as v from 'valibot';
import { DAY_MS, dayOf, monthsOf, periodProblems } from '../dates.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { UserRecord } from '../access/ports.js';
import { calendarDate, integerString, MAX_INT_ID, text, wholeNumber } from '../schema.js';
import type { Settings } from '../settings/settings.js';
import { matchThemes, themesOf, type Theme } from './themes.js';

export const SuggestionsQuery = v.strictObject({
  from: calendarDate,
  to: calendarDate,
  store: v.optional(integerString(1, MAX_INT_ID)),
  /** A journey's slug or id. */
  journey: v.optional(text(64)),
});
export type SuggestionsQuery = v.InferOutput<typeof SuggestionsQuery>;

export const SuggestionsBody = v.array(
  v.object({
    phrase: v.string(),
    language: v.string(),
    /** The answers whose comment said it (at least MIN_ANSWERS). */
    count: wholeNumber,
    /** Of those, complaints (a detractor's, a low score's, else a negative comment's): listed first. */
    negative: wholeNumber,
    examples: v.array(wholeNumber),
  }),
);
export type Suggestion = v.InferOutput<typeof SuggestionsBody>[number];

/** The most suggestions answered, most frequent first. */
export const MAX_SUGGESTIONS = 20;
/**
 * A phrase said in fewer answers than this is never suggested: a person's name ("maria zulmirenta"), an order's own
 * words, are in one comment; what customers talk about is in several.
 */
export const MIN_ANSWERS = 2;

/** One suggestion cell: a phrase's count in one period (a day or a month) of one dimension. */
export interface PhraseCell {
  period: string;
  key: string;
  phrase: string;
  language: string;
  count: number;
  /** Of `count`, the answers that complained. */
  negative: number;
  examples: number[];
}

export interface SuggestionPorts {
  /** The cells of `dimension` `id` at `grain` in one partition (a month of days, a year of months), at most a bounded number. */
  cells(
    tenantId: number,
    of: { dimension: 'all' | 'store' | 'journey'; id: number; grain: 'day' | 'month'; partition: string },
  ): Promise<PhraseCell[]>;
  settings: (tenantId: number) => Promise<Pick<Settings, 'journeys'> & { themes?: Theme[] }>;
}

/**
 * Frequent key phrases of a period that no current theme covers, from the suggestion counters: a month the period
 * covers whole is read from its month cells, a part of a month from its day cells. Scope as the results': a token
 * limited to stores reads its stores' cells.
 */
export function suggestionsService({ cells, settings }: SuggestionPorts) {
  return async (tenantId: number, query: SuggestionsQuery, user: Promise<UserRecord>): Promise<Suggestion[]> => {
    const problems = periodProblems(query.from, query.to);
    if (problems.length) throw new ValidationError('Invalid period.', problems);
    if (query.store !== undefined && query.journey !== undefined)
      throw new ValidationError('Give a store or a journey.', [{ path: 'journey', message: 'cannot be combined with store' }]);
    const config = await settings(tenantId);
    const journey = query.journey && config.journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey);
    if (query.journey && !journey)
      throw new ValidationError('No such journey.', [{ path: 'journey', message: `no journey ${query.journey}` }]);
    const { scope } = await user;
    if (scope !== 'all' && query.store !== undefined && !scope.stores.includes(query.store)) throw new NotFoundError('No such store.');
    if (scope !== 'all' && journey)
      throw new ValidationError('Name a store.', [
        { path: 'journey', message: 'is not available to a token limited to stores: give store' },
      ]);
    const sources: ['all' | 'store' | 'journey', number][] =
      query.store !== undefined
        ? [['store', query.store]]
        : journey
          ? [['journey', journey.id]]
          : scope === 'all'
            ? [['all', 0]]
            : scope.stores.map((id) => ['store', id] as ['store', number]);
    const reads = monthsOf(query.from, query.to).flatMap((month) => {
      const next = new Date(`${month}-01T00:00:00Z`);
      next.setUTCMonth(next.getUTCMonth() + 1);
      const whole = query.from <= `${month}-01` && dayOf(next.getTime() - DAY_MS) <= query.to;
      return sources.map(([dimension, id]) =>
        whole
          ? cells(tenantId, { dimension, id, grain: 'month', partition: month.slice(0, 4) }).then((found) =>
              found.filter((cell) => cell.period === month),
            )
          : cells(tenantId, { dimension, id, grain: 'day', partition: month }).then((found) =>
              found.filter((c) => c.period >= query.from && c.period <= query.to),
            ),
      );
    });
    const summed = new Map<string, PhraseCell>();
    for (const cell of (await Promise.all(reads)).flat()) {
      const seen = summed.get(cell.key);
      summed.set(
        cell.key,
        seen
          ? {
              ...seen,
              count: seen.count + cell.count,
              negative: seen.negative + cell.negative,
              examples: [...seen.examples, ...cell.examples],
            }
          : cell,
      );
    }
    const themes = themesOf(config);
    // A theme added since the phrases were counted covers them from now on.
    return (
      [...summed.values()]
        .filter((cell) => cell.count >= MIN_ANSWERS && !matchThemes(cell.phrase, { language: cell.language, themes }).length)
        // Complaints first: what customers complain about that no theme counts is what a theme is missing most.
        .sort((a, b) => b.negative - a.negative || b.count - a.count || a.phrase.localeCompare(b.phrase))
        .slice(0, MAX_SUGGESTIONS)
        .map((cell) => ({
          phrase: cell.phrase,
          language: cell.language,
          count: cell.count,
          negative: cell.negative,
          examples: [...new Set(cell.examples)].slice(0, 3),
        }))
    );
  };
}
