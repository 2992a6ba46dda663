import type { Context, SNSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { recordEmailFeedback, SesEvent } from '../../shared/surveys/feedback.js';
import { emailFeedback } from '../../shared/adapters/wiring/surveys.js';

/**
 * SES bounce and complaint events of survey e-mails, from the configuration set's SNS destination. SNS invokes this
 * function asynchronously: its own retries cover only handing the notification to Lambda. A record that is not an
 * SES event is logged and skipped (throwing would only fail it three times over); a failure to store throws, Lambda
 * retries the invocation twice, and then records it, event and error, on the async-failure queue (its alarm fires;
 * `npm run admin -- redrive asyncFailures` invokes it again). Suppressing an address or opting a customer out twice leaves the same state.
 */
export const handler = async (event: SNSEvent, context: Context): Promise<void> => {
  logger.addContext(context);
  for (const record of event.Records) {
    let parsed: v.SafeParseResult<typeof SesEvent>;
    try {
      parsed = v.safeParse(SesEvent, JSON.parse(record.Sns.Message));
    } catch {
      parsed = { success: false } as v.SafeParseResult<typeof SesEvent>;
    }
    if (!parsed.success) {
      logger.warn('Not an SES event; skipped', { messageId: record.Sns.MessageId });
      continue;
    }
    const outcome = await recordEmailFeedback(parsed.output, emailFeedback);
    logger.info('SES event', { messageId: record.Sns.MessageId, outcome });
  }
  flushMetrics();
};
