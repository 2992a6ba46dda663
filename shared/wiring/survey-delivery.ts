import { ENV, requireEnvs } from '../config.js';
import { attemptStore, reachability, storeNames } from '../adapters/attempt-repository.js';
import { dueAttempts } from '../adapters/due-attempts.js';
import { senders } from '../adapters/senders.js';
import { sendMessages } from '../adapters/sqs.js';
import type { DelayedSend } from '../surveys/scheduler.js';
import { dueScheduler } from '../surveys/scheduler.js';
import { tenantSettings } from './tenants.js';

// Delivery reads the table and puts later attempts back on the dispatch queue: both must be named at cold start.
requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);

/** Messages on the dispatch queue, each delayed to its attempt's due time. */
export const sendDelayed: DelayedSend = (messages) =>
  sendMessages(
    'surveyDispatch',
    messages.map((m) => m.message),
    (body) => messages.find((m) => m.message === body)!.delaySeconds,
  );

/**
 * Survey delivery: the attempt store, reachability, store names, the providers (SES, SMS, WhatsApp, webhooks) and
 * the scheduler that puts later attempts back on the queue.
 */
export const surveyDelivery = {
  attempts: attemptStore,
  reachability,
  stores: storeNames,
  senders,
  scheduler: dueScheduler(dueAttempts, sendDelayed),
  settings: tenantSettings,
};
