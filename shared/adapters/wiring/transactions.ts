import { configured, ENV, requireEnvs, wire } from '../../config.js';
import { delayUntil } from '../../queues.js';
import type { DispatchMessage } from '../../surveys/dispatch.js';
import type { Dispatcher } from '../../transactions/ports.js';
import * as intake from '../../transactions/accept.js';
import * as consumer from '../../transactions/consumer.js';
import * as queries from '../../transactions/queries.js';
import { publicRequestId } from '../../transactions/request-key.js';
import * as transactions from '../../transactions/service.js';
import { customerRepository } from '../customer-repository.js';
import { employeeRepository } from '../employee-repository.js';
import { readTransactionReferences } from '../references.js';
import { sendMessage, sendMessages } from '../sqs.js';
import { storeRepository } from '../store-repository.js';
import { transactionRepository } from '../transaction-repository.js';
import { customerService } from './customers.js';
import { events } from './events.js';
import { employeeService } from './employees.js';
import { storeService } from './stores.js';
import { tenantSettings } from './tenants.js';

// A first attempt due later (its journey waits before surveying) is delayed on the queue; the dispatcher holds it
// further when the wait is longer than the queue can delay.
const delayOf = (message: unknown) => delayUntil((message as DispatchMessage).dueAt, new Date());

/** Survey messages on the dispatch queue, each delayed to its first attempt's due time. */
export const dispatcher: Dispatcher = {
  send: async (message) => {
    await sendMessage('surveyDispatch', message, delayOf(message));
  },
  sendBatch: (messages) => sendMessages('surveyDispatch', messages, delayOf),
};

/**
 * Registering transactions: the table, the tenant's settings, the stores, employees and customers an unknown external
 * id creates, the survey queue. The legacy synchronous route holds only this; the consumer (events, request ids) is
 * transactionConsumer below, which that route never bundles.
 */
export const transactionService = /* @__PURE__ */ wire(() => {
  // Registering reads the table and queues survey messages: both must be named before the first request.
  requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);
  return transactions.transactionService({
    transactions: transactionRepository,
    readReferences: readTransactionReferences,
    settings: tenantSettings,
    creators: {
      store: { create: storeService.createStore, findByExternalId: storeRepository.findByExternalId },
      employee: { create: employeeService.createEmployee, findByExternalId: employeeRepository.findByExternalId },
      customer: { create: customerService.createCustomer, findByExternalId: customerRepository.findByExternalId },
    },
    dispatcher,
  });
});

/** Reading transactions needs the table only (no queue, no settings). */
export const transactionQueries = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return queries.transactionQueries(transactionRepository);
});

/**
 * Consuming queued transactions: registering, plus the rejection events and the request ids they carry (signed as the
 * intake signed them: its function reads the secret at cold start, functions/queue/transaction-consumer.ts).
 */
export const transactionConsumer = /* @__PURE__ */ wire(() => {
  const requestIdSecret = configured(ENV.requestIdSecret);
  return consumer.transactionConsumer({
    service: transactionService,
    readReferences: readTransactionReferences,
    settings: tenantSettings,
    dispatcher,
    events: { publisher: events, requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()) },
    listRegistrations: transactionRepository.listRegistrations,
  });
});

/**
 * Accepting v2 transactions: the transaction queue and the request id secret (its function reads the secret at cold
 * start, functions/http/post-v2-transaction.ts), and no table.
 */
export const transactionIntake = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.transactionQueueUrl);
  const requestIdSecret = configured(ENV.requestIdSecret);
  return intake.transactionIntake({
    queue: async (message) => {
      await sendMessage('transactions', message);
    },
    requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()),
  });
});
