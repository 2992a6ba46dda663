import * as v from 'valibot';
import { instant, integerString, MAX_INT_ID, wholeNumber } from '../schema.js';
import { DIGEST_PERIODS } from './figures.js';

const period = v.picklist(DIGEST_PERIODS, `must be one of ${DIGEST_PERIODS.join(', ')}`);

/** GET /public/digest: the period (a week by default), and optionally one store of the user's scope. */
export const DigestQuery = v.strictObject({
  period: v.optional(period, 'week'),
  store: v.optional(integerString(1, MAX_INT_ID)),
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
  store_id: wholeNumber,
  score: wholeNumber,
  status: v.string(),
  overdue: v.boolean(),
  due_at: instant,
  /** The case's page in the workspace (relative to the API's base in this answer). */
  link: v.string(),
});

/** The digest's figures as GET /public/digest answers them (shared/digest/figures.ts). */
export const DigestBody = v.object({
  period,
  from: v.string(),
  to: v.string(),
  previous: v.object({ from: v.string(), to: v.string() }),
  store: v.nullable(wholeNumber),
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
    }),
  ),
  cases: v.object({ open: v.array(Case), overdue: v.array(Case), more: v.boolean() }),
  /** The themes most mentioned by detractors (low scores on other scales), each with one such comment, redacted; empty without analysis. */
  themes: v.array(v.object({ theme: v.string(), name: v.string(), detractors: wholeNumber, example: v.nullable(v.string()) })),
});
