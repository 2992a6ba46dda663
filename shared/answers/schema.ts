import * as v from 'valibot';
import { calendarDate, integerString, MAX_INT_ID, pagingQuery, text, instant, transactionCode, wholeNumber } from '../schema.js';
import { BUCKETS, INDICATORS, type Indicator } from '../settings/scales.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { SENTIMENTS } from '../themes/ports.js';
import { ThemeSlug } from '../themes/themes.js';

export { BUCKETS, NPS_BUCKETS, SCALE_BUCKETS, bucketOf, scoresOf, type Bucket } from '../settings/scales.js';

/** The days listed when no `from` is given: the 30 before `to`, and it. */
export const DEFAULT_ANSWER_DAYS = 31;

export const AnswersQuery = v.strictObject({
  /** A journey's slug or id. */
  journey: v.optional(text(64)),
  store: v.optional(integerString(1, MAX_INT_ID)),
  /** Only the stores of this region and of its child regions (docs/regions.md). */
  region: v.optional(integerString(1, MAX_INT_ID)),
  employee: v.optional(integerString(1, MAX_INT_ID)),
  from: v.optional(calendarDate),
  to: v.optional(calendarDate),
  bucket: v.optional(v.picklist(BUCKETS, `must be one of ${BUCKETS.join(', ')}`)),
  class: v.optional(integerString(1, MAX_INT_ID)),
  has_comment: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  /** Only answers from one source (`qr`, `kiosk`, a channel, `api`...). */
  source: v.optional(v.picklist(Object.keys(RATING_SOURCES) as SourceName[], `must be one of ${Object.keys(RATING_SOURCES).join(', ')}`)),
  /** A theme's slug: answers whose comment mentions it. */
  theme: v.optional(ThemeSlug),
  sentiment: v.optional(v.picklist(SENTIMENTS, `must be one of ${SENTIMENTS.join(', ')}`)),
  /**
   * A theme and what the comment says of it, `<slug>:<polarity>` (`delivery:negative`): answers whose comment mentions
   * the theme with that polarity (`mixed` is its own). With `theme`, the same theme.
   */
  aspect: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        new RegExp(`^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?:(?:${SENTIMENTS.join('|')})$`),
        `must be a theme's slug and a polarity (${SENTIMENTS.join(', ')}), such as delivery:negative`,
      ),
    ),
  ),
  limit: pagingQuery.limit,
  cursor: pagingQuery.cursor,
});
export type AnswersQuery = v.InferOutput<typeof AnswersQuery>;

export const AnswerBody = v.object({
  /** The transaction answered (its id, and the caller's transaction_id when it sent one). */
  id: wholeNumber,
  transaction_id: transactionCode,
  answered_at: instant,
  journey: v.object({ id: wholeNumber, slug: v.string(), indicator: v.picklist(Object.keys(INDICATORS) as Indicator[]) }),
  store: wholeNumber,
  employee: wholeNumber,
  customer: v.object({ id: wholeNumber, name: v.nullable(v.string()) }),
  /** Where the answer came from: a survey channel, `chatbot`, or `api` for a rating registered with the sale. */
  channel: v.picklist(Object.keys(RATING_SOURCES) as SourceName[]),
  score: v.number(),
  bucket: v.nullable(v.picklist(BUCKETS)),
  comment: v.nullable(v.string()),
  classes: v.array(v.object({ class_id: wholeNumber, label: v.nullable(v.string()), score: v.number() })),
  /** The comment's sentiment, once analysed (within a minute of the answer); null before, and without a comment. */
  sentiment: v.nullable(v.picklist(SENTIMENTS)),
  /** The slugs of the themes its comment mentions, once analysed; null before, and without a comment. */
  themes: v.nullable(v.array(v.string())),
  /**
   * Each theme the comment mentions with the polarity of what it says of it (`chegou antes do prazo, mas veio quebrado`:
   * delivery positive, product negative); null as `themes`, [] for an answer analysed before mentions had a polarity.
   */
  aspects: v.nullable(v.array(v.object({ theme: v.string(), sentiment: v.picklist(SENTIMENTS) }))),
});
export type AnswerBody = v.InferOutput<typeof AnswerBody>;

export const AnswersBody = v.object({
  data: v.array(AnswerBody),
  limit: wholeNumber,
  /** Where the next page starts (also in the `Link` header, rel="next"); null on the last page. */
  next_cursor: v.nullable(v.string()),
});
export type AnswersBody = v.InferOutput<typeof AnswersBody>;
