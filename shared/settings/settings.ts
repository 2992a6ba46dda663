import type { BrandSettings } from '../brand/ports.js';
import type { SigningGenerations } from '../events/signature.js';
import type { Locale } from '../locale.js';
import type { RegionConfig } from '../regions.js';
import type { DeliveryConfig } from './delivery.js';
import type { ClassConfig, GroupConfig, JourneyConfig } from './journeys.js';

/**
 * A tenant's configuration as the services read it. The core every concept reads is declared here: journeys, classes,
 * groups, regions, delivery, language, time zone and brand. A concept that owns a slice of the configuration declares
 * its schema, its defaults and its field of this record in its own `config.ts`, by augmenting this interface
 * (`declare module '../settings/settings.js'`): the cases' `cases` (shared/cases/config.ts), the chat's and score
 * drop's `alerts` (shared/chat/config.ts), the digests' `digests` (shared/digest/config.ts), the themes' `themes`
 * (shared/themes/config.ts), the privacy's `privacy` and the analytics' `analytics`. So this folder imports none of
 * them, and each of them reads the record without importing shared/tenants/, which composes the slices' schemas
 * (config-schema.ts).
 */
export interface Settings {
  journeys: JourneyConfig[];
  classes: ClassConfig[];
  groups: GroupConfig[];
  /** Absent: none (shared/regions.ts). */
  regions?: RegionConfig[];
  delivery: DeliveryConfig & {
    /**
     * The generations of each webhook endpoint's signing secret, by endpoint (`CHATBOT_ENDPOINT`, `eventEndpoint(url)`);
     * the secrets themselves are derived, never stored. An endpoint absent here signs with generation 1.
     */
    signing?: Record<string, SigningGenerations>;
  };
  /** The tenant's language; absent: DEFAULT_LOCALE. */
  locale?: Locale;
  /** The tenant's time zone; absent: DEFAULT_TIME_ZONE. */
  timeZone?: string;
  /** Absent for a tenant created before brands: brandOf's defaults. */
  brand?: BrandSettings;
  /** The generation the QR codes are signed under (shared/in-store/qr-token.ts); absent: 1, never rotated. */
  qrGeneration?: number;
  /** Absent: DEFAULT_MIN_ANSWERS_TO_RANK. */
  minAnswersToRank?: number;
}
