import { ENV } from '../../config.js';
import { publicRequestId } from '../../transactions/request-key.js';
import { transactionConsumer } from '../../transactions/consumer.js';
import { configuredSecret } from '../secrets.js';
import { readTransactionReferences } from '../references.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';
import { dispatcher, service } from './transactions.js';

// Only the consumer signs request ids (its rejection events carry the one the client was given): it reads that
// secret at cold start; the synchronous route registers through transactions.ts alone and is given none.
const requestIdSecret = await configuredSecret(ENV.requestIdSecret);

/** Consuming queued transactions: registering (transactions.ts), plus the rejection events and their request ids. */
export const { consumeBatch } = transactionConsumer({
  service,
  readReferences: readTransactionReferences,
  settings: tenantSettings,
  dispatcher,
  events: { publisher: events, requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()) },
});
