import { ENV, requireEnvs, wire } from '../../config.js';
import { chatComposer } from '../../chat/delivery.js';
import type { ChatDeliveryPorts, ChatEventRecord } from '../../chat/ports.js';
import { chatDeliveryPorts, chatStatus } from '../chat-deliveries.js';
import { chatReplay } from '../../chat/replay.js';
import { auditLog } from '../audit-log.js';
import { chatPublisher } from '../chat-publisher.js';
import { caseNames } from '../case-ports.js';
import { caseStore } from '../case-repository.js';
import { logger } from '../../logger.js';
import { tenantSettings } from './tenants.js';

/** Delivering chat messages (the chat queue's consumer): the case's names and comment read when a message is composed. */
export const chatPorts = /* @__PURE__ */ wire((): ChatDeliveryPorts => {
  requireEnvs(ENV.tableName, ENV.chatQueueUrl, ENV.surveyBaseUrl);
  return {
    ...chatDeliveryPorts(tenantSettings),
    compose: chatComposer({
      settings: tenantSettings,
      names: caseNames,
      comment: async (tenantId, caseId) => {
        const record = await caseStore.find(tenantId, caseId);
        return record && (record.comment ?? null);
      },
      // Read when a link is made: outside a function runtime (the tests, the benchmarks) the module may load before it is set.
      get baseUrl() {
        return process.env[ENV.surveyBaseUrl] ?? '';
      },
    }),
  };
});

/**
 * Sends a message to each of the tenant's chat endpoints that takes its event and store (none: nothing happens), for
 * the parts that compose their own (the digest: `{ id, type: 'digest', created_at, data: ChatDigest }`, the same id
 * for the same digest, so that it is sent once per endpoint). Never throws: a message not queued is logged.
 */
export const sendChat = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  const publisher = chatPublisher(tenantSettings);
  return async (tenantId: number, event: ChatEventRecord): Promise<void> => {
    try {
      await publisher.publish(tenantId, event);
    } catch (error) {
      logger.error('Chat message not queued', { tenantId, eventId: event.id, type: event.type, error: (error as Error).name });
    }
  };
});

/** The admin page's view of the chat endpoints: the failed deliveries, each endpoint's health, and a re-send. */
export const chatAdmin = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  // The URLs are masked among the tenant's endpoints', as its configuration reads them.
  const urls = async (tenantId: number) => ((await tenantSettings(tenantId)).alerts?.chat ?? []).map((endpoint) => endpoint.url);
  return {
    failed: async (tenantId: number, limit: number) => chatStatus.failed(tenantId, limit, await urls(tenantId)),
    health: async (tenantId: number) => chatStatus.health(tenantId, await urls(tenantId)),
  };
});

/** Re-sending a failed chat message (the admin's retry), written to the audit log. */
export const chatRetries = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.chatQueueUrl);
  return chatReplay({ deliveries: chatStatus, audit: auditLog });
});
