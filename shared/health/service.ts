import * as v from 'valibot';
import { UnavailableError } from '../errors.js';
import { logger } from '../logger.js';
import { instant } from '../schema.js';

export const Health = v.object({ status: v.literal('ok'), time: instant });
export type Health = v.InferOutput<typeof Health>;

/** One cheap read of the service's storage; rejects when it cannot be done before `signal` aborts. */
export type StorageProbe = (signal: AbortSignal) => Promise<void>;

/** Healthy when one read of the table succeeds within two seconds. */
export const healthCheck = (probe: StorageProbe) => async (): Promise<Health> => {
  try {
    await probe(AbortSignal.timeout(2000));
    return { status: 'ok', time: new Date().toISOString() };
  } catch (error) {
    logger.warn('Health check failed', error as Error);
    throw new UnavailableError('The service cannot reach its table.');
  }
};
