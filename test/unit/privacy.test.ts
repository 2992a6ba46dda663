import { describe, expect, it } from 'vitest';
import { erase, STRIP_TRIES } from '../../shared/privacy/service.js';
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

    await erase(memory.subjects, TENANT, CUSTOMER, MARK);

    expect(outcomes).toEqual(['missing']);
    expect(personal(memory.transactions.get(1)!)).toEqual([]);
    expect(memory.transactions.get(1)!.erasedAt).toBe(MARK.at);
  });

  it('strips an answer that landed after the transactions were listed and before the mark', async () => {
    const outcomes: string[] = [];
    const memory = world({ beforeMark: async () => void outcomes.push(memory.answer(2, 'Raquel aqui', 'Raquel')) }, sale(1), sale(2));

    await erase(memory.subjects, TENANT, CUSTOMER, MARK);

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

    await erase(memory.subjects, TENANT, CUSTOMER, MARK);

    expect(memory.calls).toEqual({ marks: 1, strips: 2, refusedStrips: 1 });
    expect(personal(memory.transactions.get(1)!)).toEqual([]);
  });

  it('judges a transaction by what it holds, not by its mark: a later pass strips what an earlier one left', async () => {
    // The state the race left before the fix: marked erased, and still holding the answer.
    const memory = world(
      {},
      sale(1, { erasedAt: '2026-11-22T00:00:00.000Z', customerName: null, contact: null, comment: 'Raquel', respondent: 'Raquel' }),
    );

    await erase(memory.subjects, TENANT, CUSTOMER, MARK);

    expect(personal(memory.transactions.get(1)!)).toEqual([]);
    expect(memory.calls.marks).toBe(0);
    // The first mark stays.
    expect(memory.transactions.get(1)!.erasedAt).toBe('2026-11-22T00:00:00.000Z');
  });

  it('writes nothing more when run again (no mark, no strip), and keeps the first request on the customer', async () => {
    const memory = world({}, sale(1), sale(2));
    await erase(memory.subjects, TENANT, CUSTOMER, MARK);
    const calls = { ...memory.calls };

    await erase(memory.subjects, TENANT, CUSTOMER, { requestId: 'pr_again', at: '2026-11-24T00:00:00.000Z' });

    expect(memory.calls).toEqual(calls);
    expect(memory.customers.get(CUSTOMER)).toEqual({ erasedBy: MARK.requestId });
  });

  it('fails, for the queue to try again, when a transaction keeps changing under it, and leaves the customer as it was', async () => {
    let n = 0;
    const memory = world({ beforeStrip: async (id) => memory.fail(id, `refused ${n++}`) }, sale(1));

    await expect(erase(memory.subjects, TENANT, CUSTOMER, MARK)).rejects.toThrow('1 transactions kept changing while they were erased');

    expect(memory.calls).toEqual({ marks: 1, strips: STRIP_TRIES, refusedStrips: STRIP_TRIES });
    expect(memory.customers.has(CUSTOMER)).toBe(false);
  });
});
