import { ENV, requireEnv, requireEnvs } from '../../config.js';
import { publicRequestId } from '../../transactions/request-key.js';
import { customerRepository } from '../customer-repository.js';
import { employeeRepository } from '../employee-repository.js';
import { readTransactionReferences } from '../references.js';
import { sendMessage, sendMessages } from '../sqs.js';
import { storeRepository } from '../store-repository.js';
import { transactionRepository } from '../transaction-repository.js';
import { transactionConsumer } from '../../transactions/consumer.js';
import { delayUntil } from '../../queues.js';
import type { DispatchMessage } from '../../surveys/dispatch.js';
import type { Dispatcher } from '../../transactions/ports.js';
import { transactionService } from '../../transactions/service.js';
import { createCustomer } from './customers.js';
import { createEmployee } from './employees.js';
import { createStore } from './stores.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// Registering reads the table and queues survey messages: both must be named before the first request.
requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);

/**
 * Registering transactions: the table, the tenant's settings, the stores, employees and customers an unknown external
 * id creates, the survey queue.
 */
// A first attempt due later (its journey waits before surveying) is delayed on the queue; the dispatcher holds it
// further when the wait is longer than the queue can delay.
const delayOf = (message: unknown) => delayUntil((message as DispatchMessage).dueAt, new Date());
const dispatcher: Dispatcher = {
  send: async (message) => {
    await sendMessage('surveyDispatch', message, delayOf(message));
  },
  sendBatch: (messages) => sendMessages('surveyDispatch', messages, delayOf),
};

const service = transactionService({
  transactions: transactionRepository,
  readReferences: readTransactionReferences,
  settings: tenantSettings,
  creators: {
    store: { create: createStore, findByExternalId: storeRepository.findByExternalId },
    employee: { create: createEmployee, findByExternalId: employeeRepository.findByExternalId },
    customer: { create: createCustomer, findByExternalId: customerRepository.findByExternalId },
  },
  dispatcher,
});

export const { registerTransaction } = service;
// Only the consumer signs request ids (its rejection events carry them): it reads the secret at its cold start, and
// the legacy synchronous route, which shares this module, is given none.
const requestIdSecret = () => requireEnv(ENV.requestIdSecret);
export const { consumeBatch } = transactionConsumer({
  service,
  readReferences: readTransactionReferences,
  settings: tenantSettings,
  dispatcher,
  events: { publisher: events, requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()) },
});
