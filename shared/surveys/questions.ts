import type { LocalizedText } from '../settings/fields.js';
import type { ClassConfig, JourneyConfig } from '../settings/journeys.js';
import { INDICATORS, type Bucket, type Indicator } from '../settings/scales.js';
import type { Locale } from '../locale.js';
import type { Translate } from '../i18n/messages.js';

/**
 * What a survey asks and answers in the customer's language: the tenant's own texts where it wrote them for that
 * language, the catalogue's otherwise. Tenant texts are plain text (not MessageFormat): `{loja}` or `{company}` in
 * them is the company's name.
 */

const tenantText = (text: string | undefined, company: string) => text?.replaceAll('{loja}', company).replaceAll('{company}', company);
const inLocale = (texts: LocalizedText | undefined, locale: Locale) => texts?.[locale];

/** The journey's main question: its own in this language, its own in any language, or its indicator's usual one. */
export function questionOf({
  journey,
  company,
  locale,
  t,
}: {
  journey: Pick<JourneyConfig, 'question' | 'questions' | 'indicator'>;
  company: string;
  locale: Locale;
  t: Translate;
}): string {
  return tenantText(inLocale(journey.questions, locale) ?? journey.question, company) ?? t(`question.${journey.indicator}`, { company });
}

/** A class's question: its own in this language, else a question of its indicator on its label. */
export const classQuestionOf = (item: Pick<ClassConfig, 'label' | 'question' | 'type'>, locale: Locale, t: Translate) =>
  inLocale(item.question, locale) ?? t(`classQuestion.${item.type}`, { label: item.label });

/** The labels of a scale's two ends. */
export function scaleEnds(indicator: Indicator, t: Translate): [string, string] {
  switch (indicator) {
    case 'csat5Stars':
      return [t('score.stars', { count: INDICATORS.csat5Stars.min }), t('score.stars', { count: INDICATORS.csat5Stars.max })];
    case 'binary':
      return [t('score.no'), t('score.yes')];
    default:
      return [t(`scale.${indicator}.low`), t(`scale.${indicator}.high`)];
  }
}

/** How a score reads on a button: binary answers are words. */
export const scoreLabel = (indicator: Indicator, score: number, t: Translate) =>
  indicator === 'binary' ? t(score ? 'score.yes' : 'score.no') : String(score);

/** What a score says to someone who cannot see the button (a star count, a word, a number). */
export const scoreName = (indicator: Indicator, score: number, t: Translate) =>
  indicator === 'csat5Stars' ? t('score.stars', { count: score }) : scoreLabel(indicator, score, t);

export const scoresOf = (indicator: Indicator) => {
  const { min, max } = INDICATORS[indicator];
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
};

/**
 * The bucket a main score falls in: NPS's detractors (0-6), passives (7-8) and promoters (9-10); on the other
 * scales the lower, middle and upper part (csat 1-2, 3, 4-5; ces 1-3, 4-5, 6-7; binary no, yes).
 */
export function bucketOf(indicator: Indicator, score: number): Bucket {
  if (indicator === 'nps') return score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter';
  const { min, max } = INDICATORS[indicator];
  const place = (score - min) / (max - min);
  return place < 0.4 ? 'low' : place < 0.7 ? 'mid' : 'high';
}

/** The buckets of an indicator, in the order of its scale. */
export const bucketsOf = (indicator: Indicator): Bucket[] =>
  indicator === 'nps' ? ['detractor', 'passive', 'promoter'] : [...new Set(scoresOf(indicator).map((s) => bucketOf(indicator, s)))];

/** The follow-up question of a bucket: the journey's in this language, else the built-in one. */
export const followUpOf = ({
  journey,
  bucket,
  locale,
  t,
}: {
  journey: Pick<JourneyConfig, 'followUp'>;
  bucket: Bucket;
  locale: Locale;
  t: Translate;
}) => inLocale(journey.followUp?.[bucket], locale) ?? t(`followUp.${bucket}`);

/** The thank-you text once answered: the bucket's (the journey's in this language, else built in), or a plain one. */
export function thanksOf({
  journey,
  bucket,
  company,
  locale,
  t,
}: {
  journey: Pick<JourneyConfig, 'thanks'>;
  bucket: Bucket | undefined;
  company: string;
  locale: Locale;
  t: Translate;
}): string {
  if (!bucket) return t('thanks.text', { company });
  return tenantText(inLocale(journey.thanks?.[bucket], locale), company) ?? t(`thanks.${bucket}`, { company });
}
