import * as v from 'valibot';
import { calendarDate, instant, integerString, MAX_INT_ID, wholeNumber } from '../schema.js';
import { DIGEST_PERIODS } from './figures.js';

const period = v.picklist(DIGEST_PERIODS, `must be one of ${DIGEST_PERIODS.join(', ')}`);

/** GET /public/digest: the period (a week by default), and optionally one store of the user's scope. */
export const DigestQuery = v.strictObject({
  period: v.optional(period, 'week'),
  store: v.optional(integerString(1, MAX_INT_ID)),
  /** A period of the reader's own, both days in the tenant's calendar and included, up to 31 days: instead of `period`. */
  from: v.optional(calendarDate),
  to: v.optional(calendarDate),
});

/** POST /public/admin/digests: the current period's digests, now. */
export const DigestRequestBody = v.strictObject({ period });

/** The digest queue's message: one user's digest of one period (no personal data but the user's name, an e-mail address). */
export const DigestMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  period,
  /** The period's first day: with the user, what the claim is on (one digest per user and period). */
  from: v.string(),
  /** The user (their name); none: the tenant's scheduled run, which queues one message per user (and chat endpoint). */
  user: v.optional(v.string()),
  /** A chat endpoint that takes the digest (its URL): the period's summary for its stores, instead of a user's e-mail. */
  chat: v.optional(v.string()),
  /** When a scheduled run is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type DigestMessage = v.InferOutput<typeof DigestMessage>;

const interval = v.nullable(v.pipe(v.array(v.number()), v.length(2, 'is a [low, high] pair')));
const Ranked = v.object({ key: v.string(), label: v.string(), responses: wholeNumber, score: v.nullable(v.number()), ci95: interval });
const Case = v.object({
  id: wholeNumber,
  /** The case's short number in the tenant; null for a case opened before numbers. */
  number: v.nullable(wholeNumber),
  store_id: wholeNumber,
  /** The store's name. */
  store: v.string(),
  score: wholeNumber,
  status: v.string(),
  overdue: v.boolean(),
  opened_at: instant,
  /** Whole days since it opened. */
  age_days: wholeNumber,
  due_at: instant,
  /** Its one person, or null: no owner. */
  owner: v.nullable(v.string()),
  /** The case's page in the workspace (relative to the API's base in this answer). */
  link: v.string(),
});
const Change = v.nullable(v.object({ value: v.number(), low: v.number(), high: v.number(), significant: v.boolean() }));
const ScopeRow = v.object({
  id: wholeNumber,
  name: v.string(),
  /** Its answers in the period (named so, not `responses`, which OWASP's rules read as an operation's). */
  answers: wholeNumber,
  score: v.nullable(v.number()),
  /** Against the period of as many days before, its 95% interval, and whether that excludes zero (beyond chance). */
  change: Change,
  /** Fell beyond chance, or among the lowest scores: listed first. */
  attention: v.boolean(),
});

/** The digest's figures as GET /public/digest answers them (shared/digest/figures.ts). */
export const DigestBody = v.object({
  /** `range` when `from` and `to` were asked for, unless they are one day (`day`) or a Monday-to-Sunday week (`week`). */
  period: v.picklist([...DIGEST_PERIODS, 'range']),
  from: v.string(),
  to: v.string(),
  previous: v.object({ from: v.string(), to: v.string() }),
  store: v.nullable(wholeNumber),
  /** What to do first: the store and theme whose negative mentions rose most beyond chance, else the oldest overdue case, else none. */
  first: v.variant('kind', [
    v.object({
      kind: v.literal('theme'),
      store_id: wholeNumber,
      store: v.string(),
      theme: v.string(),
      name: v.string(),
      negative: wholeNumber,
      previous_negative: wholeNumber,
      link: v.string(),
    }),
    v.object({ kind: v.literal('case'), case: Case, link: v.string() }),
    v.object({ kind: v.literal('none') }),
  ]),
  journeys: v.array(
    v.object({
      journey: v.object({ id: wholeNumber, slug: v.string(), name: v.string(), indicator: v.string() }),
      /** NPS for an NPS journey, else the mean score; null without answers. */
      score: v.nullable(v.number()),
      ci95: interval,
      previous_score: v.nullable(v.number()),
      /** The change of NPS against the period before, its 95% interval, and whether that excludes zero. */
      change: v.nullable(v.object({ delta: v.number(), ci95: v.array(v.number()), significant: v.boolean() })),
      responses: wholeNumber,
      sent: wholeNumber,
      response_rate: v.nullable(v.number()),
      recovery_answers: wholeNumber,
      recovery_rate: v.nullable(v.number()),
      ranked_by: v.picklist(['store', 'employee']),
      /** Best by the lower end of the 95% interval, worst by the upper end; rows under the journey's minimum apart. */
      ranking: v.object({ best: v.array(Ranked), worst: v.array(Ranked), few: v.array(Ranked) }),
      /** A reader of regions: their regions, those needing attention first. */
      regions: v.array(ScopeRow),
      /** The scope's stores by name, those needing attention first, 10 at most. */
      stores: v.array(ScopeRow),
      /** How many more stores than are listed. */
      more_stores: wholeNumber,
    }),
  ),
  /** Whether the period had any answer in the scope. */
  answered: v.boolean(),
  /** A period without answers: the last weeks that had any (4 at most, most recent first). */
  last_weeks: v.array(v.object({ from: v.string(), to: v.string(), answers: wholeNumber })),
  /** Overdue cases newest overdue first; the other open cases first due first. */
  cases: v.object({ open: v.array(Case), overdue: v.array(Case), more: v.boolean() }),
  /** The top complaints (negative mentions), whether they rose beyond chance, and up to two redacted comments each. */
  themes: v.array(
    v.object({
      theme: v.string(),
      name: v.string(),
      negative: wholeNumber,
      previous_negative: wholeNumber,
      rose: v.boolean(),
      examples: v.array(v.string()),
    }),
  ),
  /** What customers praised most (positive mentions). */
  praise: v.array(v.object({ theme: v.string(), name: v.string(), positive: wholeNumber })),
});
