import { ENV } from '../../config.js';
import { configuredSecret } from '../secrets.js';

// Only the consumer signs request ids (its rejection events carry the one the client was given): it reads that
// secret at cold start; the synchronous route, which shares the transactions wiring, is given none.
await configuredSecret(ENV.requestIdSecret);

export { consumeBatch } from './transactions.js';
