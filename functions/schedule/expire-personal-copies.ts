import type { Context } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { expirePersonalCopies } from '../../shared/adapters/wiring/privacy.js';

/** Every quarter hour: the personal copies of transactions past their tenant's retention leave the table. */
export const handler = async (_event: unknown, context: Context) => {
  logger.addContext(context);
  const result = await expirePersonalCopies(() => context.getRemainingTimeInMillis());
  flushMetrics();
  return result;
};
