import { bucketOf } from '../settings/scales.js';
import type { AnalysisPorts, AnalysedAnswer, CountedAnalysis, ListedBy, ListingChange, ThemeDelta } from './ports.js';
import { redact } from './redact.js';
import { uncoveredPhrases } from './phrases.js';
import { analyseThemes, localeOfLanguage, ownSentiment, themesOf, type MatchContext, type Theme } from './themes.js';
import { confidentLanguage, keyPhrasesOf } from './extraction.js';
import { COMMENT_ANALYSIS_DEFAULTS } from './config.js';
import { DEFAULT_LOCALE } from '../locale.js';
import type { Sentiment } from './ports.js';

/**
 * A comment of fewer words than this is read in the survey's language (the journey's, else the tenant's), never a
 * detector's guess from four words ("Chegou certinho" is not Spanish).
 */
export const SHORT_COMMENT_WORDS = 8;

/**
 * The language a comment is read in: the survey's (the journey's, else the tenant's: the customer answered the survey
 * it was sent in), unless the comment's own words say beyond doubt that it is written in another of the three
 * (shared/themes/extraction.ts, `confidentLanguage`); a short comment in which the survey's language finds a theme
 * stays in it. No call to Comprehend's DetectDominantLanguage.
 */
export function languageOf(comment: string, surveyLanguage: string, themes: readonly Theme[]): string {
  const short = (comment.match(/[\p{L}\p{N}]+/gu) ?? []).length < SHORT_COMMENT_WORDS;
  if (short && analyseThemes(comment, { language: surveyLanguage, themes }).length > 0) return surveyLanguage;
  return confidentLanguage(comment)?.slice(0, 2) ?? surveyLanguage;
}

/** The polarity a mention with no opinion of its own takes: the score's bucket, else the comment's sentiment. */
const BUCKET_POLARITY: Record<string, Sentiment> = {
  detractor: 'negative',
  passive: 'neutral',
  promoter: 'positive',
  low: 'negative',
  middle: 'neutral',
  high: 'positive',
};
import { cutToUtf8Bytes } from '../text.js';

/**
 * What Comprehend reads of one document at most (UTF-8 bytes: DetectSentiment's limit, which refuses a longer text with TextSizeLimitExceededException). A longer comment (2,000 characters of Chinese are 6,000
 * bytes) is analysed on its start, cut on a character boundary.
 */
export const COMPREHEND_MAX_BYTES = 5000;

export type AnalysisOutcome = 'analysed' | 'no_comment' | 'stale' | 'missing' | 'unchanged';

/** What the matcher reads besides the words: the journey's kind, and the polarity of a mention with no opinion. */
const contextOf = (journey: { online?: boolean | undefined } | undefined, bucket: string | null, sentiment: Sentiment): MatchContext => ({
  kind: journey?.online === undefined ? undefined : journey.online ? 'online' : 'in-store',
  fallback: bucket ? BUCKET_POLARITY[bucket] : sentiment,
});

/** A list of mentions as a set: each theme with its polarity, in slug order. */
const mentionsOf = (aspects: readonly { theme: string; sentiment: Sentiment }[]) =>
  aspects
    .map((aspect) => `${aspect.theme}:${aspect.sentiment}`)
    .sort()
    .join('|');

/** The counter changes that take `counted` back (-1) or add it (+1), for each theme it names. */
export function themeDeltas(
  answer: Pick<AnalysedAnswer, 'storeId' | 'employeeId' | 'journeyId'>,
  counted: CountedAnalysis,
  sign: 1 | -1,
): ThemeDelta[] {
  const ids = { store: answer.storeId, employee: answer.employeeId, journey: answer.journeyId };
  const polarity = new Map(counted.aspects?.map((aspect) => [aspect.theme, aspect.sentiment]));
  return counted.themes.map((theme) => ({
    theme,
    ...(polarity.has(theme) ? { aspect: polarity.get(theme) } : {}),
    day: counted.day,
    ids,
    bucket: counted.bucket,
    sentiment: counted.sentiment,
    score: counted.score,
    sign,
  }));
}

/** The lists by theme and by sentiment an analysis puts its answer in. */
export const listedBy = (counted: Pick<CountedAnalysis, 'themes' | 'sentiment'>): ListedBy[] => [
  ...counted.themes.map((value) => ({ filter: 'theme' as const, value })),
  { filter: 'sentiment', value: counted.sentiment },
];

/** The entries a new analysis writes, and those of the previous one it no longer has (a kept entry is written over). */
export function listingChange(answer: AnalysedAnswer, counted: CountedAnalysis): ListingChange {
  const put = listedBy(counted);
  const kept = new Set(put.map((entry) => `${entry.filter}#${entry.value}`));
  const remove = (answer.counted ? listedBy(answer.counted) : []).filter((entry) => !kept.has(`${entry.filter}#${entry.value}`));
  return { answer, put, remove };
}

/**
 * Analyses one answer's comment: redacted before it leaves the service, its language (the survey's, or the comment's
 * own where its words are sure) and key phrases read by the service, its sentiment by Comprehend (one call) unless the
 * tenant turned that off, the tenant's themes matched, then stored on the answer with the counters moved in one write. At least
 * once: a message for a version already analysed, or overtaken by a correction, counts nothing.
 */
export function commentAnalysis(ports: AnalysisPorts) {
  const service = {
    async analyse(tenantId: number, transactionId: number, version: number): Promise<AnalysisOutcome> {
      const answer = await ports.answers.read(tenantId, transactionId);
      if (!answer) return 'missing';
      // A correction since: its own message analyses it. Already analysed: a redelivery.
      if (answer.version !== version || (answer.counted?.version ?? 0) >= version) return 'stale';
      if (!answer.comment?.trim()) return 'no_comment';
      const text = cutToUtf8Bytes(redact(answer.comment), COMPREHEND_MAX_BYTES);
      const settings = await ports.settings(tenantId);
      const journey = settings.journeys.find((j) => j.id === answer.journeyId);
      const surveyLanguage = (journey?.locale ?? settings.locale ?? DEFAULT_LOCALE).slice(0, 2);
      const bucket = journey ? bucketOf(journey.indicator, answer.score) : null;
      const themes = themesOf(settings);
      const language = languageOf(text, surveyLanguage, themes);
      const keyPhrases = keyPhrasesOf(text, localeOfLanguage(language) ?? DEFAULT_LOCALE);
      // Comprehend's sentiment, one call, unless the tenant turned it off: then the comment's own reading.
      const scorePolarity = bucket ? BUCKET_POLARITY[bucket] : undefined;
      const comprehended =
        (settings.commentAnalysis?.comprehendSentiment ?? COMMENT_ANALYSIS_DEFAULTS.comprehendSentiment)
          ? await ports.comprehend.sentiment(text, language)
          : undefined;
      const fallback = comprehended ?? ownSentiment(answer.comment, { language, aspects: [], fallback: scorePolarity });
      const aspects = analyseThemes(answer.comment, { language, themes, context: contextOf(journey, bucket, fallback) });
      const sentiment = comprehended ?? ownSentiment(answer.comment, { language, aspects, fallback: scorePolarity });
      const analysis = {
        version,
        language,
        sentiment,
        keyPhrases,
        themes: aspects.map((aspect) => aspect.theme),
        aspects,
        bucket,
        score: answer.score,
        day: answer.day,
      };
      const deltas = [...(answer.counted ? themeDeltas(answer, answer.counted, -1) : []), ...themeDeltas(answer, analysis, 1)];
      const listing = listingChange(answer, analysis);
      if ((await ports.answers.save(tenantId, transactionId, { analysis, previous: answer.counted, deltas, listing })) !== 'saved')
        return 'stale';
      // The suggestions' counts, in a write of their own (the themes' transaction has no room left): a failure here
      // leaves this answer's phrases uncounted, never counted twice.
      // Only a comment with no theme suggests one: what the themes already count needs none.
      const phrases = {
        version,
        day: answer.day,
        language,
        phrases: aspects.length ? [] : uncoveredPhrases(keyPhrases, language, themes),
        negative: (bucket ? BUCKET_POLARITY[bucket] : sentiment) === 'negative',
      };
      if (phrases.phrases.length || answer.phrases?.phrases.length)
        await ports.answers.countPhrases(tenantId, transactionId, { answer, counted: phrases, previous: answer.phrases ?? null });
      return 'analysed';
    },

    /**
     * Matches an analysed answer's comment against the tenant's current themes (what Comprehend read of it kept: no new
     * call) and moves its counts from the themes it counted to the new ones, through the same conditional write: what
     * it counted is taken back, so running it again, or at the same time, counts nothing twice. Its suggestions move
     * too (the phrases no theme covers, counted only for a comment with no theme). An answer not analysed yet (or
     * corrected since) is analysed in full.
     */
    async reanalyse(tenantId: number, transactionId: number): Promise<AnalysisOutcome> {
      const answer = await ports.answers.read(tenantId, transactionId);
      if (!answer) return 'missing';
      if (!answer.comment?.trim()) return 'no_comment';
      const { counted, read } = answer;
      if (!counted || counted.version < answer.version || !read) return service.analyse(tenantId, transactionId, answer.version);
      const settings = await ports.settings(tenantId);
      const journey = settings.journeys.find((j) => j.id === answer.journeyId);
      const themesNow = themesOf(settings);
      const aspects = analyseThemes(answer.comment, {
        language: read.language,
        themes: themesNow,
        context: contextOf(journey, counted.bucket, counted.sentiment),
      });
      const themes = aspects.map((aspect) => aspect.theme);
      let outcome: AnalysisOutcome = 'unchanged';
      // The same mentions in another order (the configuration reads its themes back in slug order) move nothing.
      if (mentionsOf(aspects) !== mentionsOf(counted.aspects ?? []) || themes.length !== counted.themes.length) {
        const analysis = { ...counted, ...read, themes, aspects };
        const deltas = [...themeDeltas(answer, counted, -1), ...themeDeltas(answer, analysis, 1)];
        const listing = listingChange(answer, analysis);
        if ((await ports.answers.save(tenantId, transactionId, { analysis, previous: counted, deltas, listing })) !== 'saved')
          return 'stale';
        outcome = 'analysed';
      }
      // The suggestions move with the themes: a comment with a theme now suggests nothing, one with none now suggests its
      // phrases no theme covers (what one analysis with these themes would have counted). Written only if the phrases
      // counted are still the ones read, so a second run, or one at the same time, counts nothing twice.
      const phrases = {
        version: counted.version,
        day: counted.day,
        language: read.language,
        phrases: aspects.length ? [] : uncoveredPhrases(read.keyPhrases, read.language, themesNow),
        negative: (counted.bucket ? BUCKET_POLARITY[counted.bucket] : counted.sentiment) === 'negative',
      };
      const before = answer.phrases;
      const same = (before?.phrases.map((phrase) => phrase.key).join('|') ?? '') === phrases.phrases.map((phrase) => phrase.key).join('|');
      if (!same || (before && before.version !== counted.version)) {
        if ((await ports.answers.countPhrases(tenantId, transactionId, { answer, counted: phrases, previous: before ?? null })) !== 'saved')
          return 'stale';
        outcome = 'analysed';
      }
      return outcome;
    },
  };
  return service;
}
