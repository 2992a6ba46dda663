import * as v from 'valibot';

/** The analysis queue's message: which answer to analyse (no personal data: tenant, transaction, answer version). */
export const AnalysisMessage = v.object({
  tenantId: v.pipe(v.number(), v.integer()),
  transactionId: v.pipe(v.number(), v.integer()),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
export type AnalysisMessage = v.InferOutput<typeof AnalysisMessage>;
