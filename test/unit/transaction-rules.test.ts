import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerService } from '../../shared/customers/service.js';
import { DuplicateError } from '../../shared/errors.js';
import { employeeService } from '../../shared/employees/service.js';
import { storeService } from '../../shared/stores/service.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { fromV2, V2TransactionBody } from '../../shared/transactions/v2-request.js';
import { TransactionRejected, transactionService } from '../../shared/transactions/service.js';
import {
  memoryCustomers,
  memoryDispatcher,
  memoryEmployees,
  memoryReferences,
  memoryStores,
  memoryTransactions,
} from '../support/memory.js';

/**
 * The transaction rules, against in-memory ports: the real services (transactions, and the store, employee and
 * customer services through which an unknown external id creates them), with no table and no queue.
 */

const TENANT = 7;
const NOW = new Date('2026-11-22T12:00:00Z');

const settings: Settings = {
  journeys: [
    {
      id: 1,
      slug: 'loja',
      indicator: 'nps',
      classes: [1, 2],
      channels: ['whatsapp', 'email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
    },
    {
      id: 2,
      slug: 'entrega',
      indicator: 'csat',
      classes: [],
      channels: ['email'],
      resurveyWindowDays: 30,
      surveyValidityDays: 7,
      handOff: [],
    },
  ],
  classes: [
    { id: 1, label: 'Atendimento', type: 'csat' },
    { id: 2, label: 'Limpeza', type: 'binary' },
    { id: 3, label: 'Entrega', type: 'ces' },
  ],
  groups: [],
  delivery: {},
};

function setUp(customers = memoryCustomers(), creating?: (create: CustomerCreate) => CustomerCreate) {
  const stores = memoryStores();
  const employees = memoryEmployees();
  const transactions = memoryTransactions();
  const dispatcher = memoryDispatcher();
  const storeApi = storeService(stores);
  const employeeApi = employeeService({ employees, stores, groups: async () => [] });
  const customerApi = customerService(customers);
  const service = transactionService({
    transactions,
    readReferences: memoryReferences({ stores, employees, customers }, transactions),
    settings: async () => settings,
    creators: {
      store: { create: storeApi.createStore, findByExternalId: stores.findByExternalId },
      employee: { create: employeeApi.createEmployee, findByExternalId: employees.findByExternalId },
      customer: {
        create: creating ? creating(customerApi.createCustomer) : customerApi.createCustomer,
        findByExternalId: customers.findByExternalId,
      },
    },
    dispatcher,
  });
  return { stores, employees, customers, transactions, dispatcher, storeApi, customerApi, service };
}

type CustomerCreate = ReturnType<typeof customerService>['createCustomer'];

let world: ReturnType<typeof setUp>;
let keyCount = 0;

beforeEach(async () => {
  world = setUp();
  await seedDefaults();
});

/** Every tenant starts with store 1 and employee 1. */
async function seedDefaults() {
  const stamp = NOW.toISOString();
  await world.stores.insert(TENANT, {
    id: 1,
    store_id: null,
    trade_name: 'Matriz',
    company_name: null,
    status: 'active',
    created_at: stamp,
    updated_at: stamp,
  });
  await world.employees.insert(TENANT, {
    id: 1,
    employee_id: null,
    name: 'Equipe',
    email: null,
    store_id: null,
    status: 'active',
    stores: [],
    groups: [],
    created_at: stamp,
    updated_at: stamp,
  });
}

/** Registers a v2 payload (validated as the API does) under a fresh request key unless one is given. */
function register(payload: Record<string, unknown>, requestKey = `key-${++keyCount}`) {
  const body = v.parse(V2TransactionBody, {
    store: { id: 1 },
    employee: { id: 1 },
    customer: { externalId: 'C-1', name: 'Ana Souza', phone: '+5511987654321' },
    transaction: { journeySlug: 'loja' },
    ...payload,
  });
  return world.service.registerTransaction(TENANT, { command: fromV2(body), requestKey, now: NOW });
}

async function rejection(payload: Record<string, unknown>): Promise<{ path: string; message: string }[]> {
  const error = await register(payload).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransactionRejected);
  return (error as TransactionRejected).errors;
}

describe('transaction rules, in memory', () => {
  it('registers a transaction and schedules survey attempt 1 on the first reachable channel', async () => {
    const { transaction, duplicate } = await register({});
    expect(duplicate).toBe(false);
    expect(transaction.survey).toEqual({ status: 'scheduled', reason: null, attempt_id: 1, channel: 'whatsapp' });
    expect(world.dispatcher.sent).toEqual([
      expect.objectContaining({ transactionId: transaction.id, attemptId: 1, channel: 'whatsapp', journey: 'loja' }),
    ]);
    expect(JSON.stringify(world.dispatcher.sent)).not.toContain('5511987654321');
  });

  it('refuses a journey that does not exist, or an id and a slug naming two journeys', async () => {
    expect(await rejection({ transaction: { journeyId: 9 } })).toEqual([
      { path: 'transaction.journeyId', message: 'journey 9 does not exist' },
    ]);
    expect((await rejection({ transaction: { journeyId: 2, journeySlug: 'loja' } }))[0]!.path).toBe('transaction.journeySlug');
  });

  it('create rule 2: refuses rating items whose class is not available for the journey', async () => {
    expect(await rejection({ ratingItems: [{ classId: 3, score: 2 }] })).toEqual([
      { path: 'ratingItems[0].classId', message: 'class 3 is not available for journey loja' },
    ]);
  });

  it('create rule 3: refuses an item score its class does not support; an overall score out of scale is dropped with a warning', async () => {
    expect(await rejection({ ratingItems: [{ classId: 2, score: 5 }] })).toEqual([
      { path: 'ratingItems[0].score', message: '5 is not a binary score (0-1)' },
    ]);
    const { transaction, warnings } = await register({ transaction: { journeySlug: 'entrega' }, rating: { score: 9 } });
    expect(transaction.rating).toBeNull();
    expect(warnings).toEqual([{ path: 'rating.score', message: '9 is not a csat score (1-5); the transaction has no rating' }]);
  });

  it('create rule 4: creates the store, employee and customer an unknown external id names, once', async () => {
    const payload = {
      store: { externalId: 'L-9', tradeName: 'Loja Centro' },
      employee: { externalId: 'E-9', name: 'Bruno' },
      customer: { externalId: 'C-9', name: 'Carla', email: 'carla@example.com' },
    };
    const first = await register(payload);
    const second = await register(payload);
    expect(second.transaction.store_id).toBe(first.transaction.store_id);
    expect(second.transaction.employee_id).toBe(first.transaction.employee_id);
    expect(second.transaction.customer_id).toBe(first.transaction.customer_id);
    expect(await world.stores.findByExternalId(TENANT, 'L-9')).toMatchObject({ trade_name: 'Loja Centro', status: 'active' });
    expect(await world.employees.findByExternalId(TENANT, 'E-9')).toMatchObject({ name: 'Bruno' });
    expect(await world.customers.findByExternalId(TENANT, 'C-9')).toMatchObject({ name: 'Carla', email: 'carla@example.com' });
    expect(world.customers.rows.size).toBe(1);
  });

  it('create rule 5: a store or employee id that does not exist falls back to 1; a customer id that does not exist is refused', async () => {
    const { transaction } = await register({ store: { id: 40 }, employee: { id: 41 } });
    expect([transaction.store_id, transaction.employee_id]).toEqual([1, 1]);
    expect(await rejection({ customer: { id: 42 } })).toEqual([{ path: 'customer.id', message: 'customer 42 does not exist' }]);
  });

  it('create rule 6: refuses an inactive store', async () => {
    await world.storeApi.deactivateStore(TENANT, 1);
    expect(await rejection({})).toEqual([{ path: 'store', message: 'store 1 is inactive' }]);
  });

  it('create rule 7: sends no survey when the transaction is rated already', async () => {
    const { transaction } = await register({ rating: { score: 10, comment: 'ótimo' }, ratingItems: [{ class: 'atendimento', score: 5 }] });
    expect(transaction.rating).toEqual({ score: 10, comment: 'ótimo' });
    expect(transaction.rating_items).toEqual([{ class_id: 1, score: 5 }]);
    expect(transaction.survey).toMatchObject({ status: 'not_sent', reason: 'already_rated' });
    expect(world.dispatcher.sent).toEqual([]);
  });

  it('refuses an id and an external code that name different entities', async () => {
    await world.storeApi.createStore(TENANT, { trade_name: 'Filial', store_id: 'L-2' });
    expect(await rejection({ store: { id: 1, externalId: 'L-2' } })).toEqual([
      { path: 'store.externalId', message: 'store.externalId names store 2, not store.id 1' },
    ]);
  });

  it('names the field, never the identifier, when an id and an external code disagree (a client_id may be a CPF)', async () => {
    const cpf = '98765432100';
    const named = await world.customerApi.createCustomer(TENANT, { name: 'Gil', client_id: cpf, email: 'gil@example.com', opt_out: false });
    const other = await world.customerApi.createCustomer(TENANT, {
      name: 'Hana',
      client_id: '11122233344',
      email: 'hana@example.com',
      opt_out: false,
    });
    const wrongTarget = await rejection({ customer: { id: other.id, externalId: cpf } });
    expect(wrongTarget).toEqual([
      { path: 'customer.externalId', message: `customer.externalId names customer ${named.id}, not customer.id ${other.id}` },
    ]);
    const otherCode = await rejection({ customer: { id: other.id, externalId: '55566677788' } });
    expect(otherCode).toEqual([
      { path: 'customer.externalId', message: `customer.id ${other.id} has another external code than customer.externalId` },
    ]);
    for (const problem of [...wrongTarget, ...otherCode]) expect(problem.message).not.toMatch(/\d{11}/);
  });

  it('does not survey an opted-out customer, one without a contact, or one surveyed within the repeat window', async () => {
    const optedOut = await world.customerApi.createCustomer(TENANT, { name: 'Duda', phone: '+5511911112222', opt_out: true });
    expect((await register({ customer: { id: optedOut.id } })).transaction.survey.reason).toBe('opted_out');
    expect((await register({ customer: { externalId: 'C-0', name: 'Sem Contato' } })).transaction.survey.reason).toBe('no_contact');
    const surveyed = { transaction: { journeySlug: 'entrega' }, customer: { externalId: 'C-3', email: 'eva@example.com' } };
    expect((await register(surveyed)).transaction.survey.status).toBe('scheduled');
    expect((await register(surveyed)).transaction.survey.reason).toBe('throttled');
    expect(world.dispatcher.sent.map((m) => m.journey)).toEqual(['entrega']);
  });

  it('stores a request key once: a redelivery answers the same transaction and sends its survey message again', async () => {
    const first = await register({}, 'same-key');
    const again = await register({}, 'same-key');
    expect(again).toEqual({ transaction: first.transaction, duplicate: true, warnings: [], record: first.record });
    expect(world.transactions.byKey.size).toBe(1);
    expect(world.dispatcher.sent).toHaveLength(2);
    expect(world.dispatcher.sent[1]).toEqual(world.dispatcher.sent[0]);
  });

  it('keeps an impossible birth date out of the new customer and says so under the payload field', async () => {
    const { warnings } = await register({ customer: { externalId: 'C-5', name: 'Fábio', birthDate: '2030-01-01' } });
    // The warning is kept with the transaction: it names the field, not the date (personal data).
    expect(warnings).toEqual([
      { path: 'customer.birthDate', message: 'is not a valid birth date (a calendar date, not in the future) and was ignored' },
    ]);
    expect((await world.customers.findByExternalId(TENANT, 'C-5'))?.birth_date).toBeNull();
  });
});

describe('a new customer two sales create at once', () => {
  it("takes the winner's customer when its guard is written and its record not yet: it looks again, briefly", async () => {
    // The winner has claimed the client id's guard and not yet written the customer: this sale's create is refused
    // as a duplicate, and the customer appears only a moment later.
    const customers = memoryCustomers();
    const winner = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      return customerService(customers).createCustomer(TENANT, {
        name: 'Ana Souza',
        client_id: 'RACE-1',
        email: 'ana@example.com',
      } as never);
    })();
    world = setUp(customers, () => async () => {
      throw DuplicateError.of('customer', 'client_id');
    });
    await seedDefaults();

    const sale = await register({ customer: { externalId: 'RACE-1', name: 'Ana Souza', email: 'ana@example.com' } });

    expect(sale.transaction.customer_id).toBe((await winner).id);
  });
});
