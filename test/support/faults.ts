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
