import * as v from 'valibot';
import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { DigestMessage } from '../../shared/digest/schema.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';

// The secret each e-mail's unsubscribe link is signed with, read at cold start.
await configuredSecret(ENV.surveySecret);

/** DigestQueue consumer: a tenant's scheduled run queues its users' digests; a user's digest is claimed, then sent once. */
export const handler = queueHandler({ log: 'Digests', outcomes: 'Digests' }, (record) =>
  digestSending.handle(v.parse(DigestMessage, JSON.parse(record.body))),
);
