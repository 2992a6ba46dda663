import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { dateTime, integerString, pagingQuery } from '../../shared/schema.js';
import { auditEntries } from '../../shared/adapters/wiring/tenant-admin.js';

/** A day stays a day (it bounds the whole day); a date-time becomes UTC, as the entries are sorted. */
const instant = v.pipe(
  dateTime,
  v.transform((value) => (value.length === 10 ? value : new Date(value).toISOString())),
);

const Query = v.strictObject({
  from: v.optional(instant),
  to: v.optional(instant),
  limit: v.optional(integerString(1, 100), '20'),
  cursor: pagingQuery.cursor,
});

const Entry = v.object({
  id: v.string(),
  at: v.string(),
  actor: v.union([v.object({ keyId: v.string() }), v.object({ operator: v.literal(true) })]),
  action: v.string(),
  changes: v.array(v.object({ path: v.string(), old: v.unknown(), new: v.unknown() })),
});

/** The tenant's admin changes, newest first: who (key id, or the operator), when, and each changed value. */
export const contract = {
  admin: true as const,
  query: Query,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    200: answer('Admin changes, newest first', v.object({ data: v.array(Entry), next_cursor: v.nullable(v.string()) })),
    403: problem('Not an admin key'),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await auditEntries(tenantId, query),
}));
