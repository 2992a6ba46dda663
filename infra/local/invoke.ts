import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { nameInvocationsBy } from '../../shared/logger.js';
import { lambdaContext } from './events.js';
import { runAs } from './iam.js';

type Handler<E, R> = (event: E, context: Context) => Promise<R>;

// Every function runs in this one process, several at once: each log line names the invocation that wrote it.
const invocations = new AsyncLocalStorage<Context>();
nameInvocationsBy(() => invocations.getStore());

/**
 * Invokes a deployed function's handler as Lambda would: with its context, and under its role's grants (iam.ts), so
 * that a call its role does not allow fails here as on AWS. Given `{ load }`, the module is imported under the role
 * too: what it reads at cold start (its secrets) is the function's own call. The gateway, the pollers and the tests
 * invoke through this.
 */
export function invoke<E, R>(functionId: string, handler: Handler<E, R> | { load: () => Promise<Handler<E, R>> }, event: E): Promise<R> {
  const context = lambdaContext(functionId);
  return invocations.run(context, () =>
    runAs(functionId, async () => {
      const run = typeof handler === 'function' ? handler : await handler.load();
      return run(event, context);
    }),
  );
}
