import * as v from 'valibot';
import { entityId as id } from '../fields.js';
import { urlsOnce, webUrl } from '../settings/endpoints.js';
import { flag } from '../settings/fields.js';
import { CHAT_EVENTS, CHAT_KINDS, MAX_CHAT_ENDPOINTS } from './ports.js';

/**
 * A tenant's alerts: a score drop beyond chance, and where its managers hear of cases besides e-mail: chat endpoints (shared/chat/), each a Slack incoming webhook
 * or a Teams Workflows webhook, known by its URL (the same address rules as the event webhooks).
 */
export const AlertsConfig = v.strictObject({
  /** A store's week significantly below its previous four sends its managers one e-mail (shared/results/score-drop.ts). */
  scoreDrop: flag(false),
  chat: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          kind: v.picklist(CHAT_KINDS, `must be one of ${CHAT_KINDS.join(', ')}`),
          url: webUrl,
          events: v.pipe(
            v.array(v.picklist(CHAT_EVENTS, `must be one of ${CHAT_EVENTS.join(', ')}`), 'must be a list of events'),
            v.minLength(1, 'must list at least one event'),
            v.maxLength(CHAT_EVENTS.length, `may list at most ${CHAT_EVENTS.length} events`),
          ),
          /** The stores it hears of; all when absent. */
          stores: v.optional(
            v.pipe(
              v.array(id, 'must be a list of store ids'),
              v.minLength(1, 'must list at least one store'),
              v.maxLength(500, 'may list at most 500 stores'),
            ),
          ),
          /** Whether a case's message shows the customer's comment (customers type CPFs and phones into it). */
          comment: flag(false),
        }),
        'must be a list of chat endpoints',
      ),
      v.maxLength(MAX_CHAT_ENDPOINTS, `may list at most ${MAX_CHAT_ENDPOINTS} endpoints`),
      urlsOnce(),
    ),
  ),
});
export type AlertsConfig = v.InferOutput<typeof AlertsConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: every alert off, no chat endpoints. */
    alerts?: AlertsConfig;
  }
}
