import * as v from 'valibot';
import { RATING_SOURCES } from '../channels.js';
import { phone } from '../customers/phone.js';
import { line, MAX_INT_ID, paragraphs, text } from '../schema.js';
import { MAX_TRANSACTION_ID } from '../transaction-id.js';
import { ClassItemType, sourceName } from './schema.js';

/*
 * The answer's body, apart from the other survey schemas: it takes a phone, and only the functions that take answers
 * should bundle the phone rules (libphonenumber and its metadata, 117 KiB), not those that list or read evaluations.
 */

const sourceCode = v.picklist(
  Object.values(RATING_SOURCES).filter((code) => code !== RATING_SOURCES.api),
  'must be a RatingSource code',
);
const transactionId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(MAX_TRANSACTION_ID, 'is too large'),
);
const attemptId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(1000, 'is too large'),
);
const score = v.pipe(v.number('must be a number'), v.finite('must be a number'));

/** SurveyDto: the body of POST and PUT /survey. */
export const SurveyBody = v.pipe(
  v.strictObject({
    transactionId,
    attemptId,
    journey: text(64),
    classes: v.pipe(
      v.array(
        v.strictObject({
          classId: v.pipe(v.number('must be a number'), v.integer(), v.minValue(1), v.maxValue(MAX_INT_ID)),
          label: text(100),
          score: v.optional(score),
          type: ClassItemType,
        }),
        'must be a list',
      ),
      v.maxLength(100, 'may hold at most 100 classes'),
    ),
    score,
    comment: v.optional(paragraphs(2000)),
    src: v.optional(sourceCode),
    source: v.optional(sourceName),
    name: v.optional(text(200)),
    /** The respondent's phone, as a customer's: normalised to E.164. */
    phone: v.optional(phone),
    storeId: v.optional(line(100)),
    employeeId: v.optional(line(100)),
  }),
  v.forward(
    v.check(
      (body) => body.src === undefined || body.source === undefined || RATING_SOURCES[body.source] === body.src,
      'names another source than src',
    ),
    ['source'],
  ),
  v.forward(
    v.check((body) => new Set(body.classes.map((c) => c.classId)).size === body.classes.length, 'may name each class once'),
    ['classes'],
  ),
);
export type SurveyBody = v.InferOutput<typeof SurveyBody>;
