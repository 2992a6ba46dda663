import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { requestKeyFor } from '../../shared/transactions/request-key.js';
import { LegacyTransactionBody, fromLegacy } from '../../shared/transactions/legacy-request.js';
import { Transaction } from '../../shared/transaction-record.js';
import { toLegacyPath } from '../../shared/transactions/schema.js';
import { TransactionRejected } from '../../shared/transactions/service.js';
import { transactionService } from '../../shared/adapters/wiring/transactions.js';

/** The legacy interface: created synchronously (201), or 422 with every problem. */
export const contract = {
  body: LegacyTransactionBody,
  statuses: { validation: 422, 'malformed-json': 422 },
  responses: { 201: answer('The created transaction', Transaction), 422: problem('Validation error: every problem listed') },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => {
  const command = fromLegacy(body);
  try {
    const { transaction, warnings } = await transactionService.registerTransaction(tenantId, {
      command,
      requestKey: requestKeyFor(command),
    });
    return {
      status: 201,
      body: warnings.length ? { ...transaction, warnings: warnings.map((w) => ({ ...w, path: toLegacyPath(w.path) })) } : transaction,
    };
  } catch (error) {
    if (error instanceof TransactionRejected)
      throw new TransactionRejected(error.errors.map((e) => ({ ...e, path: toLegacyPath(e.path) })));
    throw error;
  }
});
