import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { fixture, keyFor, itemsOf, routeOf, snapshot, validRequests, type Fixture } from './fixtures.js';
import { USER_TOKEN_HEADER } from '../../shared/headers.js';

// Survey messages and comments to analyse go to queues of this file: the local stack's dispatcher and analyser would
// otherwise send them or write the answers' themes, and change the tenant's items, while a test compares them before
// and after.
usePrivateQueue('surveyDispatch');
usePrivateQueue('analysis');

/**
 * Tenant isolation (BOLA), generated from the route table: for every route, the second tenant's credentials with
 * the first tenant's ids never get the first tenant's data and never change it; user tokens and keys of one kind
 * or tenant are worthless elsewhere.
 */
const clients = { public: inProcess('public'), chatbot: inProcess('chatbot') };
let a: Fixture;
/**
 * The other tenant, bare: ids are per tenant, so the first tenant's ids name nothing of its own. A check whose request
 * the other tenant's key had accepted may have created something of its own under such an id (a store, a customer):
 * the next check gets a new bare tenant.
 */
let b: TestTenant;
let bUsed = false;
/**
 * The first tenant's items, which no check may change: read again after each check (a BatchGetItem), and the whole
 * tenant once after the last check (a Scan), for an item a check might have added beside them.
 */
let unchanged: Awaited<ReturnType<typeof itemsOf>>;

beforeAll(async () => {
  [a, b] = await Promise.all([fixture(), newTenant()]);
  unchanged = await itemsOf(a.tenantId);
});
afterAll(async () => {
  if (unchanged) expect(await snapshot(a.tenantId)).toBe(unchanged.snapshot);
});

/** What the other tenant may see for a request naming the first tenant's ids: not found, or its own (empty) view. */
const ALLOWED: Record<string, number[]> = {
  listStores: [200],
  listCustomers: [200],
  listEmployees: [200],
  listEvaluations: [200],
  // Its own journey loja, with no answers: nothing of the first tenant's counts.
  getResults: [200],
  listWebhookDeliveries: [200],
  // Its own answers (none): nothing of the first tenant's.
  listAnswers: [200],
  // Its own cases of a store of that id (none): nothing of the first tenant's.
  listCases: [200],
  getTransactionRequest: [404],
  createStore: [201],
  createCustomer: [200],
  createEmployee: [200],
  postV2Transaction: [201],
  // A request of its own tenant, which finds nobody there.
  postPrivacyRequest: [202],
  // Its own customer of that id, whom nobody read.
  getPrivacyAccess: [200],
  postTransaction: [422],
  deleteEmployee: [422],
  // Its own configuration: the admin routes take no ids, so the other tenant's admin key reads and replaces its own.
  getAdminConfig: [200],
  listAdminAudit: [200],
  putAdminConfig: [200, 412],
  // Its own keys (the fixture's spare keys carry the first tenant's marker in their names, which must not show), and a
  // key of its own; the first tenant's key ids are 404 to it (revokeAdminKey, rotateAdminKey).
  listAdminKeys: [200],
  createAdminKey: [201],
  // A logo of its own (logos are content-addressed: the same bytes are one object, recorded for each tenant that uploads them).
  createAdminLogo: [201],
  // Its own users, and a user of its own; the first tenant's user is 404 to it (updateAdminUser).
  listAdminUsers: [200],
  createAdminUser: [201],
  // Its own failed deliveries to that endpoint: none.
  replayWebhookDeliveries: [202],
  // Its own failed chat messages: none.
  listChatDeliveries: [200],
  // Its own digest and its own suggestions (no answers); the digests of its own users; its own QR codes' generation.
  getDigest: [200],
  listThemeSuggestions: [200],
  postAdminDigests: [202],
  rotateAdminQr: [200],
  // Its own kiosks: none; a kiosk on the first tenant's store is refused, the store named as unknown (400).
  listAdminKiosks: [200],
  createAdminKiosk: [400],
};

describe('tenant isolation', () => {
  it('has a request for every route of the route table', () => {
    expect(routes.map((r) => r.operationId).filter((id) => !validRequests[id])).toEqual([]);
  });

  describe("the other tenant's key", () => {
    it.each(routes.filter((r) => !r.anonymous).map((r) => r.operationId))(
      "%s: the other tenant's key gets nothing of the first tenant's and changes nothing",
      async (operationId) => {
        const route = routeOf(operationId);
        const request = validRequests[operationId]!(a);
        if (bUsed) [b, bUsed] = [await newTenant(), false];
        // The other tenant's own user token, wherever the request carries one (its header; the seed's lists, the query).
        const query = request.query?.token ? { ...request.query, token: b.userToken } : request.query;
        const headers = request.headers?.[USER_TOKEN_HEADER] ? { ...request.headers, [USER_TOKEN_HEADER]: b.userToken } : request.headers;
        const res = await clients[route.api]({
          ...request,
          ...(query ? { query } : {}),
          ...(headers ? { headers } : {}),
          key: keyFor(route, b),
        });
        bUsed = res.status < 300 && route.method !== 'GET';

        expect(ALLOWED[operationId] ?? [404], `${operationId} answered ${res.status}`).toContain(res.status);
        // A create echoes what its caller sent, which here carries the marker; anything else must not show it.
        if (!JSON.stringify(request.body ?? '').includes(a.marker)) expect(res.text).not.toContain(a.marker);
        expect(await unchanged.readAgain()).toBe(unchanged.snapshot);
      },
    );
  });

  it.each(routes.filter((r) => !r.anonymous).map((r) => r.operationId))(
    '%s: keys of the other API, and unknown keys, get 401',
    async (operationId) => {
      const route = routeOf(operationId);
      const request = validRequests[operationId]!(a);
      const wrongKind = route.api === 'public' ? a.chatbotKey : a.key;
      for (const key of [wrongKind, 'ssk_not-a-key-at-all-000000000000000000000000']) {
        const res = await clients[route.api]({ ...request, key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          type: '/problems/unauthenticated',
          title: 'Unauthorized',
          status: 401,
          detail: 'A valid API key is required.',
        });
      }
    },
  );

  it.each(
    routes.filter((r) => 'x-service-user-token' in (validRequests[r.operationId]!({} as Fixture).headers ?? {})).map((r) => r.operationId),
  )("%s: the other tenant's user token is worthless here", async (operationId) => {
    const route = routeOf(operationId);
    const request = validRequests[operationId]!(a);
    const res = await clients[route.api]({ ...request, headers: { ...request.headers, 'x-service-user-token': b.userToken }, key: a.key });
    expect(res.status).toBe(401);
    expect(await unchanged.readAgain()).toBe(unchanged.snapshot);
  });
});
