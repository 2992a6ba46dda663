import type { SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { logger } from '../logger.js';
import { count } from '../metrics.js';
import { TransactionMessage } from './message.js';
import { fromV2, V2TransactionBody } from './requests.js';
import { recordRejection, registerTransaction, TransactionRejected } from './service.js';
import { describeIssue } from '../schema.js';

/**
 * One TransactionQueue record. Business rejections are recorded against the request and the record is done;
 * anything thrown is an infrastructure failure: the record goes back to the queue (and to the DLQ after 5 receives).
 */
export async function processTransactionRecord(record: SQSRecord): Promise<void> {
  const message = v.parse(TransactionMessage, JSON.parse(record.body));
  const { tenantId, requestId, receivedAt } = message;
  // Records of a batch run concurrently: log keys go on each line, not on the shared logger.
  const keys = { tenantId, requestId };
  const body = v.safeParse(V2TransactionBody, message.payload);
  if (!body.success) {
    // The API validated this shape; a message that fails now was not sent by it, or the schema changed under it.
    logger.warn('Transaction message failed validation', keys);
    await recordRejection(tenantId, requestId, body.issues.map((issue) => ({ path: v.getDotPath(issue) ?? 'payload', message: describeIssue(issue) })), receivedAt);
    return;
  }
  try {
    const { transaction, duplicate } = await registerTransaction(tenantId, fromV2(body.output), requestId);
    logger.info(duplicate ? 'Transaction already registered' : 'Transaction created', { ...keys, transactionId: transaction.id, survey: transaction.survey.status });
  } catch (error) {
    if (!(error instanceof TransactionRejected)) throw error;
    logger.info('Transaction rejected', { ...keys, reasons: error.errors.map((e) => e.path) });
    count('TransactionsRejected', rejectionReason(error.errors[0]?.path));
    await recordRejection(tenantId, requestId, error.errors, receivedAt);
  }
}

/** The metric dimension of a rejection: which rule refused it, from the field it names. */
export function rejectionReason(path: string | undefined): string {
  if (!path) return 'invalid';
  if (path.startsWith('transaction.journey')) return 'unknown_journey';
  if (path.endsWith('.score')) return 'score_not_supported';
  if (path.startsWith('ratingItems')) return 'class_not_available';
  if (path === 'store') return 'inactive_store';
  if (path === 'customer.id') return 'unknown_customer';
  return 'invalid';
}
