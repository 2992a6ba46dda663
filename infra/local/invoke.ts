import type { Context } from 'aws-lambda';
import { lambdaContext } from './events.js';
import { runAs } from './iam.js';

type Handler<E, R> = (event: E, context: Context) => Promise<R>;

/**
 * Invokes a deployed function's handler as Lambda would: with its context, and under its role's grants (iam.ts), so
 * that a call its role does not allow fails here as on AWS. Given `{ load }`, the module is imported under the role
 * too: what it reads at cold start (its secrets) is the function's own call. The gateway, the pollers and the tests
 * invoke through this.
 */
export function invoke<E, R>(functionId: string, handler: Handler<E, R> | { load: () => Promise<Handler<E, R>> }, event: E): Promise<R> {
  return runAs(functionId, async () => {
    const run = typeof handler === 'function' ? handler : await handler.load();
    return run(event, lambdaContext(functionId));
  });
}
