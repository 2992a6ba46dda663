import type { Context } from 'aws-lambda';
import { dueAttempts } from '../../shared/adapters/due-attempts.js';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { releaseDue } from '../../shared/surveys/scheduler.js';
import { sendDelayed } from '../../shared/wiring/survey-delivery.js';

/** Every minute: the survey attempts due in the next minutes leave the table for the dispatch queue, delayed to their time. */
export const handler = async (_event: unknown, context: Context): Promise<{ minutes: number; released: number }> => {
  logger.addContext(context);
  const result = await releaseDue(dueAttempts, sendDelayed, new Date());
  flushMetrics();
  return result;
};
