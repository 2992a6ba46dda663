import { describe, expect, it } from 'vitest';
import type { PrivacyRequestRecord } from '../../shared/privacy/ports.js';
import type { PrivacyMessage } from '../../shared/privacy/schema.js';
import { CONSUMER_TIMEOUT_SECONDS } from '../../shared/queues.js';
import { erase, ERASURE_RECHECK_SECONDS, erasureRecheckSeconds, privacyService, STRIP_TRIES } from '../../shared/privacy/service.js';
import { memorySubjects, type MemoryTransaction } from '../support/memory.js';

/** An erasure's steps against writes that land between them, in a set order (issue 29, H1). */

const TENANT = 1;
const CUSTOMER = 7;
const MARK = { requestId: 'pr_unit', at: '2026-11-23T12:00:00.000Z' };

const sale = (id: number, more: Partial<MemoryTransaction> = {}): MemoryTransaction => ({
  id,
  customerId: CUSTOMER,
  customerName: 'Raquel Souza',
  contact: 'raquel@example.com',
  comment: null,
  respondent: null,
  params: { pedido: 'para Raquel' },
  detail: null,
  ...more,
});

const personal = (t: MemoryTransaction) =>
  [t.customerName, t.contact, t.comment, t.respondent, t.detail].filter((v) => v !== null).concat(Object.keys(t.params));

function world(pauses: Parameters<typeof memorySubjects>[0] = {}, ...sales: MemoryTransaction[]) {
  const memory = memorySubjects(pauses);
  for (const t of sales) memory.transactions.set(t.id, t);
  return memory;
}

describe('an erasure and the writes that land while it works', () => {
  it('refuses an answer that lands between its read and its strip: the mark came first', async () => {
    const outcomes: string[] = [];
    const memory = world(
      { beforeStrip: async (id) => void outcomes.push(memory.answer(id, 'Sou a Raquel, 11987654321', 'Raquel')) },
      sale(1),
    );

    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK });

    expect(outcomes).toEqual(['missing']);
    expect(personal(memory.transactions.get(1)!)).toEqual([]);
    expect(memory.transactions.get(1)!.erasedAt).toBe(MARK.at);
  });

  it('strips an answer that landed after the transactions were listed and before the mark', async () => {
    const outcomes: string[] = [];
    const memory = world({ beforeMark: async () => void outcomes.push(memory.answer(2, 'Raquel aqui', 'Raquel')) }, sale(1), sale(2));

    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK });

    expect(outcomes).toEqual(['written']);
    expect([...memory.transactions.values()].flatMap(personal)).toEqual([]);
  });

  it("reads again when a write that ignores the mark (a provider's refusal naming the address) lands before the strip", async () => {
    let failed = false;
    const memory = world(
      {
        beforeStrip: async (id) => {
          if (failed) return;
          failed = true;
          memory.fail(id, 'MessageRejected: raquel@example.com is not verified');
        },
      },
      sale(1),
    );

    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK });

    expect(memory.calls).toEqual({ marks: 1, strips: 2, refusedStrips: 1 });
    expect(personal(memory.transactions.get(1)!)).toEqual([]);
  });

  it('judges a transaction by what it holds, not by its mark: a later pass strips what an earlier one left', async () => {
    // The state the race left before the fix: marked erased, and still holding the answer.
    const memory = world(
      {},
      sale(1, { erasedAt: '2026-11-22T00:00:00.000Z', customerName: null, contact: null, comment: 'Raquel', respondent: 'Raquel' }),
    );

    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK });

    expect(personal(memory.transactions.get(1)!)).toEqual([]);
    expect(memory.calls.marks).toBe(0);
    // The first mark stays.
    expect(memory.transactions.get(1)!.erasedAt).toBe('2026-11-22T00:00:00.000Z');
  });

  it('writes nothing more when run again (no mark, no strip), and keeps the first request on the customer', async () => {
    const memory = world({}, sale(1), sale(2));
    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK });
    const calls = { ...memory.calls };

    await erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: { requestId: 'pr_again', at: '2026-11-24T00:00:00.000Z' } });

    expect(memory.calls).toEqual(calls);
    expect(memory.customers.get(CUSTOMER)).toEqual({ erasedBy: MARK.requestId });
  });

  it('fails, for the queue to try again, when a transaction keeps changing under it, and leaves the customer as it was', async () => {
    let n = 0;
    const memory = world({ beforeStrip: async (id) => memory.fail(id, `refused ${n++}`) }, sale(1));

    await expect(erase(memory.subjects, TENANT, { customerId: CUSTOMER, mark: MARK })).rejects.toThrow(
      '1 transactions kept changing while they were erased',
    );

    expect(memory.calls).toEqual({ marks: 1, strips: STRIP_TRIES, refusedStrips: STRIP_TRIES });
    expect(memory.customers.has(CUSTOMER)).toBe(false);
  });
});

/** A privacy service over the memory subjects, with its requests and queue in memory too. */
function service(memory: ReturnType<typeof world>, recheckSeconds = 7) {
  const requests = new Map<string, PrivacyRequestRecord>();
  const queued: { message: PrivacyMessage; delaySeconds: number }[] = [];
  const privacy = privacyService({
    requests: {
      insert: async (_tenantId, request) => void requests.set(request.id, { ...request }),
      get: async (_tenantId, id) => (requests.has(id) ? { ...requests.get(id)! } : undefined),
      async firstPassDone(_tenantId, id, subjects) {
        const request = requests.get(id);
        if (request?.status !== 'pending' || request.phase) return false;
        Object.assign(request, { phase: 'recheck', subjects, identifiers: null });
        return true;
      },
      async finish(_tenantId, id, outcome) {
        const request = requests.get(id);
        if (request?.status !== 'pending') return false;
        Object.assign(request, outcome, { phase: null, identifiers: null });
        return true;
      },
    },
    subjects: { ...memory.subjects, find: async () => [CUSTOMER], named: async () => undefined },
    queue: { send: async (message, delaySeconds = 0) => void queued.push({ message, delaySeconds }) },
    recheckSeconds,
  });
  /** Hands the oldest queued message to the consumer, as the queue would once its delay is over. */
  const deliver = async () => {
    const { message } = queued.shift()!;
    return privacy.process(message.tenantId, message.requestId, { recheck: message.recheck === true });
  };
  return { privacy, queued, deliver };
}

describe('an erasure raced by a sale (issue 29, H1)', () => {
  it('is done only after its second pass, which strips a sale written after the first pass listed the transactions', async () => {
    // The sale's consumer read the customer before the erasure made it a marker, and writes its transaction once the
    // first pass has listed the customer's transactions: the first pass never sees it.
    const memory = world({ beforeMark: async () => void memory.transactions.set(2, sale(2, { comment: null })) }, sale(1));
    const { privacy, queued, deliver } = service(memory);
    const { id } = await privacy.submit(TENANT, { input: { type: 'erase', client_id: 'R-1' }, requestedBy: 'full' });

    expect(await deliver()).toBe('rechecking');

    // Not done yet: the late sale still holds its copies, and the request says so by staying pending.
    expect(await privacy.get(TENANT, id)).toMatchObject({ status: 'pending', subjects: [CUSTOMER], finished_at: null });
    expect(personal(memory.transactions.get(1)!)).toEqual([]);
    expect(personal(memory.transactions.get(2)!)).not.toEqual([]);
    expect(queued).toEqual([{ message: { version: 1, tenantId: TENANT, requestId: id, recheck: true }, delaySeconds: 7 }]);
    // A redelivery of the first message does nothing more, and queues no other pass.
    queued.unshift({ message: { version: 1, tenantId: TENANT, requestId: id }, delaySeconds: 0 });
    expect(await deliver()).toBe('skipped');
    expect(queued).toHaveLength(1);

    expect(await deliver()).toBe('done');

    expect(await privacy.get(TENANT, id)).toMatchObject({ status: 'done', subjects: [CUSTOMER], errors: [] });
    expect([...memory.transactions.values()].flatMap(personal)).toEqual([]);
    expect(memory.transactions.get(2)!.erasedAt).toBeDefined();
    expect(queued).toEqual([]);
    // A second pass delivered again finds the request done: it strips nothing more and the request stays as it was.
    const calls = { ...memory.calls };
    queued.push({ message: { version: 1, tenantId: TENANT, requestId: id, recheck: true }, delaySeconds: 0 });
    expect(await deliver()).toBe('rechecked');
    expect(memory.calls).toEqual(calls);
  });

  it('is done at once when it finds no customer, and an export is done after its one pass', async () => {
    const memory = world({}, sale(1));
    const { privacy, deliver } = service(memory);
    const { id } = await privacy.submit(TENANT, { input: { type: 'export', client_id: 'R-1' }, requestedBy: 'full' });
    expect(await deliver()).toBe('done');
    expect((await privacy.get(TENANT, id)).status).toBe('done');
  });

  it('waits between its passes longer than any sale in flight, with room for the index to catch up', () => {
    // A sale that read the customer before the marker writes within its consumer's timeout; gsi8 then shows it.
    expect(ERASURE_RECHECK_SECONDS).toBeGreaterThanOrEqual(CONSUMER_TIMEOUT_SECONDS + 60);
    expect(erasureRecheckSeconds(undefined)).toBe(ERASURE_RECHECK_SECONDS);
    expect(erasureRecheckSeconds('3')).toBe(3);
    expect(() => erasureRecheckSeconds('901')).toThrow('ERASURE_RECHECK_SECONDS must be a whole number of seconds from 0 to 900');
    expect(() => erasureRecheckSeconds('2m')).toThrow('ERASURE_RECHECK_SECONDS');
  });
});
