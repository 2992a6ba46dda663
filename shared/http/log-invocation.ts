import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../logger.js';

/** The middy middleware of the HTTP wrappers: the invocation's context on every line, its appended keys reset after. */
export const logInvocation = <Event, Result>(): MiddlewareObj<Event, Result, Error, Context> => ({
  before: ({ context }) => logger.addContext(context),
  after: () => logger.resetKeys(),
  onError: () => logger.resetKeys(),
});
