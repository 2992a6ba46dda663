import * as v from 'valibot';

/** The TransactionQueue message: what POST /v2/transactions accepted, for the consumer to register. */
export const TransactionMessage = v.object({
  version: v.literal(1),
  tenantId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  requestId: v.string(),
  receivedAt: v.string(),
  /** The body as the client sent it; the consumer validates it again with the same schema. */
  payload: v.unknown(),
});
export type TransactionMessage = v.InferOutput<typeof TransactionMessage>;
