import { configured, ENV, requireEnvs } from '../../config.js';
import { deliveryReplays, eventDeliveryPorts, failedDeliveries } from '../event-deliveries.js';
import { auditLog } from '../audit-log.js';
import { replayService } from '../../tenants/webhook-replay.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** Delivering events (the event consumer) and the failed deliveries listed per tenant. */
export const deliveryPorts = () => eventDeliveryPorts(tenantSettings, configured(ENV.surveySecret));
export { failedDeliveries };

/** Re-sending failed deliveries (the admin's retry and replay), each written to the audit log. */
export const deliveryReplay = replayService({ deliveries: deliveryReplays, audit: auditLog });
