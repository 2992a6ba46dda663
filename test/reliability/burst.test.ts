import { describe, expect, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { newTenant } from '../support/tenant.js';
import { v2Payload } from '../support/transactions.js';
import { FULL } from './fixtures.js';

/** A burst of v2 transactions through the local stack (API, queue, consumer): every one ends created or rejected. */
const TOTAL = FULL ? 10_000 : 300;
const api = overHttp();

async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

describe('a burst of v2 transactions', () => {
  it(
    `ends with all ${TOTAL} created or rejected, in the right numbers, none lost`,
    async () => {
      const tenant = await newTenant();
      const started = Date.now();
      // Every fifth is refused by a rule (a class the journey does not offer); the rest are valid.
      const posted = await inParallel(TOTAL, 20, async (i) => {
        const payload = v2Payload(i % 5 === 0 ? { ratingItems: [{ classId: 4, score: 5 }] } : {});
        const res = await api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body: payload });
        expect(res.status).toBe(201);
        return res.headers['x-request-id']!;
      });
      const accepted = Date.now();

      const outcomes = await inParallel(TOTAL, 20, async (i) => {
        for (let attempt = 0; attempt < 600; attempt++) {
          const res = await api({ path: `/v2/transactions/requests/${posted[i]}`, key: tenant.key });
          if (res.body.status !== 'pending') return res.body.status as string;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        return 'pending';
      });
      const rejected = Math.ceil(TOTAL / 5);
      expect(outcomes.filter((s) => s === 'rejected')).toHaveLength(rejected);
      expect(outcomes.filter((s) => s === 'created')).toHaveLength(TOTAL - rejected);
      console.info(
        `burst: ${TOTAL} accepted in ${accepted - started} ms, all decided after ${Date.now() - started} ms (${TOTAL - rejected} created, ${rejected} rejected, 0 lost)`,
      );
    },
    FULL ? 1_200_000 : 120_000,
  );
});
