import { ENV, requireEnvs } from '../../config.js';
import { transactionRepository } from '../transaction-repository.js';
import { transactionQueries } from '../../transactions/queries.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** Reading transactions needs the table only (no queue, no settings). */
export const { requestOutcome, getTransaction } = transactionQueries(transactionRepository);
