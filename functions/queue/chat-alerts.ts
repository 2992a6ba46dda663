import { deliverChat } from '../../shared/chat/delivery.js';
import * as v from 'valibot';
import { ChatDeliveryMessage } from '../../shared/chat/delivery-message.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { chatPorts } from '../../shared/adapters/wiring/chat.js';

/** ChatQueue consumer: each record one event for one Slack or Teams endpoint; sent once, a failure retried later. */
export const handler = queueHandler({ log: 'Chat deliveries', outcomes: 'ChatDeliveries', failures: 'outcome' }, (record) =>
  deliverChat(v.parse(ChatDeliveryMessage, JSON.parse(record.body)), chatPorts),
);
