import autocannon from 'autocannon';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { newTenant } from '../support/tenant.js';
import { FULL } from './fixtures.js';

/**
 * The local gateway under load (loopback only, bounded in connections and time): mixed reads and writes, no
 * errors, and the table afterwards holds exactly what was acknowledged.
 */
const SECONDS = FULL ? 30 : 5;
const CONNECTIONS = 10;

describe('load on the local gateway', () => {
  it(`serves ${CONNECTIONS} connections for ${SECONDS} s of mixed reads and writes without an error or a lost write`, async () => {
    const tenant = await newTenant();
    const headers = { 'x-service-api-key': tenant.key, 'content-type': 'application/json' };
    let created = 0;
    const result = await autocannon({
      url: inject('publicUrl'),
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        { method: 'GET', path: '/public/store/1', headers },
        { method: 'GET', path: '/public/store?limit=5', headers },
        {
          method: 'POST',
          path: '/public/store',
          headers,
          body: JSON.stringify({ trade_name: 'Load' }),
          onResponse: (status: number) => {
            if (status === 201) created++;
          },
        },
      ],
    });
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);

    let stored = 0;
    let cursor: string | null = null;
    do {
      const res = await overHttp()({ path: '/public/store', key: tenant.key, query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      stored += res.body.data.length;
      cursor = res.body.next_cursor;
    } while (cursor);
    // Every acknowledged create is stored; at most one request per connection was still in flight when the run
    // stopped, and may be stored without its answer having been read.
    expect(stored - 1).toBeGreaterThanOrEqual(created);
    expect(stored - 1).toBeLessThanOrEqual(created + CONNECTIONS);
    console.info(
      `load: ${result.requests.total} requests in ${SECONDS} s (${Math.round(result.requests.average)}/s), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${created} stores created and ${stored - 1} found, 0 errors`,
    );
  }, 120_000);
});
