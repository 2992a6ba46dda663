import { configured, ENV, requireEnvs } from '../../config.js';
import { bestEffort, deliveryReplays, eventDeliveryPorts, eventPublisher, failedDeliveries } from '../events.js';
import { auditLog } from '../audit-log.js';
import { replayService } from '../../tenants/webhook-replay.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/**
 * Events: published after the write they report (an outage of the queue loses the event, never the write; it is
 * logged), delivered by the event consumer, failures listed per tenant.
 */
export const events = bestEffort(eventPublisher(tenantSettings));
export const deliveryPorts = () => eventDeliveryPorts(tenantSettings, configured(ENV.surveySecret));
export { failedDeliveries };

/** Re-sending failed deliveries (the admin's retry and replay), each written to the audit log. */
export const deliveryReplay = replayService({ deliveries: deliveryReplays, audit: auditLog });
