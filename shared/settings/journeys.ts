import * as v from 'valibot';
import { CHANNELS, HAND_OFF_CHANNELS } from '../channels.js';
import { entityId as id, nameField as name } from '../fields.js';
import { byBucket, indicator, locale, localized, wholeNumber } from './fields.js';
import { CASE_RULE_DEFAULTS, JOURNEY_DEFAULTS, MAX_ATTEMPT_WAIT_MINUTES, MAX_ATTEMPTS } from './scales.js';

/** The survey configuration every concept reads: classes (a journey's extra questions), journeys and groups of stores. */

export const ClassConfig = v.strictObject({
  id,
  label: name(100),
  type: indicator,
  /** The class's question per language, e.g. { "pt-BR": "A entrega chegou no prazo?" }; by default one built on its label. */
  question: v.optional(localized(300)),
});
export type ClassConfig = v.InferOutput<typeof ClassConfig>;

/**
 * Which answers of a journey open a case (shared/cases/rules.ts): NPS detractors, the low third of another scale, a
 * score below `below`, any answer with a comment, or none. Absent: `detractor` for NPS, `low` for the other scales.
 */
export const CaseRuleConfig = v.strictObject({
  open: v.union(
    [
      v.picklist(['detractor', 'low', 'comment', 'none']),
      v.strictObject({ below: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1), v.maxValue(10)) }),
    ],
    'must be detractor, low, comment, none or { "below": n }',
  ),
  /** Business hours (the tenant's working hours) to the case's deadline. */
  deadlineHours: v.optional(wholeNumber(1, 720), CASE_RULE_DEFAULTS.deadlineHours),
  /** Whether the alert goes on WhatsApp too (outside quiet hours). */
  whatsapp: v.optional(v.boolean('must be true or false'), CASE_RULE_DEFAULTS.whatsapp),
});
export type CaseRuleConfig = v.InferOutput<typeof CaseRuleConfig>;

export const JourneyConfig = v.strictObject({
  id,
  slug: v.pipe(name(64), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes')),
  name: v.optional(name(200)),
  indicator,
  classes: v.pipe(v.array(id, 'must be a list of class ids'), v.maxLength(100, 'may list at most 100 classes')),
  channels: v.pipe(
    v.array(v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`)),
    v.minLength(1, 'must list at least one channel'),
    v.maxLength(CHANNELS.length, `may list at most ${CHANNELS.length} channels`),
  ),
  resurveyWindowDays: v.optional(v.nullable(wholeNumber(1, 3650)), JOURNEY_DEFAULTS.resurveyWindowDays),
  /** The journey's main question, as the survey asks it in any language ({loja} is the company); by default a question of its indicator. */
  question: v.optional(name(300)),
  /** The main question per language, before `question`. */
  questions: v.optional(localized(300)),
  /** The language of its surveys when the customer has none; the tenant's when absent. */
  locale: v.optional(locale),
  /**
   * Whether it surveys an order shipped to the customer (e-commerce: true) or a visit to a place (false); absent, either.
   * Its comments' themes read it (docs/themes.md): waiting in an online journey is delivery, arrival words in a place are not.
   */
  online: v.optional(v.boolean('must be true or false')),
  /** A follow-up question by the main score's bucket, per language (the comment's label); built-in ones when absent. */
  followUp: v.optional(byBucket(300)),
  /** The thank-you text by the main score's bucket, per language; built-in ones when absent. */
  thanks: v.optional(byBucket(500)),
  /** Results of fewer answers than this are flagged `low_sample` (their score says little yet); 5 when unset. */
  minSample: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000'))),
  /**
   * Each dimension of the journey's result counters is spread over this many partitions, summed on read
   * (shared/results/tally.ts): 1 for most tenants; a journey whose peak writes its counters past a tenth of a partition's 1,000 write units a
   * second needs more (docs/performance.md: `npm run bench -- scale` gives the number). Raise it, never lower it:
   * counters written under a larger number would go unread.
   */
  resultShards: v.optional(
    v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(256, 'must be at most 256')),
  ),
  /** Days a survey link stays valid after it is sent. */
  surveyValidityDays: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(90, 'must be at most 90')),
    JOURNEY_DEFAULTS.surveyValidityDays,
  ),
  /** Channels whose attempts go to the tenant's own chatbot (its webhook) instead of a message from this service. */
  handOff: v.optional(
    v.pipe(
      v.array(v.picklist(HAND_OFF_CHANNELS, `must be one of ${HAND_OFF_CHANNELS.join(', ')}`)),
      v.maxLength(HAND_OFF_CHANNELS.length, `may list at most ${HAND_OFF_CHANNELS.length} channels`),
    ),
    JOURNEY_DEFAULTS.handOff,
  ),
  /**
   * The survey's attempts in order, each `afterMinutes` after the previous one was sent (the first after the
   * transaction). Without it, one attempt on the first reachable channel of `channels`.
   */
  attempts: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
          afterMinutes: v.pipe(
            v.number('must be a number'),
            v.integer('must be an integer'),
            v.minValue(0, 'must be at least 0'),
            v.maxValue(MAX_ATTEMPT_WAIT_MINUTES, `must be at most ${MAX_ATTEMPT_WAIT_MINUTES} (30 days)`),
          ),
        }),
        'must be a list of { channel, afterMinutes }',
      ),
      v.minLength(1, 'must list at least one attempt'),
      v.maxLength(MAX_ATTEMPTS, `may list at most ${MAX_ATTEMPTS} attempts`),
    ),
  ),
  /** When an answer opens a case, its deadline and whether its alert goes on WhatsApp too. */
  cases: v.optional(CaseRuleConfig),
});
export type JourneyConfig = v.InferOutput<typeof JourneyConfig>;

export const GroupConfig = v.strictObject({ id, name: name(200) });
export type GroupConfig = v.InferOutput<typeof GroupConfig>;
/** A group as stored and answered. */
export const Group = v.object(GroupConfig.entries);
