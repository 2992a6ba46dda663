import type { Context } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { releaseDueTimers } from '../../shared/adapters/wiring/timers.js';

/** Every minute: the timers due in the next minutes (survey attempts, case deadlines) leave the table for their queues, delayed to their time. */
export const handler = async (_event: unknown, context: Context): Promise<{ minutes: number; released: number }> => {
  logger.addContext(context);
  const result = await releaseDueTimers();
  flushMetrics();
  return result;
};
