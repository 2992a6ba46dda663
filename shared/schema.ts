import * as v from 'valibot';
import { CALENDAR, CALENDAR_DATE_MESSAGE, DATE_SHAPE, isCalendarDate } from './dates.js';
import { PAGING } from './paging.js';
import { textProblem } from './text.js';

/** Building blocks every resource schema uses, so that one bound is written once. */

export const MAX_INT_ID = 2_147_483_647;

/** The free-text rule (shared/text.ts) as a validation step; `lines` lets a field hold new lines. */
export const freeText = (options: { lines?: boolean } = {}) =>
  Object.assign(
    v.rawCheck<string>(({ dataset, addIssue }) => {
      const problem = dataset.typed ? textProblem(dataset.value, options) : undefined;
      if (problem) addIssue({ message: problem });
    }),
    // Marked, so that a test can find every string of a request that escapes the rule.
    { freeText: true as const },
  );

/** A non-empty line of free text of at most `max` characters, trimmed (a name, a label, a trade name). */
export const text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    freeText(),
  );

/** A line of free text of at most `max` characters, trimmed, possibly empty. */
export const line = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${max} characters`), freeText());

/** Free text of at most `max` characters that may hold new lines (a comment), kept as sent. */
export const paragraphs = (max: number) =>
  v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`), freeText({ lines: true }));

/**
 * Characters no code should hold: control and format characters (zero-width spaces, bidirectional overrides),
 * surrogates, private-use and unassigned code points, line and paragraph separators. Two codes that look alike
 * would otherwise name two entities.
 */
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** An external code chosen by the client (store_id, employee_id, client_id...): a string, never a number; NFC. */
export const externalCode = v.pipe(
  v.string('must be a string (send numeric codes in quotes)'),
  v.check((value) => value.isWellFormed(), 'must not contain unpaired surrogates'),
  v.transform((value) => value.normalize('NFC').trim()),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.check((value) => !INVISIBLE.test(value), 'must not contain control or invisible characters'),
);

/**
 * A number DynamoDB stores exactly as sent: finite, an integer no larger than 2^53-1 in magnitude (the SDK refuses
 * larger ones, and doubles lose their digits), and zero or at least 1e-130 in magnitude (the table's smallest).
 */
export const storableNumber = v.pipe(
  v.number('must be a number'),
  v.check(
    (n) => Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= 1e-130),
    'must be a number between -9007199254740991 and 9007199254740991, zero or at least 1e-130 in magnitude',
  ),
);

/** An e-mail address, lower-cased so that searches match whatever case was sent. */
export const email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an e-mail address'),
  v.toLowerCase(),
);

/**
 * An integer sent as a string (path and query parameters). Its metadata gives the OpenAPI document its JSON Schema:
 * an integer, as a client sends it, rather than the text the pipe reads.
 */
export const integerString = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,16}$/, 'must be an integer'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.metadata({ jsonSchema: { type: 'integer', minimum: min, maximum: max } }),
  );

export const IdPath = v.strictObject({ id: integerString(1, MAX_INT_ID) });

export const pagingQuery = {
  limit: v.optional(integerString(1, PAGING.maxLimit), String(PAGING.defaultLimit)),
  page: v.optional(integerString(1, MAX_INT_ID), '1'),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'))),
};

/**
 * A whole number as the service answers it (an id, a count, a version): a safe integer, which JavaScript holds exactly
 * and writes as it is (an int64 in the OpenAPI document).
 */
export const wholeNumber = v.pipe(
  v.number(),
  v.safeInteger(),
  v.metadata({ jsonSchema: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } }),
);
/**
 * `transaction_id` wherever the service answers it (a transaction, an evaluation, an answer, a case): the caller's own
 * code for the sale, never an internal id (issue 45 §1). One schema, so that the OpenAPI document types and describes
 * it once.
 */
export const transactionCode = v.pipe(
  v.nullable(v.string()),
  v.description("The caller's own code for the sale, as sent in transaction_id; null when it sent none"),
);
/** An instant as the service answers it, in UTC as Date.toISOString writes it: format date-time in the OpenAPI document. */
export const instant = v.pipe(v.string(), v.isoTimestamp());

export const timestamps = {
  created_at: instant,
  updated_at: instant,
};

/** Keys valibot's records and loose objects drop without a word: a body that sends one is told instead. */
export const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
export const refusingReservedKeys = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(
    v.unknown(),
    v.rawCheck(({ dataset, addIssue }) => {
      const value = dataset.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const key of RESERVED_KEYS.filter((name) => Object.hasOwn(value, name))) {
        addIssue({
          message: `"${key}" is a reserved name`,
          path: [
            {
              type: 'object',
              origin: 'value',
              input: value as Record<string, unknown>,
              key,
              value: (value as Record<string, unknown>)[key],
            },
          ],
        });
      }
    }),
    schema,
  );

/** The body of an edit: only the given fields, at least one of them, nothing else (id, status or timestamps). */
export const changesOf = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    v.strictObject(entries),
    v.check((body) => Object.keys(body).length > 0, `send at least one of ${Object.keys(entries).join(', ')}`),
  );

/** A valibot issue in words a client can act on. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  // strictObject reports an unknown key as "expected never".
  if (issue.expected === 'never') return 'is not a known field';
  if (issue.kind === 'schema' && issue.received === 'undefined') return 'is required';
  return issue.message;
}

const DATE_TIME_SHAPE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A birth date: a calendar date that is not in the future. */
export const isBirthDate = (value: string, today = new Date()): boolean =>
  isCalendarDate(value) && value <= today.toISOString().slice(0, 10);

/** An ISO 8601 date or date-time (with a time zone) whose day exists, within CALENDAR's years. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME_SHAPE.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return false;
  return value.length === 10 || !Number.isNaN(Date.parse(value));
}

export const dateShape = v.pipe(v.string('must be a string'), v.regex(DATE_SHAPE, 'must be a date as YYYY-MM-DD'));
export const calendarDate = v.pipe(dateShape, v.check(isCalendarDate, CALENDAR_DATE_MESSAGE));
export const birthDate = v.pipe(
  dateShape,
  v.check((value) => isBirthDate(value), 'is not a valid birth date (a calendar date, not in the future)'),
);
export const dateTime = v.pipe(
  v.string('must be a string'),
  v.maxLength(40, 'must be at most 40 characters'),
  v.check(
    isDateTime,
    `must be a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ) of a day that exists, between ${CALENDAR.minYear} and ${CALENDAR.maxYear}`,
  ),
);
/** A day or a date-time taken as an instant: a day stays a day (it bounds the whole day), a date-time becomes UTC. */
export const utcInstant = v.pipe(
  dateTime,
  v.transform((value) => (value.length === 10 ? value : new Date(value).toISOString())),
);
