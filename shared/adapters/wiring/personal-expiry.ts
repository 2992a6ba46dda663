import { ENV, requireEnvs } from '../../config.js';
import { sweepExpired } from '../../privacy/retention.js';
import { personalExpiry } from '../personal-expiry.js';

requireEnvs(ENV.tableName);

/** One run of the retention sweep over the table, until `timeLeft` runs short. */
export const expirePersonalCopies = (timeLeft: () => number, now = new Date()) => sweepExpired(personalExpiry, now, timeLeft);
