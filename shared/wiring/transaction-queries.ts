import { transactionRepository } from '../adapters/transaction-repository.js';
import { transactionQueries } from '../transactions/queries.js';

/** Reading transactions needs the table only (no queue, no settings). */
export const { requestOutcome, getTransaction } = transactionQueries(transactionRepository);
