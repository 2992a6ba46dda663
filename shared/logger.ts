import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Every line carries the function (the operation), and the HTTP wrapper adds the request id
 * and tenant. Events are never logged whole: they carry keys, tokens and personal data.
 */
export const logger = new Logger({ serviceName: 'survey-service' });
