import { describe, expect, it } from 'vitest';
import { customerService } from '../../../shared/customers/service.js';
import { employeeService } from '../../../shared/employees/service.js';
import type { QueueRecord } from '../../../shared/queues.js';
import { storeService } from '../../../shared/stores/service.js';
import type { Settings } from '../../../shared/tenants/config-schema.js';
import { transactionConsumer } from '../../../shared/transactions/consumer.js';
import { transactionService } from '../../../shared/transactions/service.js';
import {
  memoryCustomers,
  memoryDispatcher,
  memoryEmployees,
  memoryEvents,
  memoryReferences,
  memoryStores,
  memoryTransactions,
} from '../../support/memory.js';
import { messageFor, v2Payload } from '../../support/transactions.js';

/** The TransactionQueue's consumer: what it registers, sends, skips and rejects for a batch; over in-memory ports. */

const TENANT = 7;
/** A tenant whose configuration cannot be read (an infrastructure failure). */
const UNREADABLE = 8;

const journey = { classes: [], resurveyWindowDays: null, surveyValidityDays: 7, handOff: [] };
const SETTINGS: Settings = {
  journeys: [
    { ...journey, id: 1, slug: 'loja', indicator: 'nps', channels: ['whatsapp', 'email'] },
    { ...journey, id: 2, slug: 'entrega', indicator: 'csat', channels: ['email'], resurveyWindowDays: 30 },
    { ...journey, id: 3, slug: 'lembrete', indicator: 'nps', channels: ['email'], attempts: [{ channel: 'email', afterMinutes: 60 }] },
  ],
  classes: [],
  groups: [],
  delivery: {},
};

async function consumerWorld(options: { refuseDispatch?: (journey: string) => boolean; batchReadFails?: boolean } = {}) {
  const stores = memoryStores();
  const employees = memoryEmployees();
  const customers = memoryCustomers();
  const transactions = memoryTransactions();
  const dispatcher = memoryDispatcher((message) => options.refuseDispatch?.(message.journey) ?? false);
  const events = memoryEvents();
  const stamp = '2026-11-01T00:00:00.000Z';
  for (const tenantId of [TENANT, UNREADABLE]) {
    await stores.insert(tenantId, {
      id: 1,
      store_id: null,
      trade_name: 'Matriz',
      company_name: null,
      status: 'active',
      created_at: stamp,
      updated_at: stamp,
    });
    await employees.insert(tenantId, {
      ...{ id: 1, employee_id: null, name: 'Equipe', email: null, store_id: null, status: 'active', stores: [], groups: [] },
      ...{ created_at: stamp, updated_at: stamp },
    });
  }
  const references = memoryReferences({ stores, employees, customers }, transactions);
  const settings = async (tenantId: number) => {
    if (tenantId === UNREADABLE) throw new Error('The settings could not be read.');
    return SETTINGS;
  };
  const customerApi = customerService(customers);
  const service = transactionService({
    transactions,
    readReferences: references,
    settings,
    creators: {
      store: { create: storeService(stores).createStore, findByExternalId: stores.findByExternalId },
      employee: {
        create: employeeService({ employees, stores, groups: async () => [] }).createEmployee,
        findByExternalId: employees.findByExternalId,
      },
      customer: { create: customerApi.createCustomer, findByExternalId: customers.findByExternalId },
    },
    dispatcher,
  });
  const consumer = transactionConsumer({
    service,
    // The batch's one read; when it fails, each record reads for itself.
    readReferences: async (requests) => {
      if (options.batchReadFails && requests.length > 1) throw new Error('BatchGetItem failed.');
      return references(requests);
    },
    settings,
    dispatcher,
    events: { publisher: events, requestIdOf: (_tenantId, requestKey) => `id-of-${requestKey}` },
  });
  let next = 0;
  const record = (payload: Record<string, unknown>, tenantId = TENANT, receives = 1): QueueRecord => ({
    messageId: `m-${++next}`,
    body: JSON.stringify(messageFor(tenantId, payload)),
    attributes: { ApproximateReceiveCount: String(receives) },
  });
  /** Runs a batch as the queue wrapper does: each record on its own; answers the ids that go back to the queue. */
  const consume = (records: QueueRecord[]) =>
    consumer.consumeBatch(records, async (process) =>
      (
        await Promise.all(
          records.map((r) =>
            process(r).then(
              () => null,
              () => r.messageId,
            ),
          ),
        )
      ).filter((id): id is string => id !== null),
    );
  const outcomeOf = async (r: QueueRecord) => {
    const { tenantId, requestId } = JSON.parse(r.body) as { tenantId: number; requestId: string };
    return transactions.findByRequestKey(tenantId, requestId);
  };
  return { consume, record, outcomeOf, transactions, dispatcher, events, customerApi };
}

describe('the transaction consumer', () => {
  it("registers each record of a batch and sends the batch's survey messages together, with a later attempt's due time", async () => {
    const world = await consumerWorld();
    const now = v2Payload();
    const later = v2Payload({ transaction: { journeySlug: 'lembrete', externalId: 'T-later' } });
    const batch = [world.record(now), world.record(later)];

    expect(await world.consume(batch)).toEqual([]);

    expect((await world.outcomeOf(batch[0]!))?.status).toBe('created');
    expect(world.dispatcher.sent.map((m) => [m.journey, m.channel, m.attemptId])).toEqual([
      ['loja', 'whatsapp', 1],
      ['lembrete', 'email', 1],
    ]);
    const sentLater = world.dispatcher.sent[1]!;
    expect(Date.parse(sentLater.dueAt!) - Date.parse(sentLater.createdAt)).toBe(60 * 60_000);
    expect(world.dispatcher.sent[0]!.dueAt).toBeUndefined();
  });

  it('registers a redelivered record once and sends its survey message again (the senders deduplicate)', async () => {
    const world = await consumerWorld();
    const payload = v2Payload();

    await world.consume([world.record(payload)]);
    await world.consume([world.record(payload)]);

    expect(world.transactions.byKey.size).toBe(1);
    expect(world.dispatcher.sent).toHaveLength(2);
    expect(world.dispatcher.sent[1]).toEqual(world.dispatcher.sent[0]);
  });

  it('sends nothing for an opted-out customer, one without a contact, a rated transaction, or one inside the repeat window', async () => {
    const world = await consumerWorld();
    const optedOut = await world.customerApi.createCustomer(TENANT, { name: 'Duda', phone: '+5511911112222', opt_out: true });
    const repeat = { transaction: { journeySlug: 'entrega' }, customer: { externalId: 'C-rep', email: 'eva@example.com' } };
    const skipped = [
      v2Payload({ customer: { id: optedOut.id } }),
      v2Payload({ customer: { externalId: 'C-none', name: 'Sem Contato' } }),
      v2Payload({ rating: { score: 9 } }),
    ];
    await world.consume([world.record(v2Payload(repeat))]);
    const records = [...skipped, v2Payload(repeat)].map((p) => world.record(p));

    expect(await world.consume(records)).toEqual([]);

    const reasons = await Promise.all(
      records.map(async (r) => {
        const stored = await world.outcomeOf(r);
        return stored?.status === 'created' ? stored.record.transaction.survey.reason : stored?.status;
      }),
    );
    expect(reasons).toEqual(['opted_out', 'no_contact', 'already_rated', 'throttled']);
    expect(world.dispatcher.sent.map((m) => m.journey)).toEqual(['entrega']);
  });

  it('records a rejection against the request, tells the webhooks under its request id, and sends nothing', async () => {
    const world = await consumerWorld();
    const unknown = world.record(v2Payload({ transaction: { journeySlug: 'nenhuma' } }));
    const malformed = world.record({ customer: 'not an object' });

    expect(await world.consume([unknown, malformed])).toEqual([]);

    const outcome = await world.outcomeOf(unknown);
    expect(outcome).toMatchObject({ status: 'rejected', errors: [{ path: 'transaction.journeySlug' }] });
    expect(await world.outcomeOf(malformed)).toMatchObject({ status: 'rejected' });
    const requestIds = [unknown, malformed].map((r) => `id-of-${(JSON.parse(r.body) as { requestId: string }).requestId}`);
    expect(world.events.published.map((p) => [p.event.type, p.event.data.request_id])).toEqual(
      expect.arrayContaining(requestIds.map((id) => ['transaction.rejected', id])),
    );
    expect(world.events.published).toHaveLength(2);
    expect(world.dispatcher.sent).toEqual([]);
  });

  it('gives back to the queue a record whose survey message the queue refused, and sends it on redelivery', async () => {
    const refused = new Set(['entrega']);
    const world = await consumerWorld({ refuseDispatch: (journey) => refused.has(journey) });
    const kept = world.record(v2Payload());
    const payload = v2Payload({ transaction: { journeySlug: 'entrega', externalId: 'T-refused' } });
    const bounced = world.record(payload);

    expect(await world.consume([kept, bounced])).toEqual([bounced.messageId]);
    expect((await world.outcomeOf(bounced))?.status).toBe('created');

    refused.clear();
    expect(await world.consume([world.record(payload)])).toEqual([]);
    expect(world.dispatcher.sent.map((m) => m.journey)).toEqual(['loja', 'entrega']);
  });

  it('gives a record that fails back to the queue, and records the request as failed on its last receive', async () => {
    const world = await consumerWorld();
    const early = world.record(v2Payload(), UNREADABLE, 1);
    const last = world.record(v2Payload(), UNREADABLE, 5);
    const fine = world.record(v2Payload());

    expect(await world.consume([early, last, fine])).toEqual([early.messageId, last.messageId]);

    expect(await world.outcomeOf(early)).toBeUndefined();
    expect(await world.outcomeOf(last)).toMatchObject({ status: 'failed', errors: [{ path: 'request' }] });
    expect((await world.outcomeOf(fine))?.status).toBe('created');
    expect(world.dispatcher.sent).toHaveLength(1);
  });

  it('reads for each record when the batch read fails', async () => {
    const world = await consumerWorld({ batchReadFails: true });
    const batch = [world.record(v2Payload()), world.record(v2Payload())];

    expect(await world.consume(batch)).toEqual([]);
    expect(world.transactions.byKey.size).toBe(2);
    expect(world.dispatcher.sent).toHaveLength(2);
  });
});
