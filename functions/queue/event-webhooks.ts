import { ENV, requireEnvs } from '../../shared/config.js';
import { deliverEvent } from '../../shared/events/events.js';
import * as v from 'valibot';
import { EventDeliveryMessage } from '../../shared/events/delivery-message.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

requireEnvs(ENV.eventQueueUrl);
// Each tenant's webhook secret derives from the survey secret.
await loadSecrets(ENV.surveySecret);
const ports = deliveryPorts();

/** EventQueue consumer: each record one event for one endpoint; a failure is retried later, then dead-lettered. */
export const handler = queueHandler({ log: 'Event deliveries', outcomes: 'EventDeliveries', failures: 'outcome' }, (record) =>
  deliverEvent(v.parse(EventDeliveryMessage, JSON.parse(record.body)), ports),
);
