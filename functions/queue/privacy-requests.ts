import * as v from 'valibot';
import { queueHandler } from '../../shared/queue/handler.js';
import { MAX_RECEIVE_COUNT, receiveCount } from '../../shared/queues.js';
import { PrivacyMessage } from '../../shared/privacy/schema.js';
import { privacyWorker } from '../../shared/adapters/wiring/privacy.js';

/** PrivacyQueue consumer: each record one privacy request (export or erase); a failure is tried again, five times. */
export const handler = queueHandler({ log: 'Privacy requests', outcomes: 'PrivacyRequests' }, (record) => {
  const { tenantId, requestId, recheck } = v.parse(PrivacyMessage, JSON.parse(record.body));
  return privacyWorker.process(tenantId, requestId, { lastTry: receiveCount(record) >= MAX_RECEIVE_COUNT, recheck: recheck === true });
});
