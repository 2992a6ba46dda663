import { ENV, requireEnvs } from '../../config.js';
import { bestEffort, eventPublisher } from '../events.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/**
 * Events: published after the write they report (an outage of the queue loses the event, never the write; it is
 * logged), delivered by the event consumer, failures listed per tenant (./event-deliveries.ts: the publishers hold
 * none of it).
 */
export const events = bestEffort(eventPublisher(tenantSettings));
