/**
 * Every key string of the table is built here and nowhere else.
 *
 * Tenant data lives under `T#<tenantId>#...`; the tenant comes only from the authorizer context, so no request
 * can address another tenant's items. The only keys outside a tenant are the ones looked up before the tenant
 * is known (an API key's hash, a sign-in's failed attempts) and the tenant registry itself.
 */
export type Entity = 'STORE' | 'EMPLOYEE' | 'CUSTOMER' | 'TRANSACTION';
/** What an answer is listed by beside its store: its themes and its sentiment. */
export type AnswerFilter = 'theme' | 'sentiment';
/** One theme or one sentiment an answer is listed by. */
export type AnswerFilterValue = { filter: AnswerFilter; value: string };
/** A counter's place in a sort key: its dimension, grain and period (a day or a month; empty for a prefix). */
type CounterSort = { dimension: string; grain: 'day' | 'month'; period: string };

/** Ids are padded so that string sort keys sort numerically. */
export const padId = (id: number): string => id.toString().padStart(10, '0');

const tenant = (tenantId: number) => `T#${tenantId}`;

/** The segment of each exact-value index partition: the writer of an index entry and its query both use it. */
export const INDEXED = { status: 'STATUS', externalId: 'EXTID', email: 'EMAIL', phone: 'PHONE', cpf: 'CPF' } as const;
export type IndexedField = keyof typeof INDEXED;

const API_KEY_PREFIX = 'APIKEY#';

export const keys = {
  tenant: (tenantId: number) => ({ pk: tenant(tenantId), sk: 'TENANT' }),
  tenantCollection: () => 'TENANTS',
  tenantCounter: () => ({ pk: 'COUNTER', sk: 'TENANT' }),

  apiKey: (hash: string) => ({ pk: `${API_KEY_PREFIX}${hash}`, sk: 'APIKEY' }),
  /** The hash an API key's item is stored under. */
  apiKeyHashOf: (pk: string) => pk.slice(API_KEY_PREFIX.length),
  apiKeyCollection: (tenantId: number) => `${tenant(tenantId)}#APIKEY`,

  /**
   * The failed sign-ins of an account or an address in the current window, before any tenant is known (a sign-in
   * name is the pool's, not a tenant's): by the hash of what is counted, so that no address or e-mail is stored.
   */
  signInFailures: (kind: 'account' | 'address', hash: string) => ({ pk: `SIGNIN#${kind.toUpperCase()}#${hash}`, sk: 'FAILURES' }),

  /** A user is found by the hash of its token; its name is its identity in tenant files. */
  userToken: (tenantId: number, hash: string) => ({ pk: `${tenant(tenantId)}#USERTOKEN#${hash}`, sk: 'USER' }),
  userCollection: (tenantId: number) => `${tenant(tenantId)}#USER`,
  /** A user's name, pointing at its token's hash: names are unique per tenant, and read consistently. */
  userName: (tenantId: number, name: string) => ({ pk: `${tenant(tenantId)}#USERNAME#${name}`, sk: 'USERNAME' }),

  /** Journeys, classes, groups and regions: a tenant's configuration, small, read in one Query. */
  config: (tenantId: number) => `${tenant(tenantId)}#CONFIG`,
  configItem: (kind: 'JOURNEY' | 'CLASS' | 'GROUP' | 'REGION', id: number) => `${kind}#${padId(id)}`,
  /** Every configuration item of a kind (the regions, read alone to resolve a user's scope). */
  configItems: (kind: 'REGION') => `${kind}#`,
  /** The tenant's delivery settings: one item in the configuration partition. */
  deliveryConfig: 'DELIVERY',
  /** The tenant's privacy settings (retention). */
  privacyConfig: 'PRIVACY',
  /** The tenant's case settings (root causes, working hours). */
  casesConfig: 'CASES',
  /** The tenant's analytics export settings (comments opted in). */
  analyticsConfig: 'ANALYTICS',
  /** The tenant's analytics pseudonym key (shared/adapters/analytics-key.ts). */
  analyticsKey: 'ANALYTICS_KEY',
  /** The tenant's language and time zone. */
  languageConfig: 'LANGUAGE',
  /** The tenant's ranking rule (minAnswersToRank). */
  rankingConfig: 'RANKING',
  /** The tenant's alerts (scoreDrop, its chat endpoints). */
  alertsConfig: 'ALERTS',
  /** The tenant's digests (whether the daily one is on). */
  digestsConfig: 'DIGESTS',
  /** How the tenant's comments are analysed (whether Comprehend reads their sentiment). */
  commentAnalysisConfig: 'COMMENT_ANALYSIS',
  /** One of the tenant's themes (shared/themes/), by its slug: read with the rest of the configuration. */
  themeConfig: (slug: string) => `THEME#${slug}`,
  /** The tenant's brand (display name, colour, logo object, sender name): written at creation and by each apply. */
  brandConfig: 'BRAND',
  /**
   * The configuration's version, raised by every change of it: functions read this one small item (strongly) on each
   * request and read the whole configuration again only when it moved. The admin API's ETag.
   */
  configVersion: 'VERSION',
  /**
   * The copies of the configuration's version, each in its own partition: every request reads one at random
   * (strongly), a change writes them all in one transaction, so no partition takes all of a busy tenant's reads. Copy 0
   * is the version item itself (`configVersion` in the configuration partition), read with the configuration.
   */
  configVersionCopy: (tenantId: number, copy: number) =>
    copy === 0 ? { pk: `${tenant(tenantId)}#CONFIG`, sk: 'VERSION' } : { pk: `${tenant(tenantId)}#CONFIG#VERSION#${copy}`, sk: 'VERSION' },
  /** The tenant's audit log of admin changes: newest first by the time of the change (kept AUDIT_KEPT_DAYS). */
  audit: (tenantId: number) => `${tenant(tenantId)}#AUDIT`,
  auditEntry: (tenantId: number, at: string, id: string) => ({ pk: `${tenant(tenantId)}#AUDIT`, sk: `${at}#${id}` }),
  /**
   * A logo the tenant uploaded (PUT /public/admin/brand/logo), by its content-addressed object name: the brand may name
   * only these (or the one it has). Its own partition, so that the configuration's Query never reads them.
   */
  tenantLogo: (tenantId: number, file: string) => ({ pk: `${tenant(tenantId)}#LOGO#${file}`, sk: 'LOGO' }),
  /**
   * What the last `apply` wrote of the configuration (a hash per field): in its own partition, so that the
   * configuration's Query, which every function makes, never reads it.
   */
  configApplied: (tenantId: number) => ({ pk: `${tenant(tenantId)}#CONFIG#APPLIED`, sk: 'APPLIED' }),
  /** The generations of one webhook endpoint's signing secret (never the secret): read with the configuration. */
  webhookSigning: (endpoint: string) => `WEBHOOK_SIGNING#${endpoint}`,
  /** The generation the tenant's QR codes are signed under (rotation retires the older ones): read with the configuration. */
  qrGeneration: 'QR_GENERATION',
  /**
   * The answers one QR code took from one address in one window (by hashes, never the token or the address), kept
   * until its TTL: its own partition per code and address, so a flood on one poster never heats another's.
   */
  qrAnswers: (tenantId: number, { tokenHash, addressHash, window }: { tokenHash: string; addressHash: string; window: number }) => ({
    pk: `${tenant(tenantId)}#QRRATE#${tokenHash}#${addressHash}`,
    sk: `W#${window}`,
  }),

  /**
   * A registered kiosk (a tablet in a store, shared/in-store/): all of a tenant's in one partition, by id, so listing them
   * is one Query and a tablet's request one GetItem (its token names tenant and id).
   */
  kiosks: (tenantId: number) => `${tenant(tenantId)}#KIOSK`,
  kiosk: (tenantId: number, id: string) => ({ pk: `${tenant(tenantId)}#KIOSK`, sk: id }),

  counter: (tenantId: number, entity: Entity) => ({ pk: `${tenant(tenantId)}#COUNTER`, sk: entity }),

  entity: (tenantId: number, entity: Entity, id: number) => ({ pk: `${tenant(tenantId)}#${entity}#${id}`, sk: entity }),
  /** Guards uniqueness of an external code: written in the same transaction as the entity. */
  externalId: (tenantId: number, entity: Entity, externalId: string) => ({
    pk: `${tenant(tenantId)}#${entity}#EXT#${externalId}`,
    sk: 'EXT',
  }),

  /** Index partitions of an entity collection (see `shared/table.ts` for what each index is for). */
  collection: (tenantId: number, entity: Entity) => `${tenant(tenantId)}#${entity}`,
  /** An index partition holding the entities whose `field` has `value` (status, e-mail, phone, cpf, external code). */
  byValue: (tenantId: number, { entity, field, value }: { entity: Entity; field: IndexedField; value: string }) =>
    `${tenant(tenantId)}#${entity}#${INDEXED[field]}#${value}`,
  byStatus: (tenantId: number, entity: Entity, status: string) => keys.byValue(tenantId, { entity, field: 'status', value: status }),
  byExternalId: (tenantId: number, entity: Entity, externalId: string) =>
    keys.byValue(tenantId, { entity, field: 'externalId', value: externalId }),
  /** Customers who opted out: a sparse partition of the status index. */
  optedOut: (tenantId: number) => keys.byStatus(tenantId, 'CUSTOMER', 'OPTOUT'),
  /** Names of large collections are sharded by their first characters, so no partition takes every write. */
  byName: (tenantId: number, entity: Entity, shard = '') => `${tenant(tenantId)}#${entity}#NAME${shard ? `#${shard}` : ''}`,
  nameSort: (normalisedName: string, id: number) => `${normalisedName}#${padId(id)}`,

  /** A link from an employee to a store, indexed from the store's side (gsi2) to list a store's employees. */
  employeeStore: (tenantId: number, employeeId: number, storeId: number) => ({
    pk: `${tenant(tenantId)}#EMPLOYEE#${employeeId}`,
    sk: `STORE#${padId(storeId)}`,
  }),
  storeEmployees: (tenantId: number, storeId: number) => `${tenant(tenantId)}#STORE#${storeId}#EMPLOYEES`,

  /** A transaction, or the rejection of a request, under the id its request key hashes to (shared/transactions/request-key.ts). */
  transaction: (tenantId: number, id: number) => ({ pk: `${tenant(tenantId)}#TX#${id}`, sk: 'TX' }),
  /** The id of the transaction whose partition key this is. */
  transactionIdOf: (pk: string) => Number(pk.slice(pk.lastIndexOf('#TX#') + 4)),
  /** The tenant whose item this partition key names (every key starts with it). */
  tenantIdOf: (pk: string) => Number(pk.split('#')[1]),
  /**
   * Evaluations (answered or rated transactions) by month, newest first within (gsi2), in `EVALUATION_SHARDS` partitions
   * by transaction id so that a busy tenant's answers land on no one partition (the unsharded one holds the evaluations
   * written before shards, and stays read); and by external id (gsi4).
   */
  evaluationsByMonth: (tenantId: number, month: string, shard?: number) =>
    `${tenant(tenantId)}#EVAL#${month}${shard === undefined ? '' : `#${shard}`}`,
  evaluationSort: (answeredAt: string, transactionId: number) => `${answeredAt}#${padId(transactionId)}`,
  evaluationByExternalId: (tenantId: number, externalId: string) => `${tenant(tenantId)}#EVAL#EXT#${externalId}`,
  /**
   * Answers listed for people and integrations (GET /public/answers), newest first by `evaluationSort`: a store's
   * answers in one partition (gsi10; a store's peak is a fraction of a write a second, so no time split is needed and
   * a page reads the same at any history), and the tenant's answers over `ANSWER_SHARDS` partitions by transaction id
   * (gsi11), so that every answer of a busy tenant lands on no one partition and an all-stores listing merges a few.
   */
  answersByStore: (tenantId: number, storeId: number) => `${tenant(tenantId)}#ANSWERS#STORE#${storeId}`,
  answersByShard: (tenantId: number, shard: number) => `${tenant(tenantId)}#ANSWERS#SHARD#${shard}`,
  /**
   * The answers of one theme or one sentiment (GET /public/answers?theme=, ?sentiment=), in the same two indexes and
   * order as all answers: one small item per theme and one for the sentiment of an analysed answer, in the answer's
   * partition (`answerFilterEntry`), written and taken back with its analysis (shared/adapters/analysis-repository.ts).
   */
  answersByStoreWith: (tenantId: number, storeId: number, { filter, value }: AnswerFilterValue) =>
    `${keys.answersByStore(tenantId, storeId)}#${filter.toUpperCase()}#${value}`,
  answersByShardWith: (tenantId: number, shard: number, { filter, value }: AnswerFilterValue) =>
    `${keys.answersByShard(tenantId, shard)}#${filter.toUpperCase()}#${value}`,
  answerFilterEntry: (tenantId: number, transactionId: number, { filter, value }: AnswerFilterValue) => ({
    pk: keys.transaction(tenantId, transactionId).pk,
    sk: `ANSWERS#${filter.toUpperCase()}#${value}`,
  }),
  /**
   * Result counters of a journey (shared/results/tally.ts): day counters in a partition a month, month counters in a
   * partition a year; a journey with result shards (`shardOf`) writes each dimension's counters to that many partitions
   * of their own instead, beside the unsharded one, which readers keep reading (the counters written before shards).
   * The sort key names the grain, the dimension, its ids and the period.
   */
  results: (
    tenantId: number,
    { journeyId, partition, shard }: { journeyId: number; partition: string; shard?: { dimension: string; index: number } },
  ) => `${tenant(tenantId)}#RESULTS#${journeyId}#${partition}${shard ? `#${shard.dimension}#${shard.index}` : ''}`,
  /** A result counter's sort key, or without `period` the prefix of a dimension's (and ids') counters. */
  resultSort: ({ grain, dimension, ids, period = '' }: { grain: 'day' | 'month'; dimension: string; ids: number[]; period?: string }) =>
    `${grain === 'day' ? 'D' : 'M'}#${dimension}#${ids.map((id) => `${id}#`).join('')}${period}`,
  /**
   * Theme counters (shared/themes/): day counters in a partition a month, month counters in a partition a year, as the
   * results'. The sort key starts with the dimension and its id (or ids: a store and a journey), so a store's (or
   * employee's, or journey's, or a store's in one journey) year reads one prefix of one partition: 12 month items per theme.
   */
  themes: (tenantId: number, partition: string) => `${tenant(tenantId)}#THEMES#${partition}`,
  themeSort: ({ dimension, id, grain, period, theme }: CounterSort & { id: number | number[]; theme: string }) =>
    `${dimension}#${[id].flat().join('#')}#${grain === 'day' ? 'D' : 'M'}#${period}#${theme}`,
  /** Where a tenant's reanalysis of its comments is (`npm run admin -- reanalyse`): one item, gone when it finishes. */
  reanalysis: (tenantId: number) => ({ pk: `${tenant(tenantId)}#REANALYSIS`, sk: 'CHECKPOINT' }),
  /**
   * Suggestion counters (key phrases no theme covers, shared/themes/phrases.ts): day cells in a partition a month,
   * month cells in a partition a year, by dimension (`all`, `store`, `journey`) and id, period and the phrase's key.
   */
  phrases: (tenantId: number, partition: string) => `${tenant(tenantId)}#PHRASES#${partition}`,
  phraseSort: ({ dimension, id, grain, period, phrase }: CounterSort & { id: number; phrase: string }) =>
    `${dimension}#${id}#${grain === 'day' ? 'D' : 'M'}#${period}#${phrase}`,
  /** A tenant's failed event deliveries, newest last (sort key: when, event id, attempt), kept 30 days. */
  failedDeliveries: (tenantId: number) => `${tenant(tenantId)}#EVENTS#FAILED`,
  failedDeliverySort: (failedAt: string, eventId: string, attempt: number) => `${failedAt}#${eventId}#${attempt}`,
  /**
   * One delivery of one event to one endpoint that failed at least once (what the retry and replay routes address): its
   * state, and while it is failed an entry in its endpoint's partition of gsi1 by the event's time (the replay's Query).
   */
  webhookDelivery: (tenantId: number, deliveryId: string) => ({ pk: `${tenant(tenantId)}#EVENTS#DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  failedDeliveriesOf: (tenantId: number, endpoint: string) => `${tenant(tenantId)}#EVENTS#FAILED#${endpoint}`,
  failedDeliveryOfSort: (createdAt: string, deliveryId: string) => `${createdAt}#${deliveryId}`,
  /**
   * One message of one event to one chat endpoint (shared/chat/): its claim, so that it is sent once, and while it is
   * failed an entry in the tenant's failed chat deliveries (gsi1, by when it failed), kept 30 days.
   */
  chatDelivery: (tenantId: number, deliveryId: string) => ({ pk: `${tenant(tenantId)}#CHAT#DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  failedChatDeliveries: (tenantId: number) => `${tenant(tenantId)}#CHAT#FAILED`,
  failedChatDeliverySort: (failedAt: string, deliveryId: string) => `${failedAt}#${deliveryId}`,
  /** The health of a tenant's chat endpoints (its 404 and 410 answers in a row), one item each, read together by the admin page. */
  chatEndpoints: (tenantId: number) => `${tenant(tenantId)}#CHAT#ENDPOINTS`,
  /** A case: one per transaction, under the transaction's id (shared/cases/), so that no answer opens two. */
  case: (tenantId: number, id: number) => ({ pk: `${tenant(tenantId)}#CASE#${id}`, sk: 'CASE' }),
  /** The tenant's last short case number (a case's `number`: 1, 2, 3... per tenant), raised in the write that opens each case. */
  caseNumber: (tenantId: number) => ({ pk: `${tenant(tenantId)}#CASES#NUMBER`, sk: 'COUNTER' }),
  /** A case by its short number (its `id`), written in the transaction that opens it: GET /public/cases?number= reads it. */
  caseByNumber: (tenantId: number, number: number) => ({ pk: `${tenant(tenantId)}#CASES#NUMBER`, sk: `N#${number}` }),
  /** A case's one escalation when it is overdue: its claim, then the record that it went out (shared/cases/overdue.ts). */
  /** A store's score-drop alert of one ISO week (its Monday): the claim that sends it at most once that week. */
  scoreDropAlert: (tenantId: number, storeId: number, week: string) => ({ pk: `${tenant(tenantId)}#SCOREDROP#${storeId}`, sk: week }),
  caseEscalation: (tenantId: number, id: number) => ({ pk: `${tenant(tenantId)}#CASE#${id}`, sk: 'ESCALATION' }),
  /** A case's WhatsApp alert to one manager (by user name): its claim, so that each manager gets it once. */
  caseWhatsAppAlert: (tenantId: number, id: number, user: string) => ({ pk: `${tenant(tenantId)}#CASE#${id}`, sk: `WHATSAPP#${user}` }),
  /**
   * Cases listed for managers and integrations (GET /public/cases) in the list's order (`caseSort`): a store's cases
   * in one partition (gsi12; a store opens a few a day, so a page reads the same at any history), and the tenant's
   * over `CASE_SHARDS` partitions by case id (gsi13), so that no one partition takes a busy tenant's every case.
   */
  casesByStore: (tenantId: number, storeId: number) => `${tenant(tenantId)}#CASES#STORE#${storeId}`,
  casesByShard: (tenantId: number, shard: number) => `${tenant(tenantId)}#CASES#SHARD#${shard}`,
  /**
   * Cases by owner (gsi14), in the list's order: one partition per person (what one manager owns: `owner=me`), and the
   * unassigned ones over `CASE_SHARDS` partitions by case id (`owner=none`), as the tenant's own (gsi13).
   */
  casesByOwner: (tenantId: number, owner: string) => `${tenant(tenantId)}#CASES#OWNER#${owner}`,
  casesUnowned: (tenantId: number, shard: number) => `${tenant(tenantId)}#CASES#UNOWNED#${shard}`,
  /** Open, then in progress, then closed (`rank`); overdue first within each; then by due time and id. */
  caseSort: ({ rank, overdue, dueAt, id }: { rank: number; overdue: boolean; dueAt: string; id: number }) =>
    `${rank}#${overdue ? 0 : 1}#${dueAt}#${padId(id)}`,
  /** The prefix of `caseSort` that holds one status (and overdue or not). */
  caseSortPrefix: (rank: number, overdue?: boolean) => `${rank}#${overdue === undefined ? '' : `${overdue ? 0 : 1}#`}`,

  /** When a customer was last surveyed on a journey (the resurvey window). */
  surveyed: (tenantId: number, customerId: number, journeyId: number) => ({
    pk: `${tenant(tenantId)}#CUSTOMER#${customerId}`,
    sk: `SURVEYED#${padId(journeyId)}`,
  }),

  /** A workspace export of answers (issue 46 §5): its run, progress and file; gone with the TTL after a few days. */
  answerExport: (tenantId: number, id: string) => ({ pk: `${tenant(tenantId)}#EXPORT#${id}`, sk: 'EXPORT' }),

  /** A privacy request (export or erasure) of a data subject. */
  privacyRequest: (tenantId: number, id: string) => ({ pk: `${tenant(tenantId)}#PRIVACY#${id}`, sk: 'PRIVACY' }),
  /**
   * The slots of a tenant's open privacy requests, one item each in one small partition (read by one Query); a
   * request holds one while it is pending, which bounds how many are (shared/privacy/open-requests.ts).
   */
  privacySlots: (tenantId: number) => `${tenant(tenantId)}#PRIVACY_SLOTS`,
  privacySlot: (tenantId: number, slot: number) => ({ pk: keys.privacySlots(tenantId), sk: `SLOT#${padId(slot)}` }),
  /** A note in a customer's partition that a privacy request named it (its export lists them). */
  privacyNamed: (tenantId: number, customerId: number, requestId: string) => ({
    pk: `${tenant(tenantId)}#CUSTOMER#${customerId}`,
    sk: `PRIVACY#${requestId}`,
  }),
  privacyNamedPrefix: 'PRIVACY#',
  /** A read of a customer's personal data, in the customer's partition (kept a year). */
  customerAccess: (tenantId: number, customerId: number, { at, requestId }: { at: string; requestId: string }) => ({
    pk: `${tenant(tenantId)}#CUSTOMER#${customerId}`,
    sk: `ACCESS#${at}#${requestId}`,
  }),
  customerAccessPrefix: 'ACCESS#',
  /** A customer's transactions (gsi8, keys only): what an export reads and an erasure reaches. */
  customerTransactions: (tenantId: number, customerId: number) => `${tenant(tenantId)}#CUSTOMER#${customerId}#TX`,
  /** Its sort key: when the transaction was created, then its id (unpadded, as stored since gsi8 began). */
  customerTransactionSort: (createdAt: string, transactionId: number) => `${createdAt}#${transactionId}`,

  /**
   * Transactions whose personal copies expire on a UTC day (a tenant's retention), across tenants, in shards so that
   * no partition takes a busy day's every write (gsi9, keys only). The sort key is the instant, then the transaction.
   */
  personalExpiry: (day: string, shard: number) => `EXPIRES#${day}#${shard}`,
  personalExpirySort: (expiresAt: string, tenantId: number, transactionId: number) =>
    `${expiresAt}#${tenant(tenantId)}#${padId(transactionId)}`,
  /** The last day whose expired personal copies are all gone. */
  personalExpiryCheckpoint: () => ({ pk: 'EXPIRES', sk: 'CHECKPOINT' }),

  /**
   * Timers due in one minute (UTC, `YYYY-MM-DDTHH:MM`), across tenants: survey attempts and case deadlines, in
   * `shards` partitions by a hash of the timer's sort key, so that no partition takes a busy minute's every write. The
   * release reads a minute's shards when the minute comes near. The checkpoint is the last minute it released.
   */
  dueMinute: (minute: string, shard: number) => `DUE#${minute}#${shard}`,
  dueShard: (sort: string, shards: number) => fnv1a(sort) % shards,
  /** A minute's one partition before the shards: read until its last attempts have passed their TTL. */
  dueMinuteUnsharded: (minute: string) => `DUE#${minute}`,
  dueAttempt: (tenantId: number, transactionId: number, attemptId: number) => `${tenant(tenantId)}#TX#${padId(transactionId)}#${attemptId}`,
  dueCase: (tenantId: number, caseId: number) => `${tenant(tenantId)}#CASE#${padId(caseId)}`,
  /** A case's WhatsApp alert held by quiet hours (one timer per case, whatever is redelivered). */
  dueCaseAlert: (tenantId: number, caseId: number) => `${tenant(tenantId)}#CASE#${padId(caseId)}#WHATSAPP`,
  dueCheckpoint: () => ({ pk: 'DUE', sk: 'CHECKPOINT' }),
  /** A tenant's scheduled digest run (one timer per tenant, period and first day: parked twice, one item). */
  dueDigest: (tenantId: number, period: string, from: string) => `${tenant(tenantId)}#DIGEST#${period}#${from}`,
  /** A tenant's daily score-drop check (one timer per tenant and day: parked twice, one item). */
  dueScoreDrop: (tenantId: number, day: string) => `${tenant(tenantId)}#SCOREDROP#${day}`,
  /** A tenant's scheduled analytics run (one timer per tenant and day it writes: parked twice, one item). */
  dueAnalytics: (tenantId: number, day: string) => `${tenant(tenantId)}#ANALYTICS#${day}`,
  /**
   * The analytics export's day reads (docs/analytics.md), in indexes those items left free: a tenant's transactions by
   * the month they were registered (gsi15, their surveys' dataset) and its cases by the month they opened (gsi15), each
   * in shards by id as the evaluations are, sorted by the instant then the id (`evaluationSort`).
   */
  surveysByMonth: (tenantId: number, month: string, shard: number) => `${tenant(tenantId)}#SURVEYS#${month}#${shard}`,
  casesByMonth: (tenantId: number, month: string, shard: number) => `${tenant(tenantId)}#CASES#OPENED#${month}#${shard}`,
  /**
   * A tenant's days of the analytics export that a late change reached (a correction, a case moved, a survey's outcome
   * after its day): one small item per day and shard (the changed record's id mod DIRTY_SHARDS: a busy day's marks are
   * spread over partitions), which the daily run reads with a Query a shard and clears once the day is written again.
   * Shard 0 is the partition marks had before they were sharded.
   */
  analyticsDirtyDays: (tenantId: number, shard: number) => `${tenant(tenantId)}#ANALYTICS#DIRTY${shard ? `#${shard}` : ''}`,
  analyticsDirty: (tenantId: number, day: string, shard: number) => ({ pk: keys.analyticsDirtyDays(tenantId, shard), sk: day }),
  /**
   * A chain of invocations writing a tenant's analytics days (shared/analytics/chain.ts): where it stands, its link's
   * number and lease. The daily run's chain (`run-<day>`) is also the day's claim: a timer that fires twice writes once.
   */
  analyticsChain: (tenantId: number, chainId: string) => ({ pk: `${tenant(tenantId)}#ANALYTICS#CHAIN#${chainId}`, sk: 'CHAIN' }),
  /** A user's digest of one period: its claim, so that each user gets one per period (the user's name, an e-mail address). */
  digestClaim: (tenantId: number, { user, period, from }: { user: string; period: string; from: string }) => ({
    pk: `${tenant(tenantId)}#DIGEST#${period}#${from}`,
    sk: `USER#${user}`,
  }),
  /** An address that bounced or complained, per tenant, by the SHA-256 of the address (the address is not kept). */
  suppressed: (tenantId: number, addressHash: string) => ({ pk: `${tenant(tenantId)}#SUPPRESSED#${addressHash}`, sk: 'SUPPRESSED' }),

  /** A secret an admin page showed once (shared/workspace/admin-form.ts): its cookie's id, so that a replay shows nothing. */
  shownOnce: (tenantId: number, id: string) => ({ pk: `${tenant(tenantId)}#SHOWN#${id}`, sk: 'SHOWN' }),
  health: () => ({ pk: 'HEALTH', sk: 'HEALTH' }),
} as const;

/** FNV-1a, 32 bits: a stable, even spread of short strings over shards (not a secret). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
