import { ENV, requireEnvs, wire } from '../../config.js';
import * as intake from '../../transactions/accept.js';
import { publicRequestId } from '../../transactions/request-key.js';
import { configuredSecret } from '../secrets.js';
import { sendMessage } from '../sqs.js';

// Accepting sends to the transaction queue and signs the request id it answers: both are read at the cold start. A
// module of its own (the transactions' other compositions are in transactions.ts): this await would hold every function
// that imports it, and the route needs neither the table nor anything else of theirs.
requireEnvs(ENV.transactionQueueUrl);
const requestIdSecret = await configuredSecret(ENV.requestIdSecret);

/** Accepting v2 transactions: the transaction queue and the request id secret, and no table. */
export const transactionIntake = /* @__PURE__ */ wire(() =>
  intake.transactionIntake({
    queue: async (message) => {
      await sendMessage('transactions', message);
    },
    requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()),
  }),
);
