import * as v from 'valibot';
import { KEY_SCOPES } from '../access/credentials.js';
import { UserRoleSchema } from '../access/roles.js';
import type { SigningGenerations } from '../events/signature.js';
import { EVENT_TYPES } from '../events/ports.js';
import { CHAT_EVENTS, CHAT_KINDS, MAX_CHAT_ENDPOINTS } from '../chat/ports.js';
import { CHANNELS, HAND_OFF_CHANNELS } from '../channels.js';
import { isLocalDeployment } from '../config.js';
import { webAddressProblem } from '../web-address.js';
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE, LOCALES, type Locale } from '../locale.js';
import { LogoObject } from '../brand/logo.js';
import { UserScope } from '../access/user-scope.js';
import { Regions, type RegionConfig } from '../regions.js';
import { entityId as id, nameField as name } from '../fields.js';
import { BrandConfig } from '../brand/brand-schema.js';
import { MAX_KEYWORD_LENGTH, MAX_KEYWORDS, MAX_THEMES, type Theme } from '../themes/theme.js';
import type { BrandSettings } from '../brand/ports.js';
import { DEFAULT_MIN_ANSWERS_TO_RANK } from '../results/ranking.js';
import { DigestsConfig } from '../digest/choices.js';
import {
  CASE_RULE_DEFAULTS,
  DAYS,
  INDICATORS,
  JOURNEY_DEFAULTS,
  MAX_ATTEMPT_WAIT_MINUTES,
  MAX_ATTEMPTS,
  PRIVACY_DEFAULTS,
  ANALYTICS_DEFAULTS,
  type Bucket,
  type Indicator,
} from './scales.js';

const indicator = v.picklist(Object.keys(INDICATORS) as Indicator[], `must be one of ${Object.keys(INDICATORS).join(', ')}`);

const secret = v.pipe(
  v.string('must be a string'),
  v.minLength(16, 'must be at least 16 characters'),
  v.maxLength(256, 'must be at most 256 characters'),
);

const locale = v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`);

/** One of `schema` per language (`satisfies` keeps it to LOCALES: a language added there fails to compile here). */
const perLocale = <S>(schema: () => S) => ({ 'pt-BR': schema(), es: schema(), en: schema() }) satisfies Record<Locale, S>;

/** A text the tenant writes once per language it speaks; a language it leaves out gets the built-in text. */
const localized = (max: number) => v.strictObject(perLocale(() => v.optional(name(max))));
export type LocalizedText = Partial<Record<Locale, string>>;

const byBucket = (max: number) => {
  const text = () => v.optional(localized(max));
  return v.strictObject({
    detractor: text(),
    passive: text(),
    promoter: text(),
    low: text(),
    mid: text(),
    high: text(),
  } satisfies Record<Bucket, unknown>);
};

export const ClassConfig = v.strictObject({
  id,
  label: name(100),
  type: indicator,
  /** The class's question per language, e.g. { "pt-BR": "A entrega chegou no prazo?" }; by default one built on its label. */
  question: v.optional(localized(300)),
});
export type ClassConfig = v.InferOutput<typeof ClassConfig>;

/**
 * Which answers of a journey open a case (shared/cases/rules.ts): NPS detractors, the low third of another scale, a
 * score below `below`, any answer with a comment, or none. Absent: `detractor` for NPS, `low` for the other scales.
 */
export const CaseRuleConfig = v.strictObject({
  open: v.union(
    [
      v.picklist(['detractor', 'low', 'comment', 'none']),
      v.strictObject({ below: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1), v.maxValue(10)) }),
    ],
    'must be detractor, low, comment, none or { "below": n }',
  ),
  /** Business hours (the tenant's working hours) to the case's deadline. */
  deadlineHours: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be an integer'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(720, 'must be at most 720'),
    ),
    CASE_RULE_DEFAULTS.deadlineHours,
  ),
  /** Whether the alert goes on WhatsApp too (outside quiet hours). */
  whatsapp: v.optional(v.boolean('must be true or false'), CASE_RULE_DEFAULTS.whatsapp),
});
export type CaseRuleConfig = v.InferOutput<typeof CaseRuleConfig>;

export const JourneyConfig = v.strictObject({
  id,
  slug: v.pipe(name(64), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes')),
  name: v.optional(name(200)),
  indicator,
  classes: v.pipe(v.array(id, 'must be a list of class ids'), v.maxLength(100, 'may list at most 100 classes')),
  channels: v.pipe(
    v.array(v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`)),
    v.minLength(1, 'must list at least one channel'),
    v.maxLength(CHANNELS.length, `may list at most ${CHANNELS.length} channels`),
  ),
  resurveyWindowDays: v.optional(
    v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3650))),
    JOURNEY_DEFAULTS.resurveyWindowDays,
  ),
  /** The journey's main question, as the survey asks it in any language ({loja} is the company); by default a question of its indicator. */
  question: v.optional(name(300)),
  /** The main question per language, before `question`. */
  questions: v.optional(localized(300)),
  /** The language of its surveys when the customer has none; the tenant's when absent. */
  locale: v.optional(locale),
  /**
   * Whether it surveys an order shipped to the customer (e-commerce: true) or a visit to a place (false); absent, either.
   * Its comments' themes read it (docs/themes.md): waiting in an online journey is delivery, arrival words in a place are not.
   */
  online: v.optional(v.boolean('must be true or false')),
  /** A follow-up question by the main score's bucket, per language (the comment's label); built-in ones when absent. */
  followUp: v.optional(byBucket(300)),
  /** The thank-you text by the main score's bucket, per language; built-in ones when absent. */
  thanks: v.optional(byBucket(500)),
  /** Results of fewer answers than this are flagged `low_sample` (their score says little yet); 5 when unset. */
  minSample: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000'))),
  /**
   * Each dimension of the journey's result counters is spread over this many partitions, summed on read
   * (shared/results/tally.ts): 1 for most tenants; a journey whose peak writes its counters past a tenth of a partition's 1,000 write units a
   * second needs more (docs/performance.md: `npm run bench -- scale` gives the number). Raise it, never lower it:
   * counters written under a larger number would go unread.
   */
  resultShards: v.optional(
    v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(256, 'must be at most 256')),
  ),
  /** Days a survey link stays valid after it is sent. */
  surveyValidityDays: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(90, 'must be at most 90')),
    JOURNEY_DEFAULTS.surveyValidityDays,
  ),
  /** Channels whose attempts go to the tenant's own chatbot (its webhook) instead of a message from this service. */
  handOff: v.optional(
    v.pipe(
      v.array(v.picklist(HAND_OFF_CHANNELS, `must be one of ${HAND_OFF_CHANNELS.join(', ')}`)),
      v.maxLength(HAND_OFF_CHANNELS.length, `may list at most ${HAND_OFF_CHANNELS.length} channels`),
    ),
    JOURNEY_DEFAULTS.handOff,
  ),
  /**
   * The survey's attempts in order, each `afterMinutes` after the previous one was sent (the first after the
   * transaction). Without it, one attempt on the first reachable channel of `channels`.
   */
  attempts: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
          afterMinutes: v.pipe(
            v.number('must be a number'),
            v.integer('must be an integer'),
            v.minValue(0, 'must be at least 0'),
            v.maxValue(MAX_ATTEMPT_WAIT_MINUTES, `must be at most ${MAX_ATTEMPT_WAIT_MINUTES} (30 days)`),
          ),
        }),
        'must be a list of { channel, afterMinutes }',
      ),
      v.minLength(1, 'must list at least one attempt'),
      v.maxLength(MAX_ATTEMPTS, `may list at most ${MAX_ATTEMPTS} attempts`),
    ),
  ),
  /** When an answer opens a case, its deadline and whether its alert goes on WhatsApp too. */
  cases: v.optional(CaseRuleConfig),
});
export type JourneyConfig = v.InferOutput<typeof JourneyConfig>;

/**
 * A theme of the tenant's comments (shared/themes/): its slug, its name in each language and the keywords that find it in
 * a comment of each language (a language left out has none).
 */
export const ThemeConfig = v.strictObject({
  slug: v.pipe(name(40), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes')),
  name: v.strictObject(
    perLocale(() => name(100)),
    'must name the theme in pt-BR, es and en',
  ),
  keywords: v.strictObject(
    perLocale(() =>
      v.optional(
        v.pipe(
          v.array(name(MAX_KEYWORD_LENGTH), 'must be a list of keywords'),
          v.maxLength(MAX_KEYWORDS, `may list at most ${MAX_KEYWORDS} keywords`),
        ),
        [],
      ),
    ),
    'must be keywords by language, such as { "pt-BR": ["fila"], "es": ["cola"], "en": ["queue"] }',
  ),
  /** Words or phrases that cancel the theme's keywords in their sentence, by language (shared/themes/theme.ts). */
  exclude: v.optional(
    v.strictObject(
      perLocale(() =>
        v.optional(
          v.pipe(
            v.array(name(MAX_KEYWORD_LENGTH), 'must be a list of words or phrases'),
            v.maxLength(MAX_KEYWORDS, `may list at most ${MAX_KEYWORDS} exclusions`),
          ),
          [],
        ),
      ),
      'must be exclusions by language, such as { "pt-BR": ["a caixa"], "es": ["la caja"], "en": ["the box"] }',
    ),
  ),
}) satisfies v.GenericSchema<unknown, Theme>;

export const GroupConfig = v.strictObject({ id, name: name(200) });
export type GroupConfig = v.InferOutput<typeof GroupConfig>;
/** A group as stored and answered. */
export const Group = v.object(GroupConfig.entries);

const address = v.pipe(
  v.string('must be a string'),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an e-mail address'),
);
const webUrl = v.pipe(
  v.string('must be a string'),
  v.maxLength(2000, 'must be at most 2000 characters'),
  v.url('must be a URL'),
  // Judged by the parsed address, not its text: `http://localhost:x@host/` names `host`, user information first. A
  // pipe runs on after v.url fails: what is not a URL has its issue already, and must not throw here (a 500).
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || !URL.canParse(dataset.value)) return;
    const url = new URL(dataset.value);
    const problem = webAddressProblem(url, isLocalDeployment());
    if (problem) addIssue({ message: problem });
    // A user name or password in the address would be a secret in the configuration the admin API answers and audits.
    if (url.username || url.password)
      addIssue({ message: 'must not carry a user name or password (use a token the receiver checks, or the signature)' });
  }),
);

const clockTime = v.pipe(v.string('must be a string'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time such as 21:00'));

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeZone = v.pipe(
  v.string('must be a string'),
  v.maxLength(64, 'must be at most 64 characters'),
  v.check(isTimeZone, 'must be an IANA time zone such as America/Sao_Paulo'),
);

const whatsAppLanguage = v.pipe(v.string('must be a string'), v.regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a language code such as pt_BR'));

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
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        dataset.value.forEach((endpoint, index) => {
          if (dataset.value.findIndex((other) => other.url === endpoint.url) < index)
            addIssue({
              message: 'lists a URL twice (an endpoint is known by its URL)',
              path: [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: endpoint }],
            });
        });
      }),
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

/**
 * A tenant's alerts: a score drop beyond chance, and where its managers hear of cases besides e-mail: chat endpoints (shared/chat/), each a Slack incoming webhook
 * or a Teams Workflows webhook, known by its URL (the same address rules as the event webhooks).
 */
export const AlertsConfig = v.strictObject({
  /** A store's week significantly below its previous four sends its managers one e-mail (shared/results/score-drop.ts). */
  scoreDrop: v.optional(v.boolean('must be true or false'), false),
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
          comment: v.optional(v.boolean('must be true or false'), false),
        }),
        'must be a list of chat endpoints',
      ),
      v.maxLength(MAX_CHAT_ENDPOINTS, `may list at most ${MAX_CHAT_ENDPOINTS} endpoints`),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        dataset.value.forEach((endpoint, index) => {
          if (dataset.value.findIndex((other) => other.url === endpoint.url) < index)
            addIssue({
              message: 'lists a URL twice (an endpoint is known by its URL)',
              path: [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: endpoint }],
            });
        });
      }),
    ),
  ),
});
export type AlertsConfig = v.InferOutput<typeof AlertsConfig>;

/**
 * A tenant's cases (shared/cases/): the root causes a manager picks from when resolving one, and the working hours
 * its deadlines count (business hours). Absent: DEFAULT_CASES (shared/cases/rules.ts).
 */
export const CasesConfig = v.strictObject({
  rootCauses: v.optional(
    v.pipe(
      v.array(name(100), 'must be a list of root causes'),
      v.minLength(1, 'must list at least one root cause'),
      v.maxLength(50, 'may list at most 50 root causes'),
    ),
  ),
  workingHours: v.optional(
    v.strictObject({
      /** The tenant's time zone when absent. */
      timeZone: v.optional(timeZone),
      days: v.pipe(
        v.array(v.picklist(DAYS, `must be one of ${DAYS.join(', ')}`), 'must be a list of days'),
        v.minLength(1, 'must list at least one day'),
        v.maxLength(DAYS.length, `may list at most ${DAYS.length} days`),
      ),
      from: clockTime,
      to: clockTime,
    }),
  ),
});
export type CasesConfig = v.InferOutput<typeof CasesConfig>;

/** A tenant's privacy settings. */
export const PrivacyConfig = v.strictObject({
  /**
   * Days after which what a transaction copied of its customer (name, survey contacts) and its answer's comment and
   * chatbot respondent are removed, counted from the transaction and again from each answer; none when null.
   */
  retentionDays: v.optional(
    v.nullable(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be an integer'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(3650, 'must be at most 3650'),
      ),
    ),
    PRIVACY_DEFAULTS.retentionDays,
  ),
});
export type PrivacyConfig = v.InferOutput<typeof PrivacyConfig>;

/** What the tenant's analytics export (shared/analytics/, docs/analytics.md) holds beyond the default. */
export const AnalyticsConfig = v.strictObject({
  /** The answers' comments: free text may name a person, so they leave the service only when the tenant opts in. */
  comments: v.optional(v.boolean('must be true or false'), ANALYTICS_DEFAULTS.comments),
});
export type AnalyticsConfig = v.InferOutput<typeof AnalyticsConfig>;

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

const atMost = <T>(limit: number, what: string) => v.maxLength<T[], number, string>(limit, `may list at most ${limit} ${what}`);

const uniqueBy = <T>(field: keyof T & string, label: string) =>
  v.rawCheck<T[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<unknown>();
    dataset.value.forEach((item, index) => {
      if (seen.has(item[field])) {
        // The path names the field, so that a form shows the message next to its input.
        addIssue({
          message: `${label} ${String(item[field])} is defined twice`,
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: index, value: item },
            { type: 'object', origin: 'value', input: item as Record<string, unknown>, key: field, value: item[field] },
          ],
        });
      }
      seen.add(item[field]);
    });
  });

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

/** Stores and employees with fewer answers in a period are listed apart, never ranked (shared/results/ranking.ts). */
export const RankingConfig = v.strictObject({
  minAnswersToRank: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(1000, 'must be at most 1000'),
    ),
    DEFAULT_MIN_ANSWERS_TO_RANK,
  ),
});

/** Alerts a tenant turns on: `scoreDrop`, an e-mail to a store's managers when its week is significantly worse. */

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
  themes: v.optional(
    v.pipe(
      v.array(ThemeConfig, 'must be a list of themes'),
      v.minLength(1, 'must list at least one theme (leave themes out for the default ones)'),
      atMost<v.InferOutput<typeof ThemeConfig>>(MAX_THEMES, 'themes'),
      uniqueBy<v.InferOutput<typeof ThemeConfig>>('slug', 'theme'),
    ),
  ),
  analytics: v.optional(AnalyticsConfig, {}),
  /** The language of its surveys and pages when neither the customer nor the journey has one. */
  locale: v.optional(locale, DEFAULT_LOCALE),
  /** The time zone its people read times in (an IANA name). */
  timeZone: v.optional(timeZone, DEFAULT_TIME_ZONE),
  /** Stores and employees with fewer answers in a period are listed apart, never ranked (shared/results/ranking.ts). */
  minAnswersToRank: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(1000, 'must be at most 1000'),
    ),
    DEFAULT_MIN_ANSWERS_TO_RANK,
  ),
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

/** A tenant's configuration as the services read it: its journeys, classes, groups and delivery settings. */
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
  /** Absent: no retention. */
  privacy?: PrivacyConfig;
  /** Absent: DEFAULT_CASES. */
  cases?: CasesConfig;
  /** Absent: every alert off, no chat endpoints. */
  alerts?: AlertsConfig;
  /** Absent: DIGESTS_DEFAULTS. */
  digests?: DigestsConfig;
  /** Absent: ANALYTICS_DEFAULTS. */
  analytics?: AnalyticsConfig;
  /** The tenant's language; absent: DEFAULT_LOCALE. */
  locale?: Locale;
  /** The tenant's time zone; absent: DEFAULT_TIME_ZONE. */
  timeZone?: string;
  /** Absent for a tenant created before brands: brandOf's defaults. */
  brand?: BrandSettings;
  /** The generation the QR codes are signed under (shared/qr/token.ts); absent: 1, never rotated. */
  qrGeneration?: number;
  /** Absent: DEFAULT_MIN_ANSWERS_TO_RANK. */
  minAnswersToRank?: number;
  /** The tenant's themes, in slug order; absent: DEFAULT_THEMES. */
  themes?: Theme[];
}

/**
 * What `putSettings` writes: the settings but the delivery and brand (written apart), with the language and time zone
 * stated, so that no write leaves them out and resets them (every write states the whole configuration).
 */
export type SettingsWrite = Omit<Settings, 'delivery' | 'brand'> & Pick<ConfigDocument, 'locale' | 'timeZone'>;
