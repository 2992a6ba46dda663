import { beforeAll, describe, expect, it } from 'vitest';
import { handler as privacyConsumer } from '../../functions/queue/privacy-requests.js';
import { lambdaContext } from '../../infra/local/events.js';
import { MAX_OPEN_PRIVACY_REQUESTS, OPEN_REQUESTS_RETRY_SECONDS } from '../../shared/privacy/open-requests.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** A tenant's pending privacy requests are bounded, exactly, whatever arrives at once. */
const api = inProcess('public');
const privacyQueue = usePrivateQueue('privacy');
let tenant: TestTenant;
let other: TestTenant;

const submit = (who: TestTenant, n: number) =>
  api({
    method: 'POST',
    path: '/public/privacy/requests',
    key: who.key,
    headers: { 'x-service-user-token': who.userToken },
    body: { type: 'export', client_id: `BOUND-${n}` },
  });

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
});

describe('open privacy requests', () => {
  it(`are at most ${MAX_OPEN_PRIVACY_REQUESTS} per tenant: beyond, a 429 with Retry-After naming the bound; a finished one frees a place`, async () => {
    const extra = 30;
    const answers = await Promise.all(Array.from({ length: MAX_OPEN_PRIVACY_REQUESTS + extra }, (_, n) => submit(tenant, n)));
    const statuses: Record<number, number> = {};
    for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    // Every status counted: a failure names what the others were answered.
    expect(statuses).toEqual({ 202: MAX_OPEN_PRIVACY_REQUESTS, 429: extra });
    const refused = answers.filter((res) => res.status === 429);
    for (const res of refused) {
      expect(res.headers['retry-after']).toBe(String(OPEN_REQUESTS_RETRY_SECONDS));
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.body).toMatchObject({ type: '/problems/too-many', status: 429 });
      expect(res.body.detail).toContain(`at most ${MAX_OPEN_PRIVACY_REQUESTS} privacy requests pending`);
    }
    // Another tenant is not held back.
    expect((await submit(other, 0)).status).toBe(202);

    // One request is worked on (done): its place goes to the next request, and only to one.
    const queued = (await privacyQueue.drain()) as { tenantId: number; requestId: string }[];
    const first = queued.find((message) => message.tenantId === tenant.tenantId)!;
    const { batchItemFailures } = await privacyConsumer(sqsEvent([first], { queue: 'PrivacyQueue' }), lambdaContext('privacyRequests'));
    expect(batchItemFailures).toEqual([]);
    const read = await api({
      path: `/public/privacy/requests/${first.requestId}`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(read.body.status).toBe('done');
    const next = await Promise.all([1, 2, 3].map((n) => submit(tenant, 1000 + n)));
    expect(next.map((res) => res.status).sort()).toEqual([202, 429, 429]);
    // 83 requests at once: 6 s alone, 20 s beside CI's other tiers and a CPU-bound process.
  }, 60_000);
});
