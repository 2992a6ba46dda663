import * as v from 'valibot';
import { EVENT_TYPES } from '../events/ports.js';
import { nameField as name } from '../fields.js';
import { urlsOnce, webUrl } from './endpoints.js';
import { address, clockTime, perLocale, timeZone, whatsAppLanguage } from './fields.js';

/** How a tenant's surveys go out: its sender identities on each channel, and its chatbot's webhook. */
export const DeliveryConfig = v.strictObject({
  email: v.optional(v.strictObject({ from: address, name: v.optional(name(100)) })),
  sms: v.optional(v.strictObject({ originationIdentity: name(256) })),
  whatsapp: v.optional(
    v.strictObject({
      phoneNumberId: name(256),
      template: name(512),
      language: whatsAppLanguage,
      /**
       * The approved template of the case alert to managers (journeys whose case rule says `whatsapp`): its body takes
       * the score, the store and the link to the case, in this order. Absent: the alert goes by e-mail only.
       */
      caseAlert: v.optional(v.strictObject({ template: name(512), language: whatsAppLanguage })),
      /** The approved template of each survey language; a language without one uses `template` and `language`. */
      templates: v.optional(
        v.strictObject(perLocale(() => v.optional(v.strictObject({ template: name(512), language: whatsAppLanguage })))),
      ),
    }),
  ),
  chatbot: v.optional(v.strictObject({ url: webUrl })),
  /**
   * Endpoints that receive the tenant's events, each signed with a secret of its own (shared/events/). An endpoint is
   * known by its URL, so a URL is listed once.
   */
  webhooks: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          url: webUrl,
          /** The event types it receives; all when absent. */
          events: v.optional(
            v.pipe(
              v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
              v.minLength(1),
              v.maxLength(EVENT_TYPES.length, `may list at most ${EVENT_TYPES.length} events`),
            ),
          ),
          /**
           * Whether `survey.answered` carries the customer's free-text comment (customers type CPFs and phones into
           * it): off unless the tenant opts this endpoint in.
           */
          includeComment: v.optional(v.boolean('must be true or false')),
        }),
      ),
      v.maxLength(5, 'may list at most 5 endpoints'),
      urlsOnce(),
    ),
  ),
  /**
   * A daily window, in the tenant's time zone unless it names its own, in which no SMS, WhatsApp, voice or chatbot
   * hand-off goes out (e-mail does); an attempt due inside it waits until it ends. Absent: DEFAULT_QUIET_HOURS; null: none.
   */
  quietHours: v.optional(
    v.nullable(
      v.strictObject({
        /** The tenant's time zone when absent. */
        timeZone: v.optional(timeZone),
        from: clockTime,
        to: clockTime,
      }),
    ),
  ),
});
export type DeliveryConfig = v.InferOutput<typeof DeliveryConfig>;
