import * as v from 'valibot';
import { integerString, MAX_INT_ID, instant } from '../schema.js';
import type { AccessEntry, AccessLog } from './ports.js';

/** GET /public/privacy/access: one customer's reads, newest first; `before` pages back. */
export const AccessQuery = v.strictObject({
  customer: integerString(1, MAX_INT_ID),
  limit: v.optional(integerString(1, 100), '50'),
  before: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(40, 'must be at most 40 characters'),
      v.isoTimestamp('must be a timestamp (the at of the last entry of the previous page)'),
    ),
  ),
});

export const AccessBody = v.object({
  at: instant,
  operation: v.string(),
  key_id: v.nullable(v.string()),
  user: v.nullable(v.string()),
  request_id: v.string(),
});

/** Who made a request that read personal data. */
export type Reader = Pick<AccessEntry, 'operation' | 'keyId' | 'user' | 'requestId'>;

/**
 * The access log as requests use it: a read is recorded before it is answered (a read whose record cannot be
 * written answers an error, not the data), and listed for one customer.
 */
export function accessService(log: AccessLog) {
  /** `at` is when the read was made, now unless given (an export was read when it was generated). */
  async function recordReads(tenantId: number, customerIds: number[], reader: Reader & { at?: string }): Promise<void> {
    const { at = new Date().toISOString(), ...who } = reader;
    if (customerIds.length) await log.record(tenantId, { ...who, customerIds, at });
  }

  async function readsOf(tenantId: number, { customer, limit, before }: v.InferOutput<typeof AccessQuery>) {
    const entries = await log.list(tenantId, customer, { limit, before });
    return {
      data: entries.map((entry) => ({
        at: entry.at,
        operation: entry.operation,
        key_id: entry.keyId,
        user: entry.user,
        request_id: entry.requestId,
      })),
    };
  }

  return { recordReads, readsOf };
}
