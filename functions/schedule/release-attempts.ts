import type { Context } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { releaseDueAttempts } from '../../shared/adapters/wiring/attempt-scheduler.js';

/** Every minute: the survey attempts due in the next minutes leave the table for the dispatch queue, delayed to their time. */
export const handler = async (_event: unknown, context: Context): Promise<{ minutes: number; released: number }> => {
  logger.addContext(context);
  const result = await releaseDueAttempts();
  flushMetrics();
  return result;
};
