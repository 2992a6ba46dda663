import * as v from 'valibot';
import { DigestMessage } from '../../shared/digest/schema.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';

/** DigestQueue consumer: a tenant's scheduled run queues its users' digests; a user's digest is claimed, then sent once. */
export const handler = queueHandler({ log: 'Digests', outcomes: 'Digests' }, (record) =>
  digestSending.handle(v.parse(DigestMessage, JSON.parse(record.body))),
);
