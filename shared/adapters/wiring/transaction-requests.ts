import { ENV, requireEnvs, wire } from '../../config.js';
import * as intake from '../../transactions/accept.js';
import * as consumer from '../../transactions/consumer.js';
import { publicRequestId } from '../../transactions/request-key.js';
import { readTransactionReferences } from '../references.js';
import { configuredSecret } from '../secrets.js';
import { sendMessage } from '../sqs.js';
import { events } from './events.js';
import { tenantSettings } from './tenants.js';
import { dispatcher, transactionService } from './transactions.js';

/**
 * The queued (v2) transactions: accepted onto the transaction queue, then consumed. A module of its own, as both sign
 * the request ids they answer with a secret read at cold start (this await), which the synchronous route
 * (transactions.ts) is not given.
 */
const requestIdSecret = await configuredSecret(ENV.requestIdSecret);
const requestIdOf = (tenantId: number, requestKey: string) => publicRequestId(tenantId, requestKey, requestIdSecret());

/** Accepting v2 transactions: the transaction queue and the request id secret, and no table. */
export const transactionIntake = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.transactionQueueUrl);
  return intake.transactionIntake({
    queue: async (message) => {
      await sendMessage('transactions', message);
    },
    requestIdOf,
  });
});

/** Consuming queued transactions: registering (transactions.ts), plus the rejection events and their request ids. */
export const transactionConsumer = /* @__PURE__ */ wire(() =>
  consumer.transactionConsumer({
    service: transactionService,
    readReferences: readTransactionReferences,
    settings: tenantSettings,
    dispatcher,
    events: { publisher: events, requestIdOf },
  }),
);
