import { deliverChat } from '../../shared/chat/delivery.js';
import type { ChatDelivery } from '../../shared/chat/ports.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { chatPorts } from '../../shared/adapters/wiring/chat.js';

/** ChatQueue consumer: each record one event for one Slack or Teams endpoint; sent once, a failure retried later. */
export const handler = queueHandler({ log: 'Chat deliveries', outcomes: 'ChatDeliveries', failures: 'outcome' }, (record) =>
  deliverChat(JSON.parse(record.body) as ChatDelivery, chatPorts),
);
