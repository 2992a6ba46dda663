import * as v from 'valibot';
import { PAGING } from './paging.js';

/** Building blocks every resource schema uses, so that one bound is written once. */

export const MAX_INT_ID = 2_147_483_647;

/** A non-empty string of at most `max` characters, trimmed. */
export const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

/** An external code chosen by the client (store_id, employee_id, client_id...): a string, never a number. */
export const externalCode = v.pipe(
  v.string('must be a string (send numeric codes in quotes)'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.regex(/^[^\p{Cc}]+$/u, 'must not contain control characters'),
);

/** An e-mail address, lower-cased so that searches match whatever case was sent. */
export const email = v.pipe(v.string('must be a string'), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be an e-mail address'), v.toLowerCase());

/** An integer sent as a string (path and query parameters). */
export const integerString = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,16}$/, 'must be an integer'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const IdPath = v.strictObject({ id: integerString(1, MAX_INT_ID) });

export const pagingQuery = {
  limit: v.optional(integerString(1, PAGING.maxLimit), String(PAGING.defaultLimit)),
  page: v.optional(integerString(1, MAX_INT_ID), '1'),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'))),
};

export const timestamps = {
  created_at: v.string(),
  updated_at: v.string(),
};

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

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
/** Whether a YYYY-MM-DD string names a day that exists (1998-04-31 does not). */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
export const dateShape = v.pipe(v.string('must be a string'), v.regex(DATE_SHAPE, 'must be a date as YYYY-MM-DD'));
export const calendarDate = v.pipe(dateShape, v.check(isCalendarDate, 'is not a valid calendar date'));
