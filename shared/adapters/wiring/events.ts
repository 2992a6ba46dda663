import { configured, ENV, requireEnvs, wire } from '../../config.js';
import type { EventPublisher } from '../../events/ports.js';
import * as replay from '../../events/webhook-replay.js';
import * as signing from '../../events/webhook-signing.js';
import { auditLog } from '../audit-log.js';
import * as deliveries from '../event-deliveries.js';
import { rotateSigning } from '../event-signing.js';
import { bestEffort, eventPublisher } from '../events.js';
import { chatPublisher } from '../chat-publisher.js';
import { readSettings } from '../settings-repository.js';
import { raiseConfigVersion } from '../tenant-repository.js';
import { tenantSettings } from './tenants.js';

/**
 * Events: published after the write they report (an outage of the queue loses the event, never the write; it is
 * logged), delivered by the event consumer, failures listed per tenant (the publishers hold none of it). The case
 * events go to the tenant's chat endpoints as well (shared/chat/), each fan-out failing alone.
 */
export const events = /* @__PURE__ */ wire((): EventPublisher => {
  requireEnvs(ENV.tableName);
  const publishers = [bestEffort(eventPublisher(tenantSettings)), bestEffort(chatPublisher(tenantSettings))];
  return { publish: async (tenantId, event) => void (await Promise.all(publishers.map((p) => p.publish(tenantId, event)))) };
});

/** Delivering events (the event consumer), signed with the tenant's secrets. */
export const deliveryPorts = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return () => deliveries.eventDeliveryPorts(tenantSettings, configured(ENV.surveySecret));
});

/** The failed deliveries listed per tenant. */
export const failedDeliveries = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return deliveries.failedDeliveries;
});

/** Re-sending failed deliveries (the admin's retry and replay), each written to the audit log. */
export const deliveryReplay = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return replay.replayService({ deliveries: deliveries.deliveryReplays, audit: auditLog });
});

/** The webhook secrets' rotation (POST /public/admin/webhooks/rotate), over only the repository functions it calls. */
export const webhookRotation = /* @__PURE__ */ wire(() => {
  // The rotate route reads and writes the tenant's webhook signing in the table.
  requireEnvs(ENV.tableName);
  return signing.webhookRotation(
    { readSettings, rotateSigning, raiseConfigVersion },
    { surveySecret: () => process.env[ENV.surveySecret], surveySecretName: ENV.surveySecret, audit: auditLog },
  );
});
