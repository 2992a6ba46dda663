import { NotFoundError, type FieldProblem } from '../errors.js';
import { surveyAsSeen } from '../surveys/attempts.js';
import { requestKeyOf } from './request-key.js';
import type { TransactionRepository } from './ports.js';
import type { Transaction } from '../transaction-record.js';

/** Reading transactions and the outcome of v2 requests: apart from registering them, which loads far more. */

export interface RequestOutcome {
  requestId: string;
  status: 'pending' | 'created' | 'rejected' | 'failed';
  transactionId: number | null;
  errors: FieldProblem[];
  /** What was accepted but not stored as sent (an out-of-scale overall score, an impossible birth date). */
  warnings: FieldProblem[];
}

/** Reading transactions and what became of v2 requests. */
export function transactionQueries(transactions: Pick<TransactionRepository, 'findByRequestKey' | 'findById'>) {
  /**
   * What became of a v2 request: pending until the consumer has decided; failed once the queue gave up on it. An id
   * this tenant was never given is not found.
   */
  async function requestOutcome(tenantId: number, requestId: string, secret: string): Promise<RequestOutcome> {
    const requestKey = requestKeyOf(tenantId, requestId, secret);
    if (!requestKey) throw new NotFoundError(`No request ${requestId} was accepted for this tenant.`);
    const record = await transactions.findByRequestKey(tenantId, requestKey);
    const outcome = { requestId, transactionId: null, errors: [], warnings: [] };
    if (!record) return { ...outcome, status: 'pending' };
    if (record.status !== 'created') return { ...outcome, status: record.status, errors: record.errors };
    return { ...outcome, status: 'created', transactionId: record.record.transaction.id, warnings: record.record.warnings };
  }

  async function getTransaction(tenantId: number, id: number): Promise<Transaction> {
    const found = await transactions.findById(tenantId, id);
    const transaction = found && surveyAsSeen(found.transaction, new Date(), found.contactGone);
    if (!transaction) throw new NotFoundError(`Transaction ${id} not found.`);
    return transaction;
  }

  return { requestOutcome, getTransaction };
}
