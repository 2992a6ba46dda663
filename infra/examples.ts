import { qrPagePath } from '../shared/in-store/qr-paths.js';
import { ADMIN_KIOSKS_PATH, KIOSK_COOKIE, KIOSK_ENTRY_PATH, KIOSK_PATH } from '../shared/in-store/kiosk-paths.js';
import { digestUnsubscribePath } from '../shared/digest/paths.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Route } from './routes.js';
import { parseTenantFile } from '../shared/tenants/tenant-file.js';
import { surveyPagePath, unsubscribeOf } from '../shared/surveys/paths.js';
import { logoPath } from '../shared/brand/brand.js';

/**
 * A valid request for every operation, naming the resources of a tenant that holds one of everything. The OpenAPI
 * documents take their examples from here; the tests that must cover every route (isolation, bad input, contract
 * replay) and the benchmarks run these same requests against a real fixture.
 */
export interface ExampleRequest {
  method?: string;
  path: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A tenant holding one of everything, with unique markers in its data so that a leak shows in any answer. */
export interface Fixture {
  tenantId: number;
  key: string;
  chatbotKey: string;
  /** An API key with scope admin. */
  adminKey: string;
  /** The ETag of the tenant's configuration as the fixture left it. */
  configEtag: string;
  userToken: string;
  limitedToken: string;
  marker: string;
  storeId: number;
  storeCode: string;
  customerId: number;
  clientId: string;
  employeeId: number;
  transactionId: number;
  transactionExternalId: string;
  answeredId: number;
  requestId: string;
  /** The link token of a transaction's survey attempt 1 that nothing else answers (the survey page's examples). */
  surveyToken: string;
  /** A QR code's token for the fixture's store (journey loja, generation 1: the QR page's examples, before the rotation). */
  qrToken: string;
  /** A registered kiosk's device token (the kiosk pages' examples), and another kiosk's id that nothing uses (revoked). */
  kioskToken: string;
  revocableKioskId: string;
  /** The digest unsubscribe token of the fixture's spare user (an e-mail address: the digest page's examples). */
  digestToken: string;
  /** A done export request naming the fixture's customer. */
  privacyRequestId: string;
  /** A stored logo's object name (`<sha-256>.png`). */
  logoFile: string;
  /** A failed event delivery to FIXTURE_ENDPOINT, not re-sent yet. */
  failedDeliveryId: string;
  /** A failed chat message to an endpoint the tenant does not list, not re-sent yet. */
  failedChatDeliveryId: string;
  /** An open case (a detractor's answer) in the fixture's store. */
  caseId: number;
  /** Ids of two public keys of the tenant that nothing uses: one to revoke, one to rotate. */
  revocableKeyId: string;
  rotatableKeyId: string;
  /** A manager of the tenant (their e-mail address) whom nothing else uses. */
  spareUser: string;
}

/** The fixture's event endpoint: its failed delivery went there (nothing listens), and its secret is the one rotated. */
export const FIXTURE_ENDPOINT = 'http://127.0.0.1:9/fixture-events';
/**
 * How the fixture lists that endpoint: subscribed only to an event no request of the route tests causes (a recovery
 * survey's answer), so that no delivery to it is recorded while a test compares the tenant's items before and after.
 */
export const FIXTURE_WEBHOOK = { url: FIXTURE_ENDPOINT, events: ['case.recovered' as const] };

/**
 * A value no request made before holds: random against a real fixture (the tests and benchmarks send the same
 * requests again), fixed in the documents' examples, so that a synthesis writes the same reference, and so the same
 * asset hash, every time.
 */
const unique = (f: Fixture, length: number) => (f === EXAMPLE_FIXTURE ? '0a1b2c3d4e'.slice(0, length) : randomUUID().slice(0, length));

/** Every operation of the route table has an entry: a route without one fails the tests that cover every route. */
export const validRequests: Record<string, (f: Fixture) => ExampleRequest> = {
  getHealth: () => ({ path: '/health' }),
  listStores: (f) => ({ path: '/public/store', query: { store_id: f.storeCode, limit: 10 } }),
  createStore: (f) => ({
    method: 'POST',
    path: '/public/store',
    body: { trade_name: `${f.marker} new`, store_id: `${f.marker}-${unique(f, 6)}` },
  }),
  getStore: (f) => ({ path: `/public/store/${f.storeId}` }),
  updateStore: (f) => ({ method: 'PUT', path: `/public/store/${f.storeId}`, body: { company_name: 'Changed' } }),
  deleteStore: (f) => ({ method: 'DELETE', path: `/public/store/${f.storeId}` }),
  listCustomers: (f) => ({ path: '/public/customer', headers: { 'x-service-user-token': f.userToken }, query: { client_id: f.clientId } }),
  createCustomer: (f) => ({ method: 'POST', path: '/public/customer', body: { name: `${f.marker} new`, phone: '11933332222' } }),
  getCustomer: (f) => ({ path: `/public/customer/${f.customerId}` }),
  updateCustomer: (f) => ({ method: 'PUT', path: `/public/customer/${f.customerId}`, body: { name: 'Changed' } }),
  listEmployees: (f) => ({ path: '/public/employee', query: { store: f.storeId } }),
  createEmployee: (f) => ({ method: 'POST', path: '/public/employee', body: { name: `${f.marker} new` } }),
  getEmployee: (f) => ({ path: `/public/employee/${f.employeeId}` }),
  updateEmployee: (f) => ({ method: 'PUT', path: `/public/employee/${f.employeeId}`, body: { name: 'Changed' } }),
  deleteEmployee: (f) => ({ method: 'DELETE', path: `/public/employee/${f.employeeId}` }),
  getEmployeeStores: (f) => ({ path: `/public/employee/${f.employeeId}/stores` }),
  putEmployeeStores: (f) => ({
    method: 'PUT',
    path: `/public/employee/${f.employeeId}/stores`,
    headers: { 'x-service-user-token': f.userToken },
    body: { stores: [1] },
  }),
  getEmployeeGroups: (f) => ({ path: `/public/employee/${f.employeeId}/groups` }),
  putEmployeeGroups: (f) => ({
    method: 'PUT',
    path: `/public/employee/${f.employeeId}/groups`,
    headers: { 'x-service-user-token': f.userToken },
    body: { groups: [1] },
  }),
  postV2Transaction: (f) => ({
    method: 'POST',
    path: '/v2/transactions',
    body: {
      store: { id: f.storeId },
      employee: { id: f.employeeId },
      customer: { id: f.customerId },
      transaction: { journeySlug: 'loja' },
    },
  }),
  getTransactionRequest: (f) => ({ path: `/v2/transactions/requests/${f.requestId}` }),
  postTransaction: (f) => ({
    method: 'POST',
    path: '/public/transaction',
    body: { store_id: f.storeId, employee_id: f.employeeId, customer_id: f.customerId, journey: 'loja' },
  }),
  getTransaction: (f) => ({ path: `/public/transaction/${f.transactionId}` }),
  listEvaluations: (f) => {
    const today = new Date().toISOString().slice(0, 10);
    return {
      path: '/public/rating/formbuilder',
      headers: { 'x-service-user-token': f.userToken },
      query: { start_date: today, end_date: today },
    };
  },
  getEvaluation: (f) => ({ path: `/public/rating/formbuilder/${f.answeredId}` }),
  postPrivacyRequest: (f) => ({
    method: 'POST',
    path: '/public/privacy/requests',
    headers: { 'x-service-user-token': f.userToken },
    body: { type: 'export', client_id: f.clientId },
  }),
  getPrivacyRequest: (f) => ({ path: `/public/privacy/requests/${f.privacyRequestId}`, headers: { 'x-service-user-token': f.userToken } }),
  getPrivacyExport: (f) => ({
    path: `/public/privacy/requests/${f.privacyRequestId}/export`,
    headers: { 'x-service-user-token': f.userToken },
  }),
  getPrivacyAccess: (f) => ({
    path: '/public/privacy/access',
    headers: { 'x-service-user-token': f.userToken },
    query: { customer: f.customerId },
  }),
  getAdminConfig: () => ({ path: '/public/admin/config' }),
  listAdminAudit: () => ({ path: '/public/admin/audit', query: { limit: 10 } }),
  // The demo configuration again, which every test tenant has: replacing it changes nothing a later request relies on.
  putAdminConfig: (f) => ({ method: 'PUT', path: '/public/admin/config', headers: { 'if-match': f.configEtag }, body: DEMO_CONFIG }),
  createAdminLogo: () => ({ method: 'POST', path: '/public/admin/brand/logos', headers: { 'content-type': 'image/png' }, body: DEMO_LOGO }),
  listAdminKeys: () => ({ path: '/public/admin/keys' }),
  createAdminKey: () => ({ method: 'POST', path: '/public/admin/keys', body: { scope: 'public', name: 'Caixa da loja 2' } }),
  revokeAdminKey: (f) => ({ method: 'DELETE', path: `/public/admin/keys/${f.revocableKeyId}` }),
  rotateAdminKey: (f) => ({ method: 'POST', path: `/public/admin/keys/${f.rotatableKeyId}/rotate`, body: { grace_seconds: 3600 } }),
  listAdminUsers: () => ({ path: '/public/admin/users' }),
  createAdminUser: (f) => ({
    method: 'POST',
    path: '/public/admin/users',
    body: { email: `gerente-${unique(f, 8)}@loja.example`, scope: { stores: [f.storeId], groups: [] }, phone: '11 98888-7777' },
  }),
  updateAdminUser: (f) => ({ method: 'PATCH', path: `/public/admin/users/${encodeURIComponent(f.spareUser)}`, body: { role: 'member' } }),
  listWebhookDeliveries: () => ({ path: '/public/webhooks/deliveries', query: { status: 'failed' } }),
  rotateAdminWebhookSecret: () => ({
    method: 'POST',
    path: '/public/admin/webhooks/rotate',
    // A hard cutover: a rotation with an overlap waits for the last one's to end, and the benchmarks replay this call.
    body: { url: FIXTURE_ENDPOINT, overlap_hours: 0 },
  }),
  retryWebhookDelivery: (f) => ({ method: 'POST', path: `/public/webhooks/deliveries/${f.failedDeliveryId}/retry` }),
  listChatDeliveries: () => ({ path: '/public/chat/deliveries', query: { status: 'failed' } }),
  retryChatDelivery: (f) => ({ method: 'POST', path: `/public/chat/deliveries/${f.failedChatDeliveryId}/retry` }),
  replayWebhookDeliveries: () => ({
    method: 'POST',
    path: '/public/webhooks/deliveries/replay',
    body: { endpoint: FIXTURE_ENDPOINT, since: '2026-11-01T00:00:00Z' },
  }),
  getResults: (f) => {
    const today = new Date().toISOString().slice(0, 10);
    return {
      path: '/public/results',
      headers: { 'x-service-user-token': f.userToken },
      query: { journey: 'loja', from: today, to: today, group_by: 'store' },
    };
  },
  listThemeSuggestions: (f) => {
    const today = new Date().toISOString().slice(0, 10);
    return { path: '/public/themes/suggestions', headers: { 'x-service-user-token': f.userToken }, query: { from: today, to: today } };
  },
  listAnswers: (f) => ({ path: '/public/answers', headers: { 'x-service-user-token': f.userToken } }),
  getDigest: (f) => ({ path: '/public/digest', headers: { 'x-service-user-token': f.userToken }, query: { period: 'week' } }),
  postAdminDigests: () => ({ method: 'POST', path: '/public/admin/digests', body: { period: 'week' } }),
  listCases: (f) => ({
    path: '/public/cases',
    headers: { 'x-service-user-token': f.userToken },
    query: { store: f.storeId, status: 'open' },
  }),
  getCase: (f) => ({ path: `/public/cases/${f.caseId}`, headers: { 'x-service-user-token': f.userToken } }),
  updateCase: (f) => ({
    method: 'PATCH',
    path: `/public/cases/${f.caseId}`,
    headers: { 'x-service-user-token': f.userToken, 'if-match': '*' },
    body: { note: 'Liguei para o cliente; retorno amanhã.' },
  }),
  revealCaseContact: (f) => ({
    method: 'POST',
    path: `/public/cases/${f.caseId}/contact`,
    headers: { 'x-service-user-token': f.userToken },
  }),
  getSurvey: (f) => ({ path: '/survey', query: { transactionId: f.transactionId, attemptId: 1, journey: 'loja', source: 'whatsapp' } }),
  postSurvey: (f) => ({
    method: 'POST',
    path: '/survey',
    body: { transactionId: f.transactionId, attemptId: 1, journey: 'loja', classes: [], score: 7 },
  }),
  putSurvey: (f) => ({
    method: 'PUT',
    path: '/survey',
    body: { transactionId: f.answeredId, attemptId: 1, journey: 'loja', classes: [], score: 8 },
  }),
  getBrandLogo: (f) => ({ path: logoPath(f.logoFile) }),
  getSurveyPage: (f) => ({ path: surveyPagePath(f.surveyToken), query: { score: 9 } }),
  postSurveyPage: (f) => ({ method: 'POST', path: surveyPagePath(f.surveyToken), body: 'score=9&class_1=5&comment=Muito+bom' }),
  getUnsubscribePage: (f) => ({ path: unsubscribeOf(surveyPagePath(f.surveyToken)) }),
  postUnsubscribe: (f) => ({ method: 'POST', path: unsubscribeOf(surveyPagePath(f.surveyToken)), body: 'List-Unsubscribe=One-Click' }),
  getDigestUnsubscribe: (f) => ({ path: digestUnsubscribePath(f.digestToken) }),
  postDigestUnsubscribe: (f) => ({ method: 'POST', path: digestUnsubscribePath(f.digestToken), body: 'List-Unsubscribe=One-Click' }),
  getQrPage: (f) => ({ path: qrPagePath(f.qrToken) }),
  postQrPage: (f) => ({ method: 'POST', path: qrPagePath(f.qrToken), body: 'score=9&comment=Muito+bom' }),
  getAdminQr: (f) => ({ path: '/public/admin/qr', query: { store: f.storeId, journey: 'loja' } }),
  rotateAdminQr: () => ({ method: 'POST', path: '/public/admin/qr/rotate' }),
  getKioskEntry: (f) => ({ path: KIOSK_ENTRY_PATH.replace('{token}', f.kioskToken) }),
  getKioskPage: (f) => ({ path: KIOSK_PATH, headers: { cookie: `${KIOSK_COOKIE}=${f.kioskToken}` } }),
  postKioskPage: (f) => ({
    method: 'POST',
    path: KIOSK_PATH,
    headers: { cookie: `${KIOSK_COOKIE}=${f.kioskToken}` },
    body: 'score=9&comment=Muito+bom',
  }),
  createAdminKiosk: (f) => ({
    method: 'POST',
    path: ADMIN_KIOSKS_PATH,
    body: { store: f.storeId, journey: 'loja', name: `${f.marker} caixa 1` },
  }),
  listAdminKiosks: () => ({ path: ADMIN_KIOSKS_PATH }),
  revokeAdminKiosk: (f) => ({ method: 'DELETE', path: `${ADMIN_KIOSKS_PATH}/${f.revocableKioskId}` }),
};

/** The key a fixture calls a route with: its API's key, or the admin key on an admin route. */
export const keyFor = (route: Pick<Route, 'api' | 'admin'>, f: Pick<Fixture, 'key' | 'chatbotKey' | 'adminKey'>): string =>
  route.api === 'chatbot' ? f.chatbotKey : route.admin ? f.adminKey : f.key;

/** Example ids and names, for the examples of the OpenAPI document. */
export const EXAMPLE_FIXTURE: Fixture = {
  tenantId: 1,
  key: 'local-dev-api-key',
  chatbotKey: 'local-dev-chatbot-key',
  adminKey: 'local-dev-admin-key',
  configEtag: '"1"',
  userToken: 'local-dev-user-token',
  limitedToken: 'local-dev-limited-token',
  marker: 'Loja',
  storeId: 2,
  storeCode: 'CTR-1',
  customerId: 1,
  clientId: 'C-42',
  employeeId: 2,
  transactionId: 184729384756,
  transactionExternalId: 'T-1001',
  answeredId: 184729384756,
  requestId: 'tx-3q2Vb1kQm9ZcX8yT4rN7pL0sD5fG6hJ2.Hk3dP0qLx9sVb2mT7yWc1A',
  surveyToken: 'AQAAAAH5hI2DO0wBAmsMNTMTWwrDg-yCNLMcQ0xsvD0b',
  qrToken: 'AQAAAAEAAAACAAAAAQAAAAAAARbYlOFiwZzO84UCjavT2oI',
  kioskToken: 'AAAAAVwdCp57PyRos_HJoNfiTG-KGyw9Tl9gcQ',
  revocableKioskId: '0f1e2d3c4b5a6978',
  digestToken: 'AQAAAAElr8g2LiCyVcSY10yY6ATZ',
  privacyRequestId: 'pr_Qm9hdmlzdGEgZGUgZXhlbX',
  logoFile: '5f0d7c3b2a1e4d6f8a9b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7.png',
  failedDeliveryId: 'dlv_RXhhbXBsZURlbGl2ZXJ5SWQtMDAwMDAx',
  failedChatDeliveryId: 'dlv_Yx3kQ9mVb2LrT8wZp4NcJ6hFd1sGa7Ue',
  caseId: 184729384757,
  revocableKeyId: '3f9a1c2b7d4e',
  rotatableKeyId: '8b2e6f0a1d5c',
  spareUser: 'gerente.loja2@demo.local',
};

/**
 * The demo file's outbox, as a host a deployment takes: this module also loads outside the local stack (the OpenAPI
 * document), where http://localhost is refused; the delivery settings it names are dropped below.
 */
const OUTSIDE_OUTBOX = 'https://outbox.example';

/** The demo tenant's logo (a PNG): the logo upload's example body. */
const DEMO_LOGO = readFileSync(new URL('./local/demo-logo.png', import.meta.url));

/**
 * The demo tenant's configuration as the admin API takes it (infra/local/demo-tenants.json, without id, users, keys,
 * delivery, first store, language, and the brand's logo, which the admin API names by the object an upload answers).
 */
const DEMO_CONFIG = (() => {
  const {
    id: _id,
    users: _users,
    keys: _keys,
    // The first store's names and the tenant's language are the tenant file's alone so far.
    brand: { logo: _logo, ...brand },
    firstStore: _firstStore,
    locale: _locale,
    ...config
  } = parseTenantFile(readFileSync(new URL('./local/demo-tenants.json', import.meta.url), 'utf8'), { OUTBOX_URL: OUTSIDE_OUTBOX })
    .tenants[0]!;
  // Without sender settings, as test tenants have them (tests/support/tenant.ts), and with the fixture's event endpoint,
  // which rotateAdminWebhookSecret rotates: replacing a fixture's configuration with this one keeps it.
  return { ...config, brand, delivery: { webhooks: [FIXTURE_WEBHOOK] } };
})();
