import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Every line carries the function (the operation), and the HTTP wrapper adds the request id
 * and tenant. Events are never logged whole: they carry keys, tokens and personal data.
 */
export const logger = new Logger({ serviceName: 'survey-service' });

/** An error as a log line may show it: its class and the start of its message (SDK messages name no personal data). */
export const describeError = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message.slice(0, 300) } : { name: typeof error, message: '' };
