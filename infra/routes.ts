import { REFERENCE_ROUTES, RESULTS_ROUTE } from '../shared/http/reference-data.js';
import {
  APP_ADMIN_BRAND_PATH,
  APP_ADMIN_GENERAL_PATH,
  APP_ADMIN_JOURNEYS_PATH,
  APP_ADMIN_REGIONS_PATH,
  APP_ADMIN_PATH,
  APP_ADMIN_KEYS_PATH,
  APP_ADMIN_QR_PATH,
  APP_ADMIN_THEMES_PATH,
  APP_ADMIN_USERS_PATH,
  APP_ADMIN_WEBHOOKS_PATH,
  APP_ANSWERS_CSV_PATH,
  APP_ANSWERS_EXPORT_PATH,
  APP_ANSWERS_EXPORTS_PATH,
  APP_ANSWERS_PATH,
  APP_CASE_CONTACT_PATH,
  APP_CASE_PATH,
  APP_CASES_PATH,
  APP_DIGEST_PATH,
  APP_PATH,
  APP_RESULTS_PATH,
  NEW_PASSWORD_PATH,
  REFRESH_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
} from '../shared/session/paths.js';
import type { QueueId } from '../shared/queues.js';
import { SURVEY_PAGE_PATH, UNSUBSCRIBE_PAGE_PATH } from '../shared/surveys/paths.js';
import { LOGO_ROUTE } from '../shared/brand/brand.js';
import { ROBOTS_PATH } from '../shared/http/robots.js';
import { QR_PAGE_PATH } from '../shared/in-store/qr-paths.js';
import { ADMIN_KIOSKS_PATH, KIOSK_ENTRY_PATH, KIOSK_PATH } from '../shared/in-store/kiosk-paths.js';
import { DIGEST_UNSUBSCRIBE_PATH } from '../shared/digest/paths.js';

/**
 * The route table: every operation of both APIs, as plain data, one line each (`route()` below applies the defaults).
 * The CDK stack, the grants, the local gateway, the infra tests and the OpenAPI document read it; a path or a method
 * is written nowhere else. It imports only data: the paths it shares with the code come from pure modules.
 */
export type ApiName = 'public' | 'chatbot';

/**
 * What a function does with the table: `read` (GetItem, BatchGetItem, Query), `write` (PutItem, UpdateItem, and
 * TransactWriteItems of them), `delete` (DeleteItem, alone or in a transaction), `batchWrite` (BatchWriteItem), `update`
 * (UpdateItem alone: the key authorizers' mark of a key's last use). Empty:
 * it never touches the table (the API references). Nothing grants Scan.
 */
export type TableAccess = readonly ('read' | 'write' | 'delete' | 'batchWrite' | 'update')[];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  operationId: string;
  method: Method;
  /** The first path is the canonical one; the others are aliases served by the same function. */
  paths: readonly string[];
  /** Module under functions/ exporting `handler`. */
  handler: string;
  api: ApiName;
  /** Table access: what the code does with the table, and so what its role may do (infra/grants.ts). */
  table: TableAccess;
  queues: readonly QueueId[];
  /** Issues or reads v2 request ids, which are signed (ENV.requestIdSecret). */
  requestIds?: true;
  /**
   * Seals what a client carries and may neither read nor alter with the deployment's cursor secret: a list's cursors,
   * and the workspace's sign-in challenge and shown-once cookies.
   */
  cursors?: true;
  /** Reachable without an API key: /health, and the survey pages (the link's token is the credential). */
  anonymous?: true;
  /** Reads or signs survey links (ENV.surveySecret). */
  surveyLinks?: true;
  /** Answers URLs of the public API's pages (ENV.surveyBaseUrl): a QR code's. */
  links?: true;
  /** Answers an HTML page for people, not JSON. */
  page?: true;
  /** A workspace page behind the session authorizer (a signed-in manager's cookie), not the API key. */
  session?: true;
  /** Calls the user pool's sign-in operations (ENV.userPoolClientId). */
  userPool?: true;
  /** Reads the tenants' logos from the logo bucket (s3:GetObject), or writes them there (s3:PutObject). */
  logos?: 'read' | 'write';
  /** Reads the answer exports (s3:GetObject: its short-lived download addresses), or writes them (s3:PutObject). */
  exports?: 'read' | 'write';
  /** The user pool's administrative actions it calls (cognito-idp:Admin...), granted on the pool (infra/grants.ts). */
  userPoolActions?: readonly string[];
  /** The providers it sends through (the users routes e-mail a manager's invitation through SES). */
  providers?: readonly Provider[];
  /**
   * An admin route: admin keys, or admin users as the one rule allows (the handler's contract declares what it
   * administers, which is what the wrapper enforces; test/e2e/contract-replay.test.ts holds the two together).
   */
  admin?: true;
  summary: string;
}

/** Whether a status is the operation's success: 2xx, or the redirect after a page's form post. */
export const succeeded = (route: Pick<Route, 'page'>, status: number) => status < 300 || (route.page === true && status === 303);

/** What a route may leave out: `api` is the public one, it sends to no queue, its handler is named after its operation. */
type Options = Partial<
  Pick<
    Route,
    | 'api'
    | 'queues'
    | 'handler'
    | 'requestIds'
    | 'cursors'
    | 'anonymous'
    | 'surveyLinks'
    | 'links'
    | 'page'
    | 'session'
    | 'userPool'
    | 'logos'
    | 'exports'
    | 'admin'
    | 'userPoolActions'
    | 'providers'
  >
>;

/** The handler module of an operation: `getStore` -> `http/get-store.ts`. */
const handlerOf = (operationId: string) => `http/${operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;

/** One route, its defaults applied: what the rest of the code reads is always the full record. */
const route = (
  method: Method,
  paths: string | readonly string[],
  operationId: string,
  table: TableAccess,
  summary: string,
  options: Options = {},
): Route => ({
  operationId,
  method,
  paths: typeof paths === 'string' ? [paths] : paths,
  handler: handlerOf(operationId),
  api: 'public',
  table,
  queues: [],
  ...options,
  summary,
});

/** A path served both under /public and bare. */
const both = (path: string) => [`/public${path}`, path];
/** The table accesses routes use (TableAccess): read, read-write, read-write-delete, read-batchWrite, read-write-batchWrite. */
const R = ['read'] as const;
const RW = ['read', 'write'] as const;
const RWD = ['read', 'write', 'delete'] as const;
const RB = ['read', 'batchWrite'] as const;
const RWB = ['read', 'write', 'batchWrite'] as const;
/** The survey pages: no API key (the link's token is the credential), links read, HTML for people. */
const page = { anonymous: true, surveyLinks: true, page: true } as const;
/** A kiosk's pages: no API key (the tablet's cookie is the credential), its brand's addresses, HTML for people. */
const kioskPage = { anonymous: true, links: true, page: true } as const;
/** The tenant's self-administration: admin keys, or admin users as the rule allows (shared/access/capabilities.ts). */
const admin = { admin: true } as const;
const LEGACY_TRANSACTION = [
  '/public/transaction',
  '/public/transaction/integration',
  '/api/v1/transaction',
  '/api/v1/transaction/integration',
];

// prettier-ignore
export const routes: readonly Route[] = [
  route('GET', '/health', 'getHealth', R, 'Whether the service can reach its table', { anonymous: true }),

  route('GET', both('/store'), 'listStores', R, 'List stores (filters: status, name, store_id)', { cursors: true }),
  // A store placed in a region (`region`) replaces the configuration's regions, as PUT /public/admin/config does.
  route('POST', both('/store'), 'createStore', RWB, 'Create a store (optionally in a region)'),
  route('GET', both('/store/{id}'), 'getStore', R, 'Read a store'),
  route('PUT', both('/store/{id}'), 'updateStore', ['read', 'write', 'delete', 'batchWrite'], 'Edit a store (and its region)'),
  route('DELETE', both('/store/{id}'), 'deleteStore', RW, 'Deactivate a store'),

  route('GET', both('/customer'), 'listCustomers', RB, 'List customers (user token that sees every store; filters: name, email, phone, cpf, client_id, opt_out)', { cursors: true }),
  route('POST', both('/customer'), 'createCustomer', RW, 'Create a customer'),
  route('GET', both('/customer/{id}'), 'getCustomer', RB, 'Read a customer'),
  route('PUT', both('/customer/{id}'), 'updateCustomer', RWD, 'Edit a customer'),

  route('GET', both('/employee'), 'listEmployees', R, 'List employees (filters: name, email, id, store, external_store_id, status)', { cursors: true }),
  route('POST', both('/employee'), 'createEmployee', RW, 'Create an employee'),
  route('GET', both('/employee/{id}'), 'getEmployee', R, 'Read an employee'),
  route('PUT', both('/employee/{id}'), 'updateEmployee', RWD, 'Edit an employee'),
  route('DELETE', both('/employee/{id}'), 'deleteEmployee', RW, 'Deactivate an employee'),
  route('GET', both('/employee/{id}/stores'), 'getEmployeeStores', R, "An employee's stores"),
  route('PUT', both('/employee/{id}/stores'), 'putEmployeeStores', RWD, "Replace an employee's stores (user token)"),
  route('GET', both('/employee/{id}/groups'), 'getEmployeeGroups', R, "An employee's groups"),
  route('PUT', both('/employee/{id}/groups'), 'putEmployeeGroups', RW, "Replace an employee's groups (user token)"),

  // It reads the table only to check its key itself: when the authorizer could not reach the table (and API Gateway
  // cached that answer), and when the answer is a cached one (a revoked key is refused at once). The sale touches no table.
  route('POST', '/v2/transactions', 'postV2Transaction', R, 'Queue a transaction (asynchronous; 201 with the sent object and x-request-id)', { queues: ['transactions'], requestIds: true }),
  route('GET', '/v2/transactions/requests/{requestId}', 'getTransactionRequest', R, 'What became of a queued transaction', { requestIds: true }),
  route('POST', LEGACY_TRANSACTION, 'postTransaction', RW, 'Create a transaction synchronously (legacy interface)', { queues: ['surveyDispatch'] }),
  route('GET', both('/transaction/{id}'), 'getTransaction', R, 'Read a transaction'),

  route('GET', both('/rating/formbuilder'), 'listEvaluations', R, 'Flexible-form ratings between start_date and end_date (user token)', { cursors: true }),
  route('GET', both('/rating/formbuilder/{id}'), 'getEvaluation', R, 'One flexible-form rating (is_external: by transaction_id)'),
  route('GET', '/public/results', 'getResults', R, 'NPS, mean, answers and response rate of a journey by store, employee, class or period (user token)'),
  route('GET', '/public/digest', 'getDigest', R, "The digest of the last week or day, or of from..to (up to 31 days): what to do first, each store's score and change, top complaints and praise, open and overdue cases (user token)"),
  route('GET', '/public/themes/suggestions', 'listThemeSuggestions', R, 'Frequent key phrases of the period that no theme covers: [{ phrase, language, count, examples }] (user token; store or journey; a limited token sees its stores)'),
  route('GET', '/public/answers', 'listAnswers', RB, 'What customers answered, newest first, with comments and filters; JSON or CSV (user token; a limited token sees its stores)', { cursors: true }),
  route('GET', '/public/webhooks/deliveries', 'listWebhookDeliveries', R, 'The event deliveries to the tenant webhooks that failed in the last 30 days, newest first'),
  route('POST', '/public/webhooks/deliveries/{id}/retry', 'retryWebhookDelivery', RW, 'Re-send one failed event delivery now, under its event id (404 unknown, 409 not failed); written to the audit log', { ...admin, queues: ['events'] }),
  route('POST', '/public/webhooks/deliveries/replay', 'replayWebhookDeliveries', RW, 'Re-queue the failed deliveries to one endpoint of events since a time, at most 100 a call (next_cursor continues), each sent once; written to the audit log', { ...admin, queues: ['events'], cursors: true }),
  route('GET', '/public/chat/deliveries', 'listChatDeliveries', R, 'The chat messages (Slack, Teams) that failed in the last 30 days, newest first (status=failed)', admin),
  route('POST', '/public/chat/deliveries/{id}/retry', 'retryChatDelivery', RW, 'Re-send one failed chat message now, sent once (404 unknown, 409 sent since); written to the audit log', { ...admin, queues: ['chat'] }),

  route('GET', '/public/admin/config', 'getAdminConfig', R, "The tenant's whole configuration (journeys, classes, groups, delivery, retention, case rules, brand; no secrets) with its ETag", admin),
  route('GET', '/public/admin/audit', 'listAdminAudit', R, 'The admin changes of the tenant, newest first: who (key id or the operator), when, and each changed value (from, to, cursor); kept 400 days', { ...admin, cursors: true }),
  // Turning alerts.scoreDrop on parks the tenant's first daily check (a timer, on the queue when due within 15 minutes).
  route('PUT', '/public/admin/config', 'putAdminConfig', RWB, "Replace the tenant's configuration (the tenant file's schema; If-Match: the ETag read), answering what changed; in effect from the next request", { ...admin, queues: ['scoreDrops'] }),
  route('POST', '/public/admin/webhooks/rotate', 'rotateAdminWebhookSecret', RW, "Rotate an event endpoint's signing secret (body: its url, overlap_hours): the new secret answered once, the old one signing beside it for the overlap (a day by default); written to the audit log", { ...admin, surveyLinks: true }),
  route('POST', '/public/admin/brand/logos', 'createAdminLogo', RW, "Upload a logo (its bytes as the body: PNG, JPEG or WebP, at most 200 KB; SVG refused): answers the stored object, which brand.logo of PUT /public/admin/config may name; audited", { ...admin, logos: 'write' }),
  route('POST', '/public/admin/digests', 'postAdminDigests', RW, "Queue the current period's digest e-mail (week or day) of every user who gets it: 202 with the count; each user's is sent once a period", { ...admin, queues: ['digests'] }),
  route('GET', '/public/admin/keys', 'listAdminKeys', R, "The tenant's API keys: id, name, scope, created, expiry, revocation, last use (to 5 minutes), successor; never a key's value", admin),
  route('POST', '/public/admin/keys', 'createAdminKey', RW, 'Issue an API key (scope, name, optional expires_at); its value is answered once; written to the audit log', admin),
  route('DELETE', '/public/admin/keys/{id}', 'revokeAdminKey', RW, 'Revoke a key: refused from the next request of every function; written to the audit log', admin),
  route('POST', '/public/admin/keys/{id}/rotate', 'rotateAdminKey', RW, 'A new key for an old one, which keeps working for grace_seconds (at most a week), then only the new one; written to the audit log', admin),
  route('GET', '/public/admin/users', 'listAdminUsers', R, "The tenant's users: name, scope, role, created, disabled; never a token", { ...admin, userPool: true }),
  route('POST', '/public/admin/users', 'createAdminUser', RW, 'Create a manager (email, scope, role): their token once, and an invitation e-mailed with a temporary password; written to the audit log', { ...admin, userPool: true, userPoolActions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser'], providers: ['ses'] }),
  route('PATCH', '/public/admin/users/{email}', 'updateAdminUser', RW, "Change a user's scope, role or state (disabled: their token, pages and session refresh are refused from the next request, and Cognito's sign-in); written to the audit log", { ...admin, userPool: true, userPoolActions: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser'] }),

  route('POST', '/public/privacy/requests', 'postPrivacyRequest', RW, "A data subject's request (LGPD): export or erase their data, worked on from a queue (user token with every store)", { queues: ['privacy'] }),
  route('GET', '/public/privacy/requests/{id}', 'getPrivacyRequest', R, 'A privacy request: pending (an erasure until its second pass, about two minutes on), done with the customers it found, or failed (user token with every store)'),
  route('GET', '/public/privacy/requests/{id}/export', 'getPrivacyExport', RB, 'Everything kept about the customers an export request found, for 7 days after it is done (user token with every store)'),
  route('GET', '/public/privacy/access', 'getPrivacyAccess', R, "Who read a customer's personal data, when and how, newest first, for a year (user token with every store)"),

  route('GET', '/survey', 'getSurvey', R, 'The survey of one attempt, for the chatbot', { api: 'chatbot' }),
  route('GET', '/public/cases', 'listCases', RB, 'Cases the user may see: open, then in progress, then closed; overdue first, by due time (filters: status, store, overdue, from, to; or number, the short one; user token)', { cursors: true }),
  route('GET', '/public/cases/{id}', 'getCase', RB, "A case: the answer, its status, owners, due time, root cause, notes and history (user token whose scope holds the case's store)"),
  route('PATCH', '/public/cases/{id}', 'updateCase', RW, 'Move a case (status, owner, root cause, note): one conditional write; 409 when someone changed it first (user token)', { queues: ['events', 'surveyDispatch'] }),
  route('POST', '/public/cases/{id}/contact', 'revealCaseContact', RB, "The case's customer's phone and e-mail, to call or write them; written to the access log (user token)"),

  route('POST', '/survey', 'postSurvey', RW, 'Answer a survey attempt', { api: 'chatbot', queues: ['events', 'cases', 'analysis'] }),
  route('PUT', '/survey', 'putSurvey', RW, 'Correct the answer of a survey attempt', { api: 'chatbot', queues: ['events', 'cases', 'analysis'] }),

  route('GET', LOGO_ROUTE, 'getBrandLogo', [], "A tenant's logo, by its content-addressed name (no key; cached for a year)", { anonymous: true, logos: 'read' }),
  route('GET', SURVEY_PAGE_PATH, 'getSurveyPage', R, 'The survey page of a link (score=N preselects a score and records nothing)', page),
  route('POST', SURVEY_PAGE_PATH, 'postSurveyPage', RW, "Record the customer's answer (form post)", { ...page, queues: ['events', 'cases', 'analysis'] }),
  route('GET', QR_PAGE_PATH, 'getQrPage', R, "The survey page of a store's QR code (nothing is recorded)", page),
  route('POST', QR_PAGE_PATH, 'postQrPage', RW, 'Record a walk-in answer as a transaction of source qr (form post; one a browser and code every 12 hours, bounded per address)', { ...page, queues: ['surveyDispatch', 'events', 'cases', 'analysis'] }),
  // After the QR page's: a replay of the table in order opens a code before the rotation retires it.
  route('GET', '/public/admin/qr', 'getAdminQr', R, "A store's QR code (store, journey, optional employee): SVG, PNG by Accept: image/png, or its URL by Accept: application/json; a signed token, no personal data", { ...admin, surveyLinks: true, links: true }),
  route('POST', '/public/admin/qr/rotate', 'rotateAdminQr', RW, 'Retire every QR code printed so far (410 from the next request); written to the audit log', admin),
  // A store's tablet: its first visit keeps the device token in a cookie, which is the credential of its page after.
  route('GET', KIOSK_ENTRY_PATH, 'getKioskEntry', R, "A kiosk's first visit: keeps its device token in the tablet's cookie, then 303 to /k", kioskPage),
  route('GET', KIOSK_PATH, 'getKioskPage', R, "The survey page of the tablet's kiosk, always empty; the thanks returns to it after 10 s", kioskPage),
  route('POST', KIOSK_PATH, 'postKioskPage', RW, 'Record a walk-in answer as a transaction of source kiosk (form post; bounded per device)', { ...kioskPage, queues: ['surveyDispatch', 'events', 'cases', 'analysis'] }),
  route('POST', ADMIN_KIOSKS_PATH, 'createAdminKiosk', RW, "Register a store's tablet (store, journey, optional employee, name): its device token and address answered once; written to the audit log", { ...admin, links: true }),
  route('GET', ADMIN_KIOSKS_PATH, 'listAdminKiosks', R, "The tenant's kiosks: store, journey, employee, name, created, revoked; never a token", admin),
  route('DELETE', `${ADMIN_KIOSKS_PATH}/{id}`, 'revokeAdminKiosk', RW, "Revoke a kiosk: its next answer is refused (410) and nothing recorded; written to the audit log", admin),
  route('GET', UNSUBSCRIBE_PAGE_PATH, 'getUnsubscribePage', R, 'Ask the customer to confirm opting out of surveys', page),
  route('POST', UNSUBSCRIBE_PAGE_PATH, 'postUnsubscribe', RW, 'Opt the customer out of surveys (also RFC 8058 one-click)', page),
  route('GET', DIGEST_UNSUBSCRIBE_PATH, 'getDigestUnsubscribe', R, "Ask a digest's reader to confirm stopping their digests (the link of their digest e-mail: signed, naming no one)", page),
  route('POST', DIGEST_UNSUBSCRIBE_PATH, 'postDigestUnsubscribe', RW, "Set the link's user's digest to off (also RFC 8058 one-click)", page),
];

/**
 * The managers' workspace on the public API (issue 32): pages for people, not operations of the API document. The
 * sign-in pages are open to anyone; every other page is behind the session authorizer, which answers a page without a
 * session by sending it to sign in. The old /results page only redirects to its new place.
 */
const signInPage = { anonymous: true, page: true, userPool: true } as const;
const workspacePage = { session: true, page: true } as const;
// prettier-ignore
export const workspaceRoutes: readonly Route[] = [
  route('GET', SIGN_IN_PATH, 'getSignIn', [], 'The sign-in form', { anonymous: true, page: true }),
  route('POST', SIGN_IN_PATH, 'postSignIn', RWD, 'Sign in with e-mail and password (Cognito): sets the session cookies; failures counted per account and address (a lock for a while past a limit)', { ...signInPage, cursors: true }),
  route('POST', NEW_PASSWORD_PATH, 'postNewPassword', [], "An invited user's first sign-in: choose a password", { ...signInPage, cursors: true }),
  route('GET', REFRESH_PATH, 'getSessionRefresh', R, 'A new session from the refresh cookie, back to the page asked for (not for a user the tenant disabled)', signInPage),
  route('POST', SIGN_OUT_PATH, 'postSignOut', [], 'Sign out: revokes the refresh token and clears the cookies', signInPage),
  // API Gateway routes /app/ here too (a route matches its path with a trailing slash; none may end in one).
  route('GET', APP_PATH, 'getApp', [], "The workspace's home: its first section", workspacePage),
  route('GET', APP_ANSWERS_PATH, 'getAppAnswers', RB, 'What customers answered, newest first, with comments and filters, as the signed-in user may see them', { ...workspacePage, cursors: true }),
  route('POST', APP_ANSWERS_EXPORTS_PATH, 'postAppAnswersExport', RW, "Start the export of the answers page's filters as one file (a job; or find the one running), back to the page, which shows its progress", { ...workspacePage, cursors: true, queues: ['exports'] }),
  route('GET', APP_ANSWERS_EXPORT_PATH, 'getAppAnswersExport', R, 'Download an export: for the user who asked, while its stores are in their scope, for a day; redirects to a short-lived address of the file', { ...workspacePage, exports: 'read' }),
  route('GET', APP_ANSWERS_CSV_PATH, 'getAppAnswersCsv', RB, 'The answers of the same filters as CSV, a page at a time (its Link header goes on)', { ...workspacePage, cursors: true }),
  route('GET', APP_RESULTS_PATH, 'getAppResults', R, 'Results of a journey and period, by store, employee and class, against the period before', workspacePage),
  route('GET', APP_DIGEST_PATH, 'getAppDigest', R, "The digest of the last week or day in the signed-in user's scope, as the digest e-mail shows it (where it links)", workspacePage),
  route('POST', APP_DIGEST_PATH, 'postAppDigest', RW, "Save the signed-in user's own choice of digest e-mail (weekly, daily or off), back to the digest page", workspacePage),
  route('GET', APP_CASES_PATH, 'getAppCases', RB, "The signed-in user's cases (of their stores, or their own; open, overdue, resolved; by store), overdue first", { ...workspacePage, cursors: true }),
  route('GET', APP_CASE_PATH, 'getAppCase', RB, 'One case: the answer, its notes and history, and the forms that act on it', workspacePage),
  route('POST', APP_CASE_PATH, 'postAppCase', RWB, "A case's form: a note, a status (a root cause to resolve) or an owner; back to the case", { ...workspacePage, queues: ['events', 'surveyDispatch'] }),
  route('POST', APP_CASE_CONTACT_PATH, 'postAppCaseContact', RB, "The case's customer contact, shown once; the read is written to the access log", workspacePage),
  // The tenant admins' pages (issue 34 §6): the configuration service of PUT /public/admin/config, which deletes what a
  // configuration no longer lists.
  route('GET', APP_ADMIN_PATH, 'getAppAdmin', R, 'The first admin page the signed-in user may open', workspacePage),
  route('GET', APP_ADMIN_GENERAL_PATH, 'getAppAdminGeneral', R, "The tenant's name, language and time zone, and the form to change them (tenant admins)", workspacePage),
  route('POST', APP_ADMIN_GENERAL_PATH, 'postAppAdminGeneral', RWB, 'Change the name, language or time zone (the form carries the ETag it was read at; tenant admins)', workspacePage),
  route('GET', APP_ADMIN_JOURNEYS_PATH, 'getAppAdminJourneys', R, "The tenant's journeys and their items, and a form to add or edit one (tenant admins)", workspacePage),
  route('GET', APP_ADMIN_REGIONS_PATH, 'getAppAdminRegions', R, "The tenant's regions, their parent and stores, and a form to add or edit one (tenant admins)", workspacePage),
  route('POST', APP_ADMIN_REGIONS_PATH, 'postAppAdminRegions', RWB, 'Add, edit or delete a region (the form carries the ETag it was read at; tenant admins)', workspacePage),
  route('POST', APP_ADMIN_JOURNEYS_PATH, 'postAppAdminJourneys', RWB, 'Add or edit a journey (the form carries the ETag it was read at; tenant admins)', workspacePage),
  route('GET', APP_ADMIN_THEMES_PATH, 'getAppAdminThemes', R, "The tenant's themes (or the defaults), a form to add or edit one, and the last 30 days' suggestions, each a theme or a keyword in one step (tenant admins)", workspacePage),
  route('POST', APP_ADMIN_THEMES_PATH, 'postAppAdminThemes', RWB, 'Add, edit or delete a theme, or add a suggestion as a keyword (the form carries the ETag it was read at; tenant admins)', workspacePage),
  route('GET', APP_ADMIN_WEBHOOKS_PATH, 'getAppAdminWebhooks', RW, "The tenant's event endpoints and a form to add one (tenant admins); a new endpoint's signing secret once", { ...workspacePage, cursors: true }),
  route('POST', APP_ADMIN_WEBHOOKS_PATH, 'postAppAdminWebhooks', RWB, 'Add (a new endpoint: its signing secret shown once) or remove an event endpoint (the form carries the ETag it was read at; tenant admins)', { ...workspacePage, cursors: true, surveyLinks: true }),
  // The users service of /public/admin/users (the user pool: the invitation, and disabling a sign-in).
  route('GET', APP_ADMIN_USERS_PATH, 'getAppAdminUsers', RW, "The tenant's users, their scope, role and state, and a form to invite one (tenant admins); a new user's token once", { ...workspacePage, userPool: true, cursors: true }),
  route('POST', APP_ADMIN_USERS_PATH, 'postAppAdminUsers', RW, 'Invite a manager (or invite again), change a role, disable or enable a user (tenant admins)', { ...workspacePage, userPool: true, cursors: true, userPoolActions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser', 'cognito-idp:AdminSetUserPassword'], providers: ['ses'] }),
  // The keys service of /public/admin/keys.
  route('GET', APP_ADMIN_KEYS_PATH, 'getAppAdminKeys', RW, "The tenant's API keys and their last use, and a form to issue one (tenant admins); a new key's value once", { ...workspacePage, cursors: true }),
  route('POST', APP_ADMIN_KEYS_PATH, 'postAppAdminKeys', RW, 'Issue (its value shown once), revoke or replace an API key (tenant admins)', { ...workspacePage, cursors: true }),
  // The brand: what customers see of the tenant; a new logo goes to the logo bucket (a multipart form).
  route('GET', APP_ADMIN_BRAND_PATH, 'getAppAdminBrand', R, "The tenant's brand (display name, colour, sender name, logo with its preview) and the form to change it (tenant admins)", workspacePage),
  route('POST', APP_ADMIN_BRAND_PATH, 'postAppAdminBrand', RWB, 'Change the brand, a new logo uploaded with the form (multipart; tenant admins)', { ...workspacePage, logos: 'write' }),
  // In store (issue 50): the services of GET /public/admin/qr and /public/admin/kiosks.
  route('GET', APP_ADMIN_QR_PATH, 'getAppAdminQr', RW, "A store's QR code poster to print (A4 or A6) and the tenant's kiosks with a form to register one (tenant admins); a new kiosk's address once", { ...workspacePage, cursors: true, surveyLinks: true, links: true }),
  route('POST', APP_ADMIN_QR_PATH, 'postAppAdminQr', RW, 'Register a kiosk (its address shown once) or revoke one; written to the audit log (tenant admins)', { ...workspacePage, cursors: true, surveyLinks: true, links: true }),
  route('GET', RESULTS_ROUTE, 'getResultsPage', [], 'The old results page: moved to /app/results', { anonymous: true, page: true }),
  route('GET', ROBOTS_PATH, 'getRobots', [], 'What crawlers may read: not the workspace (/app/) nor survey links (/s/)', { anonymous: true, page: true }),
];

/** The authorizer of the workspace's pages: the session cookie's Cognito ID token, verified. */
export const sessionAuthorizer = { id: 'sessionAuthorizer', handler: 'auth/session-authorizer.ts' } as const;

/** The providers a consumer sends through, for its grants. */
export type Provider = 'ses' | 'sms' | 'whatsapp';

/** Queue consumers: each reads one queue in batches and reports failed records one by one. */
export interface Consumer {
  id: string;
  handler: string;
  queue: QueueId;
  table: TableAccess;
  sends: readonly QueueId[];
  surveyLinks?: true;
  /** Signs v2 request ids (the rejection events carry the one the tenant was given). */
  requestIds?: true;
  /** Reads lists a page at a time (their cursors are sealed with the cursor secret). */
  cursors?: true;
  /** Writes the answer exports. */
  exports?: 'write';
  /** Reads (HeadObject) and writes the analytics export's days (shared/analytics/). */
  analytics?: readonly ('read' | 'write' | 'delete')[];
  providers?: readonly Provider[];
  /** Calls Amazon Comprehend's sentiment detection (the language and key phrases are the service's own). */
  /** Links to the workspace (ENV.surveyBaseUrl): a chat message's button to its case. */
  links?: true;
  comprehend?: true;
  summary: string;
}

export const consumers: readonly Consumer[] = [
  {
    id: 'transactionConsumer',
    handler: 'queue/transaction-consumer.ts',
    queue: 'transactions',
    table: ['read', 'write'],
    sends: ['surveyDispatch', 'events'],
    requestIds: true,
    summary: 'Registers queued transactions and dispatches their surveys',
  },
  {
    id: 'surveyDispatcher',
    handler: 'queue/survey-dispatcher.ts',
    queue: 'surveyDispatch',
    table: ['read', 'write'],
    // Later attempts, and attempts held for quiet hours, go back on its own queue (delayed) or to the table.
    sends: ['surveyDispatch', 'events'],
    surveyLinks: true,
    providers: ['ses', 'sms', 'whatsapp'],
    summary: "Sends each survey attempt on its channel (e-mail, SMS, WhatsApp) or to the tenant's chatbot, once",
  },
  {
    id: 'eventWebhooks',
    handler: 'queue/event-webhooks.ts',
    queue: 'events',
    table: ['read', 'write'],
    // A failed delivery goes back on its own queue, delayed; the failure is recorded for the tenant to list.
    sends: ['events'],
    surveyLinks: true,
    summary: "Delivers each event to the tenant's webhook endpoint, signed; retries for about two days, then dead-letters",
  },
  {
    id: 'chatAlerts',
    handler: 'queue/chat-alerts.ts',
    queue: 'chat',
    // The claim that sends each message once, its failure, the endpoint's gone answers; the case's names and comment.
    table: ['read', 'write'],
    // A failed message goes back on its own queue, delayed.
    sends: ['chat'],
    links: true,
    summary: "Sends each case event (and digest) to the tenant's Slack and Teams endpoints, once; retries for about eight hours",
  },
  {
    id: 'caseOpener',
    handler: 'queue/case-opener.ts',
    queue: 'cases',
    table: ['read', 'write'],
    // A case's deadline is a timer: in the table by due minute, or on its queue when due within 15 minutes. So is a
    // WhatsApp alert held by quiet hours, which comes back on the case queue itself.
    sends: ['events', 'caseDeadlines', 'cases', 'chat'],
    providers: ['ses', 'whatsapp'],
    summary:
      "Opens the case of an answer that matches its journey's rule (once per transaction), alerts the store's managers once, publishes case.opened",
  },
  {
    id: 'privacyRequests',
    handler: 'queue/privacy-requests.ts',
    queue: 'privacy',
    table: ['read', 'write', 'delete'],
    // The second pass of an erasure, two minutes later (ERASURE_RECHECK_SECONDS), is a delayed message on its own queue;
    // the analytics days that held the subject's records are written again by a chain of the analytics queue.
    sends: ['privacy', 'analytics'],
    // Which of those days were written (HeadObject); the chain writes them.
    analytics: ['read'],
    summary: 'Works on privacy requests: finds the customers they name, erases them or makes their export readable',
  },
  {
    id: 'caseDeadlines',
    handler: 'queue/case-deadlines.ts',
    queue: 'caseDeadlines',
    // The escalation's claim is given back (DeleteItem) when its e-mail fails.
    table: ['read', 'write', 'delete'],
    // A deadline that arrives early goes back on its own queue; case.overdue goes to the events; the escalation by SES.
    sends: ['caseDeadlines', 'events', 'chat'],
    providers: ['ses'],
    summary: "Marks a case still open when its deadline fires overdue and escalates it once, by e-mail to the users of the store's groups",
  },
  {
    id: 'answerExports',
    handler: 'queue/answer-exports.ts',
    queue: 'exports',
    // The job's progress and the access log's reads (the file shows customers' names and comments).
    table: ['read', 'write', 'batchWrite'],
    sends: [],
    cursors: true,
    exports: 'write',
    summary:
      "Writes a workspace export: pages through the answers of its filters in its user's scope and streams the file to the export bucket",
  },
  {
    id: 'commentAnalyser',
    handler: 'queue/comment-analyser.ts',
    queue: 'analysis',
    table: ['read', 'write', 'delete'],
    sends: [],
    comprehend: true,
    summary:
      "Analyses an answer's comment once: redacts it, reads its language and key phrases, asks Comprehend for its sentiment (unless the tenant turned that off), matches the tenant's themes, stores them on the answer and counts them",
  },
  {
    id: 'digestSender',
    handler: 'queue/digest-sender.ts',
    queue: 'digests',
    // The claim is given back (DeleteItem) when its e-mail fails; a scheduled run parks the next one (a timer).
    table: ['read', 'write', 'delete'],
    // A chat endpoint's digest goes to the chat queue, which claims and posts it.
    sends: ['digests', 'chat'],
    providers: ['ses'],
    // Signs each e-mail's one-click unsubscribe link (shared/digest/unsubscribe.ts).
    surveyLinks: true,
    summary:
      "Sends each user's digest e-mail of a period once (claimed before sending), and each chat endpoint's summary to the chat queue; a tenant's scheduled run queues its users' and endpoints' digests and parks the next run",
  },
  {
    id: 'scoreDropChecker',
    handler: 'queue/score-drop-checker.ts',
    queue: 'scoreDrops',
    // Each store's alert of the week is claimed (a conditional put) before its e-mail and its chat messages (the chat
    // queue); the next day's run is a timer.
    table: ['read', 'write'],
    sends: ['scoreDrops', 'chat'],
    providers: ['ses'],
    summary:
      "Checks one tenant's stores for a week significantly below their 28 days before (day counters), alerts each store's managers at most once a week, and parks the next day's check",
  },
  {
    id: 'analyticsExporter',
    handler: 'queue/analytics-exporter.ts',
    queue: 'analytics',
    // The chains' items (a link's lease, where it stopped); the day's records; the dirty marks cleared (DeleteItem); the
    // next run parked (a timer).
    table: ['read', 'write', 'delete'],
    // A chain's next link.
    sends: ['analytics'],
    // The day's multipart uploads (s3:PutObject), the file a link kept for the next (PutObject, GetObject, DeleteObject),
    // and the days past the tenant's retention deleted.
    analytics: ['read', 'write', 'delete'],
    summary:
      "Writes each tenant's previous day as Parquet to the analytics bucket once, in a chain of links when it is long, deletes the days past its retention, and parks the next run",
  },
];

/** Functions run on a schedule (an EventBridge rule in AWS, a timer in the local stack). */
export interface Scheduled {
  id: string;
  handler: string;
  everyMinutes: number;
  /** How long a run may take; the queue consumers' timeout when absent. */
  timeoutSeconds?: number;
  table: TableAccess;
  sends: readonly QueueId[];
  summary: string;
}

export const scheduled: readonly Scheduled[] = [
  {
    id: 'attemptScheduler',
    handler: 'schedule/release-attempts.ts',
    everyMinutes: 1,
    table: ['read', 'write', 'batchWrite'],
    // Every timer due soon goes to the queue its kind names (shared/timers/timers.ts): attempts, case deadlines, held alerts.
    sends: ['surveyDispatch', 'caseDeadlines', 'cases', 'digests', 'scoreDrops', 'analytics'],
    summary:
      'Releases the timers due in the next minutes (survey attempts, case deadlines, WhatsApp alerts held by quiet hours, digest and analytics runs, score-drop checks) onto the queue each names',
  },
  {
    id: 'personalCopiesExpiry',
    handler: 'schedule/expire-personal-copies.ts',
    everyMinutes: 15,
    timeoutSeconds: 300,
    table: ['read', 'write', 'delete'],
    sends: [],
    summary: "Removes transactions' personal copies (customer name, contacts, comment) past their tenant's retention",
  },
];

/** Functions another AWS service invokes with its notifications: SES's bounces and complaints, through SNS. */
export interface Notified {
  id: string;
  handler: string;
  table: TableAccess;
  sends: readonly QueueId[];
  summary: string;
}

export const notified: readonly Notified[] = [
  {
    id: 'sesEvents',
    handler: 'queue/ses-events.ts',
    table: ['write'],
    sends: [],
    summary: 'SES bounces and complaints of survey e-mails: suppress the address, opt complainers out',
  },
];

/** The authorizer of each API: the key scope it accepts. */
export const authorizers: Record<ApiName, { handler: string; scope: ApiName }> = {
  public: { handler: 'auth/public-authorizer.ts', scope: 'public' },
  chatbot: { handler: 'auth/chatbot-authorizer.ts', scope: 'chatbot' },
};

/**
 * The pages each API serves without a key (its OpenAPI document, /docs, with their assets, which the workspace's pages
 * use too): one function per API, bundled with that API's files, which are written at build time. Not operations of
 * the document.
 */
export const reference = { handler: 'http/get-reference.ts', paths: REFERENCE_ROUTES } as const;
/** The name the reference's routes go by where operations are named (their throttle). */
export const REFERENCE_OPERATION = 'getReference';

/** The reference paths one API serves. */
export const referencePaths = (_api: ApiName): readonly string[] => reference.paths;
