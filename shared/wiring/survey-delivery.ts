import { ENV, requireEnvs } from '../config.js';
import { attemptStore, reachability, storeNames } from '../adapters/attempt-repository.js';
import { senders } from '../adapters/senders.js';
import { tenantSettings } from '../wiring/tenants.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** Survey delivery: the attempt store, reachability, store names and the providers (SES, SMS, WhatsApp, webhooks). */
export const surveyDelivery = { attempts: attemptStore, reachability, stores: storeNames, senders, settings: tenantSettings };
