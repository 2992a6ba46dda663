import { findByRequestKey, findById } from '../adapters/transaction-repository.js';
import { NotFoundError, type FieldProblem } from '../errors.js';
import type { Transaction } from './schema.js';

/** Reading transactions and the outcome of v2 requests: apart from registering them, which loads far more. */

export interface RequestOutcome {
  requestId: string;
  status: 'pending' | 'created' | 'rejected';
  transactionId: number | null;
  errors: FieldProblem[];
}

/** What became of a v2 request: pending until the consumer has decided. */
export async function requestOutcome(tenantId: number, requestKey: string): Promise<RequestOutcome> {
  const record = await findByRequestKey(tenantId, requestKey);
  if (!record) return { requestId: requestKey, status: 'pending', transactionId: null, errors: [] };
  if (record.status === 'rejected') return { requestId: requestKey, status: 'rejected', transactionId: null, errors: record.errors };
  return { requestId: requestKey, status: 'created', transactionId: record.transaction.id, errors: [] };
}

export async function getTransaction(tenantId: number, id: number): Promise<Transaction> {
  const transaction = await findById(tenantId, id);
  if (!transaction) throw new NotFoundError(`Transaction ${id} not found.`);
  return transaction;
}
