import { db } from '../../shared/adapters/dynamodb.js';

/** A failure thrown by every call of one DynamoDB command while `run` runs. */
export async function whileFailing<T>(command: RegExp, error: Error, run: () => Promise<T>): Promise<T> {
  const stack = db().client.middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if (command.test(String(context.commandName))) throw error;
      return next(args);
    },
    { step: 'initialize', name: 'injectFailure' },
  );
  try {
    return await run();
  } finally {
    stack.remove('injectFailure');
  }
}

/**
 * A slow network for some calls: each DynamoDB call that `slow` picks (by command and key) waits `delayMs()` before it
 * is sent, while `run` runs. Widens the windows between the steps of concurrent work, so that a race can be seen.
 */
export async function whileSlow<T>(
  slow: (command: string, key: Record<string, unknown> | undefined) => boolean,
  delayMs: () => number,
  run: () => Promise<T>,
): Promise<T> {
  const stack = db().client.middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const key = (args.input as { Key?: Record<string, unknown> }).Key;
      if (slow(String(context.commandName), key)) await new Promise((resolve) => setTimeout(resolve, delayMs()));
      return next(args);
    },
    { step: 'initialize', name: 'injectLatency' },
  );
  try {
    return await run();
  } finally {
    stack.remove('injectLatency');
  }
}

/**
 * A throttled table for BatchGetItem: DynamoDB Local answers, then the first `times` answers are given back with
 * every key unprocessed and nothing read, as DynamoDB does when a partition is over its throughput. Counts the calls.
 */
export async function whileBatchGetThrottled<T>(times: number, run: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const stack = db().client.middlewareStack;
  let calls = 0;
  stack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (!String(context.commandName).startsWith('BatchGet') || ++calls > times) return out;
      const input = args.input as { RequestItems: Record<string, unknown> };
      return { ...out, output: { ...(out.output as object), Responses: {}, UnprocessedKeys: input.RequestItems } } as typeof out;
    },
    { step: 'initialize', name: 'injectUnprocessed' },
  );
  try {
    return { result: await run(), calls };
  } finally {
    stack.remove('injectUnprocessed');
  }
}
