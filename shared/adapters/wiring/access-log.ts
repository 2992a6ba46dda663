import { ENV, requireEnvs } from '../../config.js';
import { accessService } from '../../privacy/access.js';
import { accessLog } from '../access-log.js';

requireEnvs(ENV.tableName);

/** Who read which customer's personal data, and when: written by every read that answers it. */
export const { recordReads, readsOf } = accessService(accessLog);
