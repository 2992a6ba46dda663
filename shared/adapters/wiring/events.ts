import { configured, ENV, requireEnvs } from '../../config.js';
import { bestEffort, eventDeliveryPorts, eventPublisher, failedDeliveries } from '../events.js';
import { tenantSettings } from './tenants.js';

requireEnvs(ENV.tableName);

/**
 * Events: published after the write they report (an outage of the queue loses the event, never the write; it is
 * logged), delivered by the event consumer, failures listed per tenant.
 */
export const events = bestEffort(eventPublisher(tenantSettings));
export const deliveryPorts = () => eventDeliveryPorts(tenantSettings, configured(ENV.surveySecret));
export { failedDeliveries };
