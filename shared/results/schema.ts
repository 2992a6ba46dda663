import * as v from 'valibot';
import { calendarDate, integerString, MAX_INT_ID, text } from '../schema.js';
import { GROUPINGS } from './service.js';

export const ResultsQuery = v.strictObject({
  journey: text(64),
  from: calendarDate,
  to: calendarDate,
  group_by: v.picklist(GROUPINGS, `must be one of ${GROUPINGS.join(', ')}`),
  store: v.optional(integerString(1, MAX_INT_ID)),
  employee: v.optional(integerString(1, MAX_INT_ID)),
});

const Nps = v.object({
  score: v.number(),
  promoters: v.number(),
  passives: v.number(),
  detractors: v.number(),
  /** The 95% interval of the score: [low, high]. */
  ci95: v.pipe(v.array(v.number()), v.length(2, 'is a [low, high] pair')),
});

export const ResultRowBody = v.object({
  key: v.string(),
  label: v.string(),
  responses: v.number(),
  sent: v.number(),
  response_rate: v.nullable(v.number()),
  mean: v.nullable(v.number()),
  scale: v.object({ min: v.number(), max: v.number() }),
  nps: v.nullable(Nps),
  low_sample: v.boolean(),
});

export const ReportBody = v.object({
  journey: v.object({ id: v.number(), slug: v.string(), indicator: v.string() }),
  from: v.string(),
  to: v.string(),
  group_by: v.picklist(GROUPINGS),
  min_sample: v.number(),
  data: v.array(ResultRowBody),
});
