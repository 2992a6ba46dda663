import * as v from 'valibot';
import { logger } from '../logger.js';
import { receiveCount, type QueueRecord } from '../queues.js';
import { deliverSurvey, type DeliveryConfig, type DeliveryOutcome } from './delivery.js';
import { DispatchMessage } from './dispatch.js';
import type { DeliveryPorts } from './ports.js';
import type { Settings } from '../settings/settings.js';

/**
 * One SurveyDispatchQueue record: one survey attempt, sent on its channel once. A record that is not a dispatch
 * message, or whose send must be retried (throttling, a provider's 5xx, an attempt another delivery holds), throws:
 * it comes back, and reaches the DLQ after 5 receives. Logged by ids only: providers' messages may quote an address.
 */
export async function dispatchRecord(
  record: QueueRecord,
  ports: DeliveryPorts & { settings: (tenantId: number) => Promise<Settings> },
  config: DeliveryConfig,
): Promise<DeliveryOutcome> {
  const receives = receiveCount(record);
  // One that is not a dispatch message throws here; the queue wrapper logs where it is wrong.
  const message = v.parse(DispatchMessage, JSON.parse(record.body));
  const { tenantId, transactionId, attemptId, channel } = message;
  try {
    const outcome = await deliverSurvey({ message, ports, config });
    if (outcome !== 'sent') logger.debug('Survey attempt not sent now', { tenantId, transactionId, attemptId, channel, outcome });
    return outcome;
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    logger.error('Survey delivery failed; the message goes back to the queue', {
      messageId: record.messageId,
      receives,
      tenantId,
      transactionId,
      attemptId,
      channel,
      error: { name, status },
    });
    throw error;
  }
}
