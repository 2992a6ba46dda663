import * as v from 'valibot';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { calendarDate, integerString, pagingQuery, text, instant, transactionCode, wholeNumber } from '../schema.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';
import { MAX_TRANSACTION_ID } from '../transaction-id.js';

const SURVEY_SOURCES = Object.keys(RATING_SOURCES).filter((name) => name !== 'api') as Exclude<SourceName, 'api'>[];
export const sourceName = v.picklist(SURVEY_SOURCES, `must be one of ${SURVEY_SOURCES.join(', ')}`);
export const sourceOfCode = (code: number): SourceName =>
  (Object.entries(RATING_SOURCES).find(([, c]) => c === code)?.[0] ?? 'api') as SourceName;

/** Survey status codes as the reference API reports them (3 = evaluated), with a readable name beside. */
export const SURVEY_STATUS_CODES = { scheduled: 1, answered: 3, expired: 4 } as const;

/** SurveyParametersDto: the query of GET /survey. */
export const SurveyQuery = v.strictObject({
  transactionId: integerString(1, MAX_TRANSACTION_ID),
  attemptId: integerString(1, 1000),
  journey: text(64),
  source: sourceName,
});
export type SurveyQuery = v.InferOutput<typeof SurveyQuery>;

export const ClassItemType = v.picklist(Object.keys(INDICATORS) as Indicator[], `must be one of ${Object.keys(INDICATORS).join(', ')}`);

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
  id: wholeNumber,
  transaction_id: transactionCode,
  transaction: wholeNumber,
  journey: v.string(),
  store_id: wholeNumber,
  employee_id: wholeNumber,
  customer_id: wholeNumber,
  score: v.nullable(v.number()),
  comment: v.nullable(v.string()),
  items: v.array(v.object({ classId: wholeNumber, label: v.string(), type: v.string(), score: v.number() })),
  source: v.picklist(Object.keys(RATING_SOURCES) as SourceName[]),
  src: wholeNumber,
  answered_at: instant,
  created_at: instant,
});
export type Evaluation = v.InferOutput<typeof EvaluationBody>;

const Scale = v.object({ min: v.number(), max: v.number() });
/** What GET /survey answers. */
export const SurveyView = v.object({
  transactionId: wholeNumber,
  attemptId: wholeNumber,
  journey: v.string(),
  indicator: ClassItemType,
  scale: Scale,
  classes: v.array(v.object({ classId: wholeNumber, label: v.string(), type: ClassItemType, scale: Scale })),
  customerFirstName: v.string(),
  channel: v.nullable(v.string()),
  status: v.picklist(['scheduled', 'answered', 'expired']),
  statusCode: v.number(),
});
