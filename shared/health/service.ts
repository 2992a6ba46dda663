import * as v from 'valibot';
import { checkTable } from '../adapters/health-check.js';
import { DomainError } from '../errors.js';
import { logger } from '../logger.js';

export const Health = v.object({ status: v.literal('ok'), time: v.string() });
export type Health = v.InferOutput<typeof Health>;

/** Healthy when one read of the table succeeds within two seconds. */
export async function checkHealth(): Promise<Health> {
  try {
    await checkTable(AbortSignal.timeout(2000));
    return { status: 'ok', time: new Date().toISOString() };
  } catch (error) {
    logger.warn('Health check failed', error as Error);
    throw new DomainError('unavailable', 'The service cannot reach its table.');
  }
}
