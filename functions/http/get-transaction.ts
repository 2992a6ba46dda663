import { answer, problem } from '../../shared/http/contract.js';
import { MAX_TRANSACTION_ID, Transaction } from '../../shared/transaction-record.js';
import * as v from 'valibot';
import { httpHandler } from '../../shared/http/handler.js';
import { integerString } from '../../shared/schema.js';
import { transactionQueries } from '../../shared/adapters/wiring/transactions.js';

const TransactionIdPath = v.strictObject({ id: integerString(1, MAX_TRANSACTION_ID) });

export const contract = {
  path: TransactionIdPath,
  responses: { 200: answer('The transaction', Transaction), 404: problem('No such transaction') },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await transactionQueries.getTransaction(tenantId, path.id),
}));
