import type { Context } from 'aws-lambda';
import { lambdaContext } from './events.js';
import { runAs } from './iam.js';

/**
 * Invokes a deployed function's handler as Lambda would: with its context, and under its role's grants (iam.ts), so
 * that a call its role does not allow fails here as on AWS. The gateway, the pollers and the tests invoke through it.
 */
export function invoke<E, R>(functionId: string, handler: (event: E, context: Context) => Promise<R>, event: E): Promise<R> {
  return runAs(functionId, () => handler(event, lambdaContext(functionId)));
}
