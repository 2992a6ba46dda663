import { randomUUID } from 'node:crypto';
import { ENV, requireEnv } from '../../shared/config.js';
import { publicRequestId, requestKeyFor } from '../../shared/transactions/request-key.js';
import type { V2TransactionBody } from '../../shared/transactions/v2-request.js';
import type { TransactionMessage } from '../../shared/transactions/message.js';

/** A valid v2 payload: the demo journey "loja", default store and employee, a new customer; override any part. */
export function v2Payload(overrides: Partial<Record<keyof V2TransactionBody, unknown>> = {}): Record<string, unknown> {
  const unique = randomUUID().slice(0, 8);
  return {
    store: { id: 1 },
    employee: { id: 1 },
    customer: { externalId: `C-${unique}`, name: 'Cliente Teste', phone: '11987654321', email: `c-${unique}@example.com` },
    transaction: { journeySlug: 'loja', externalId: `T-${unique}`, amount: 99.9, date: '2026-11-20T15:04:05Z' },
    ...overrides,
  };
}

/** The queue message POST /v2/transactions would send for this payload. */
export function messageFor(tenantId: number, payload: Record<string, unknown>): TransactionMessage {
  const transaction = payload.transaction as { journeyId?: number; journeySlug?: string; externalId?: string } | undefined;
  const requestId = requestKeyFor({
    externalId: transaction?.externalId,
    journey: { id: transaction?.journeyId, slug: transaction?.journeySlug },
  });
  return { version: 1, tenantId, requestId, receivedAt: new Date().toISOString(), payload };
}

/** The x-request-id a client would have been given for a request key of a tenant. */
export const requestIdFor = (tenantId: number, requestKey: string) =>
  publicRequestId(tenantId, requestKey, requireEnv(ENV.requestIdSecret));

/** Where the outcome of a queued message is read. */
export const outcomePath = (message: Pick<TransactionMessage, 'tenantId' | 'requestId'>) =>
  `/v2/transactions/requests/${requestIdFor(message.tenantId, message.requestId)}`;
