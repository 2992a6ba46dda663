import * as v from 'valibot';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { phone } from '../customers/phone.js';
import { calendarDate, integerString, line, MAX_INT_ID, pagingQuery, paragraphs, text } from '../schema.js';
import { INDICATORS, type Indicator } from '../tenants/config-schema.js';
import { MAX_TRANSACTION_ID } from '../transaction-record.js';

const SURVEY_SOURCES = Object.keys(RATING_SOURCES).filter((name) => name !== 'api') as Exclude<SourceName, 'api'>[];
const sourceName = v.picklist(SURVEY_SOURCES, `must be one of ${SURVEY_SOURCES.join(', ')}`);
const sourceCode = v.picklist(
  Object.values(RATING_SOURCES).filter((code) => code !== RATING_SOURCES.api),
  'must be a RatingSource code',
);
export const sourceOfCode = (code: number): SourceName =>
  (Object.entries(RATING_SOURCES).find(([, c]) => c === code)?.[0] ?? 'api') as SourceName;

/** Survey status codes as the reference API reports them (3 = evaluated), with a readable name beside. */
export const SURVEY_STATUS_CODES = { scheduled: 1, answered: 3, expired: 4 } as const;

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

/** SurveyParametersDto: the query of GET /survey. */
export const SurveyQuery = v.strictObject({
  transactionId: integerString(1, MAX_TRANSACTION_ID),
  attemptId: integerString(1, 1000),
  journey: text(64),
  source: sourceName,
});
export type SurveyQuery = v.InferOutput<typeof SurveyQuery>;

export const ClassItemType = v.picklist(Object.keys(INDICATORS) as Indicator[], `must be one of ${Object.keys(INDICATORS).join(', ')}`);

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

/** The query of GET /public/rating/formbuilder. */
export const EvaluationsQuery = v.strictObject({
  ...pagingQuery,
  start_date: calendarDate,
  end_date: calendarDate,
});
export type EvaluationsQuery = v.InferOutput<typeof EvaluationsQuery>;

export const EvaluationQuery = v.strictObject({
  is_external: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.transform((value) => value === 'true'),
    ),
    'false',
  ),
});

export const EvaluationPath = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(100, 'must be at most 100 characters')),
});

export const EvaluationBody = v.object({
  id: v.number(),
  transaction_id: v.nullable(v.string()),
  transaction: v.number(),
  journey: v.string(),
  store_id: v.number(),
  employee_id: v.number(),
  customer_id: v.number(),
  score: v.nullable(v.number()),
  comment: v.nullable(v.string()),
  items: v.array(v.object({ classId: v.number(), label: v.string(), type: v.string(), score: v.number() })),
  source: v.picklist(Object.keys(RATING_SOURCES) as SourceName[]),
  src: v.number(),
  answered_at: v.string(),
  created_at: v.string(),
});
export type Evaluation = v.InferOutput<typeof EvaluationBody>;

const Scale = v.object({ min: v.number(), max: v.number() });
/** What GET /survey answers. */
export const SurveyView = v.object({
  transactionId: v.number(),
  attemptId: v.number(),
  journey: v.string(),
  indicator: ClassItemType,
  scale: Scale,
  classes: v.array(v.object({ classId: v.number(), label: v.string(), type: ClassItemType, scale: Scale })),
  customerFirstName: v.string(),
  channel: v.nullable(v.string()),
  status: v.picklist(['scheduled', 'answered', 'expired']),
  statusCode: v.number(),
});
