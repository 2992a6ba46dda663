import type { Context, SNSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { logger } from '../../shared/logger.js';
import { flushMetrics } from '../../shared/metrics.js';
import { recordEmailFeedback, SesEvent } from '../../shared/surveys/feedback.js';
import { emailFeedback } from '../../shared/adapters/wiring/survey-pages.js';

/**
 * SES bounce and complaint events of survey e-mails, from the configuration set's SNS destination. A record that
 * is not an SES event is logged and skipped (SNS would retry it forever otherwise); a failure to store throws, and
 * SNS retries the delivery.
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
