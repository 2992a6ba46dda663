import { ENV, requireEnvs } from '../../config.js';
import { attemptStore, reachability, storeNames } from '../attempt-repository.js';
import { recoveryAttempts } from '../recovery-repository.js';
import { senders } from '../senders.js';
import { attemptScheduler } from './attempt-scheduler.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// Delivery reads the table and puts later attempts back on the dispatch queue: both must be named at cold start.
requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);

/**
 * Survey delivery: the attempt store, reachability, store names, the providers (SES, SMS, WhatsApp, webhooks) and
 * the scheduler that puts later attempts back on the queue.
 */
export const surveyDelivery = {
  attempts: attemptStore,
  recoveries: recoveryAttempts,
  reachability,
  stores: storeNames,
  senders,
  scheduler: attemptScheduler,
  settings: tenantSettings,
  events,
};
