import { ENV, requireEnvs } from '../../config.js';
import { customerRepository } from '../customer-repository.js';
import { employeeRepository } from '../employee-repository.js';
import { readTransactionReferences } from '../references.js';
import { sendMessage, sendMessages } from '../sqs.js';
import { storeRepository } from '../store-repository.js';
import { transactionRepository } from '../transaction-repository.js';
import { delayUntil } from '../../queues.js';
import type { DispatchMessage } from '../../surveys/dispatch.js';
import type { Dispatcher } from '../../transactions/ports.js';
import { transactionService } from '../../transactions/service.js';
import { createCustomer } from './customers.js';
import { createEmployee } from './employees.js';
import { createStore } from './stores.js';
import { tenantSettings } from './tenant-settings.js';

// Registering reads the table and queues survey messages: both must be named before the first request.
requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);

/**
 * Registering transactions: the table, the tenant's settings, the stores, employees and customers an unknown external
 * id creates, the survey queue. The legacy synchronous route holds only this; the consumer (events, request ids) is
 * wired in transaction-consumer.ts, so that route bundles none of it.
 */
// A first attempt due later (its journey waits before surveying) is delayed on the queue; the dispatcher holds it
// further when the wait is longer than the queue can delay.
const delayOf = (message: unknown) => delayUntil((message as DispatchMessage).dueAt, new Date());
export const dispatcher: Dispatcher = {
  send: async (message) => {
    await sendMessage('surveyDispatch', message, delayOf(message));
  },
  sendBatch: (messages) => sendMessages('surveyDispatch', messages, delayOf),
};

export const service = transactionService({
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
