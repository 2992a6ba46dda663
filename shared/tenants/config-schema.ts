import * as v from 'valibot';
import { KEY_SCOPES } from '../access/credentials.js';
import { UserRoleSchema } from '../access/roles.js';
import { UserScope } from '../access/user-scope.js';
import { AnalyticsConfig } from '../analytics/config.js';
import { LogoObject } from '../brand/logo.js';
import { BrandConfig } from '../brand/brand-schema.js';
import { CasesConfig } from '../cases/config.js';
import { AlertsConfig } from '../chat/config.js';
import { DigestsConfig } from '../digest/config.js';
import { entityId as id, nameField as name } from '../fields.js';
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE } from '../locale.js';
import { PrivacyConfig } from '../privacy/config.js';
import { Regions } from '../regions.js';
import { MIN_ANSWERS_TO_RANK } from '../results/config.js';
import { DeliveryConfig } from '../settings/delivery.js';
import { atMost, locale, timeZone, uniqueBy } from '../settings/fields.js';
import { ClassConfig, GroupConfig, JourneyConfig } from '../settings/journeys.js';
import { CommentAnalysisConfig, ThemesConfig } from '../themes/config.js';

/**
 * The tenant file's and the admin API's configuration, composed of the slices each concept owns: the core every
 * concept reads (shared/settings/: journeys, classes, groups, delivery), the regions (shared/regions.ts), the brand
 * (shared/brand/), the cases', chat alerts', digests', themes', privacy's, analytics' and ranking's `config.ts`, and the
 * users and keys (shared/access/). The concepts import their own slice and shared/settings/, never this module.
 */

export { AlertsConfig, AnalyticsConfig, CasesConfig, DeliveryConfig, DigestsConfig, PrivacyConfig };
export { ClassConfig, GroupConfig, JourneyConfig };
export { CaseRuleConfig, Group } from '../settings/journeys.js';
export type { LocalizedText } from '../settings/fields.js';
import type { Settings } from '../settings/settings.js';
export type { Settings };
export { ThemeConfig } from '../themes/config.js';
export { RankingConfig } from '../results/config.js';

const secret = v.pipe(
  v.string('must be a string'),
  v.minLength(16, 'must be at least 16 characters'),
  v.maxLength(256, 'must be at most 256 characters'),
);

/**
 * The brand (shared/brand/brand-schema.ts), a stored logo (shared/brand/logo.ts) and a user's scope
 * (shared/access/user-scope.ts), as the tenant file names them.
 */
export { BrandConfig, LogoObject, UserScope };

/**
 * The brand as the admin API reads and replaces it: the tenant file's rules (BrandConfig), except the logo, which is
 * the stored object that `PUT /public/admin/brand/logo` answered (the file's is a path on the operator's disk). The
 * name is answered resolved; left out of a replacement, it is the tenant's name.
 */
export const BrandDocument = v.strictObject({ ...BrandConfig.entries, logo: v.optional(LogoObject) });
export type BrandDocument = v.InferOutput<typeof BrandDocument>;

/**
 * The names of a new tenant's store 1 and employee 1 (`create-tenant --store`, or `firstStore` in the tenant file, required
 * when `apply` creates the tenant): customers read the store's name in their survey, so it is never a placeholder. The
 * employee is named after the store (its team) when absent.
 */
export const FirstStoreConfig = v.strictObject({ store: name(200), employee: v.optional(name(200)) });

export const UserConfig = v.strictObject({
  name: name(200),
  token: v.optional(secret),
  scope: UserScope,
  role: v.optional(UserRoleSchema),
  /**
   * The manager's mobile, for the case alert on WhatsApp (personal data: never logged). Normalised to E.164 (+55 when
   * it has no country code) by the tenant file's reader, which loads the phone rules that no function needs.
   */
  phone: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'))),
});

export const KeyConfig = v.strictObject({ scope: v.picklist(KEY_SCOPES, `must be one of ${KEY_SCOPES.join(', ')}`), value: secret });

/**
 * How many of each a configuration holds at most: every function reads the whole configuration again after a change
 * (one Query of its partition), and a replacement writes each item, so a configuration of thousands would slow every
 * request and outlast a function's timeout (3,000 journeys took 10.6 s to replace).
 */
export const CONFIG_LIMITS = { journeys: 100, classes: 100, groups: 500 } as const;

/** Each class a journey lists is defined in the same configuration. */
const journeyClassesDefined = <T extends { classes: ClassConfig[]; journeys: JourneyConfig[] }>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const classIds = new Set(dataset.value.classes.map((c) => c.id));
    dataset.value.journeys.forEach((journey, j) =>
      journey.classes.forEach((classId, c) => {
        if (!classIds.has(classId)) {
          addIssue({
            message: `class ${classId} is not defined in classes`,
            path: [
              { type: 'object', origin: 'value', input: dataset.value, key: 'journeys', value: dataset.value.journeys },
              { type: 'array', origin: 'value', input: dataset.value.journeys, key: j, value: journey },
              { type: 'object', origin: 'value', input: journey, key: 'classes', value: journey.classes },
              { type: 'array', origin: 'value', input: journey.classes, key: c, value: classId },
            ],
          });
        }
      }),
    );
  });

/**
 * What a tenant configures about itself, field by field: its entry in the tenant file holds these beside its id,
 * users and keys, and `PUT /public/admin/config` takes exactly these. One set of rules for both.
 */
const configEntries = {
  name: name(200),
  classes: v.optional(
    v.pipe(v.array(ClassConfig), atMost<ClassConfig>(CONFIG_LIMITS.classes, 'classes'), uniqueBy<ClassConfig>('id', 'class')),
    [],
  ),
  journeys: v.optional(
    v.pipe(
      v.array(JourneyConfig),
      atMost<JourneyConfig>(CONFIG_LIMITS.journeys, 'journeys'),
      uniqueBy<JourneyConfig>('id', 'journey'),
      uniqueBy<JourneyConfig>('slug', 'slug'),
    ),
    [],
  ),
  groups: v.optional(
    v.pipe(v.array(GroupConfig), atMost<GroupConfig>(CONFIG_LIMITS.groups, 'groups'), uniqueBy<GroupConfig>('id', 'group')),
    [],
  ),
  /** The chain's regions (shared/regions.ts): a store in one at most, two levels. */
  regions: v.optional(Regions, []),
  delivery: v.optional(DeliveryConfig, {}),
  privacy: v.optional(PrivacyConfig, {}),
  cases: v.optional(CasesConfig, {}),
  alerts: v.optional(AlertsConfig, {}),
  /** Its managers' digests (shared/digest/): whether a daily one goes out besides the weekly. */
  digests: v.optional(DigestsConfig, {}),
  /** The themes its comments are analysed for; absent: the default themes (shared/themes/theme.ts). */
  themes: v.optional(ThemesConfig),
  /** Whether Comprehend reads its comments' sentiment (shared/themes/config.ts). */
  commentAnalysis: v.optional(CommentAnalysisConfig, {}),
  analytics: v.optional(AnalyticsConfig, {}),
  /** The language of its surveys and pages when neither the customer nor the journey has one. */
  locale: v.optional(locale, DEFAULT_LOCALE),
  /** The time zone its people read times in (an IANA name). */
  timeZone: v.optional(timeZone, DEFAULT_TIME_ZONE),
  /** Stores and employees with fewer answers in a period are listed apart, never ranked (shared/results/ranking.ts). */
  minAnswersToRank: MIN_ANSWERS_TO_RANK,
};

export const TenantConfig = v.pipe(
  v.strictObject({
    id,
    ...configEntries,
    users: v.optional(v.array(UserConfig), []),
    keys: v.optional(v.array(KeyConfig), []),
    brand: v.optional(BrandConfig, {}),
    firstStore: v.optional(FirstStoreConfig),
  }),
  journeyClassesDefined(),
);
export type TenantConfig = v.InferOutput<typeof TenantConfig>;

/**
 * A tenant's configuration as the admin API reads and replaces it: the tenant file's rules, no id, users or keys, and
 * its brand with the logo as a stored object.
 */
export const ConfigDocument = v.pipe(v.strictObject({ ...configEntries, brand: v.optional(BrandDocument, {}) }), journeyClassesDefined());
export type ConfigDocument = v.InferOutput<typeof ConfigDocument>;

export const TenantFile = v.strictObject({ tenants: v.pipe(v.array(TenantConfig), v.minLength(1, 'must list at least one tenant')) });
export type TenantFile = v.InferOutput<typeof TenantFile>;

/**
 * What `putSettings` writes: the settings but the delivery and brand (written apart), with the language and time zone
 * stated, so that no write leaves them out and resets them (every write states the whole configuration).
 */
export type SettingsWrite = Omit<Settings, 'delivery' | 'brand'> & Pick<ConfigDocument, 'locale' | 'timeZone'>;
