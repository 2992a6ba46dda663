import { ENV, requireEnvs } from '../../config.js';
import { transactionIntake } from '../../transactions/accept.js';
import { publicRequestId } from '../../transactions/request-key.js';
import { configuredSecret } from '../secrets.js';
import { sendMessage } from '../sqs.js';

// Accepting sends to the transaction queue and signs the request id it answers: both are read at the cold start.
requireEnvs(ENV.transactionQueueUrl);
const requestIdSecret = await configuredSecret(ENV.requestIdSecret);

/** Accepting v2 transactions: the transaction queue and the request id secret, and no table. */
export const { acceptTransaction } = transactionIntake({
  queue: async (message) => {
    await sendMessage('transactions', message);
  },
  requestIdOf: (tenantId, requestKey) => publicRequestId(tenantId, requestKey, requestIdSecret()),
});
