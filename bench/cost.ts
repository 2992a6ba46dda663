import { meter } from './metering.js';
import { db } from '../shared/adapters/dynamodb.js';
import { routes } from '../infra/routes.js';
import { inProcess } from '../test/support/api.js';
import { keyFor, validRequests } from '../infra/examples.js';
import type { Fixture } from '../infra/examples.js';

/**
 * Cost per operation: each route's valid request (the one the tests send) made in-process through its real
 * handler against DynamoDB Local, with its DynamoDB round trips and the capacity DynamoDB reports, beside the
 * fewest round trips the operation can need (argued in a line), priced at on-demand list prices.
 */
export const PRICES = {
  /** us-east-1 on-demand list prices, USD per million. */
  readUnit: 0.125,
  writeUnit: 0.625,
  httpApiRequest: 1.0,
  lambdaRequest: 0.2,
  /** arm64, per million GB-seconds. */
  lambdaGbSecond: 13.3334,
  sqsRequest: 0.4,
  /** CloudWatch Logs ingestion, per GB (not per million). */
  logIngestionGb: 0.5,
};

/**
 * What one survey costs on each channel, USD per million, as listed in 2026-11 (approximate: message prices change
 * by country and carrier, and this machine cannot read the price pages; check them before quoting).
 */
export const CHANNEL_PRICES: [channel: string, basis: string, perMillion: number][] = [
  ['email', 'SES outbound, $0.10 per 1,000 e-mails', 100],
  ['sms', 'End User Messaging SMS to Brazil, about $0.0197 per segment (one segment: the text fits 160 GSM-7 characters)', 19_700],
  ['whatsapp', "End User Messaging Social, $0.005 per message plus Meta's utility template rate for Brazil (about $0.008)", 13_000],
  ['chatbot hand-off', 'one HTTPS POST from the dispatcher: no provider charge', 0],
];

/** The fewest DynamoDB round trips each operation can need with the data it must touch, and why. */
export const FLOORS: Record<string, [number, string]> = {
  getHealth: [1, 'one read proves the table answers'],
  listStores: [1, 'one Query of the index the filter names'],
  createStore: [2, 'an id from the counter, then the guard and the store in one transaction (we write them apart: half the write units)'],
  getStore: [1, 'one GetItem'],
  updateStore: [1, 'one conditional UpdateItem'],
  deleteStore: [1, 'one conditional UpdateItem'],
  listCustomers: [4, 'the user token, the client_id guard, the customer, then the access-log entry of each customer answered'],
  createCustomer: [1, 'one write: the id comes from a reserved block (a client_id adds its guard)'],
  getCustomer: [2, 'one GetItem, then its access-log entry'],
  updateCustomer: [1, 'one conditional UpdateItem'],
  listEmployees: [2, "a store's links, then its employees"],
  createEmployee: [2, 'an id from the counter, the employee (a main store adds its lookup and link)'],
  getEmployee: [1, 'one GetItem'],
  updateEmployee: [1, 'one conditional UpdateItem'],
  deleteEmployee: [1, 'one conditional UpdateItem'],
  getEmployeeStores: [2, 'the employee, then its stores'],
  putEmployeeStores: [4, 'the user, the employee, the stores added, one transaction'],
  getEmployeeGroups: [1, 'the employee (and its groups, when it has any)'],
  putEmployeeGroups: [4, 'the user, the employee, the groups, one conditional update'],
  postV2Transaction: [0, 'no DynamoDB: one SQS message'],
  getTransactionRequest: [1, 'one GetItem'],
  postTransaction: [2, 'one batched read of what it names, one conditional write'],
  getTransaction: [1, 'one GetItem'],
  listEvaluations: [
    18,
    "the user token, then the month's 16 evaluation shards and its unsharded partition (evaluations written before the shards), 17 Queries at once: one round trip of waiting; one partition would take 347 answers a second at a large tenant's peak",
  ],
  getEvaluation: [1, 'one GetItem'],
  listWebhookDeliveries: [1, 'one Query of the failed deliveries, newest first'],
  getAdminConfig: [1, "the tenant's name beside one Query of its configuration partition (the version in it)"],
  putAdminConfig: [
    6,
    "read what it replaces (the tenant's record beside its configuration partition, which names what to delete), claim the version (conditional; a new name in the same transaction), write the items, delivery and brand and delete the unlisted ones (BatchWriteItem, 25 a call, so that any size fits), raise the version again, the audit entry",
  ],
  listAdminAudit: [1, 'one Query of the audit partition, newest first'],
  createAdminLogo: [2, "the tenant's record of the logo (conditional: a first upload only) and the audit entry, beside S3's PutObject"],
  listAdminKeys: [1, "one Query of the tenant's key collection (gsi1)"],
  createAdminKey: [
    3,
    'the key, conditional on its hash being new, the configuration version raised (cached answers look at it), the audit entry',
  ],
  revokeAdminKey: [5, "the key's id on gsi1, the key read strongly, the revocation, the configuration version raised, the audit entry"],
  rotateAdminKey: [
    5,
    "the key's id on gsi1, the key read strongly, one transaction (successor and the old key's expiry), the configuration version raised, the audit entry",
  ],
  rotateAdminWebhookSecret: [4, 'the configuration read, the signing generation raised, the configuration version raised, the audit entry'],
  listAdminUsers: [1, "one Query of the tenant's user collection (gsi1)"],
  createAdminUser: [
    3,
    "the name's item read strongly, the user and its name item in one transaction, the audit entry (and Cognito's AdminCreateUser)",
  ],
  updateAdminUser: [
    4,
    "the name's item and the user read strongly, one conditional update, the audit entry (and Cognito's AdminDisableUser or AdminEnableUser)",
  ],
  retryWebhookDelivery: [4, "read the delivery's state, claim it (conditional), queue it, record the audit entry"],
  listChatDeliveries: [1, 'one Query of the failed chat messages (gsi1), newest first'],
  retryChatDelivery: [2, "read the delivery's state, record the audit entry (the chat queue's claim makes a second re-send send nothing)"],
  replayWebhookDeliveries: [
    2,
    "one Query of the endpoint's failed deliveries and the audit entry; 3 more (read, claim, queue) per delivery re-queued",
  ],
  listThemeSuggestions: [
    1,
    "the user token beside one Query of the tenant's suggestion cells of the month (day cells; month cells for whole months)",
  ],
  getResults: [2, "the user token beside one Query of the month's day counters; the stores' names (a BatchGetItem)"],
  getDigest: [
    4,
    "the user token and the settings, then in parallel per journey three reports' counter Queries (the period, the one before, by store or employee) and the two case pages: 4 in sequence",
  ],
  postAdminDigests: [
    3,
    'the users (one Query of their collection) beside the settings, then the timer of the next morning (one PutItem); one SQS batch per 10 users',
  ],
  listAnswers: [
    11,
    "the user token, a Query of each of the tenant's 8 answer shards (in parallel: one round trip of waiting), the page's answers with their analysis (one projected BatchGetItem: the indexes do not hold it), the access-log entries of the customers shown",
  ],
  listCases: [
    3,
    "the user token, one Query of the store's case partition in list order (every store: the 4 shards, in parallel), the access-log entries of the customers shown",
  ],
  getCase: [3, 'the user token, the case (one GetItem), its access-log entry'],
  updateCase: [3, 'the user token, the case, one UpdateItem conditioned on the version read (a new owner: its scope too)'],
  revealCaseContact: [4, "the user token, the case, the customer's item, then the access-log entry"],
  postPrivacyRequest: [
    4,
    "the user token, a place among the tenant's 50 pending requests (a Query of its places, one conditional PutItem), then the request (and one SQS message)",
  ],
  getPrivacyRequest: [2, 'the user token, then the request'],
  getPrivacyAccess: [2, "the user token, then one Query of the customer's partition"],
  getPrivacyExport: [
    7,
    "the user token, the request, the customer beside its transactions' keys and the requests that named it, the transactions, the access-log entry",
  ],
  getSurvey: [1, 'one GetItem (the configuration is cached)'],
  postSurvey: [2, 'the attempt, one conditional update'],
  putSurvey: [2, 'the attempt, one conditional update'],
  getSurveyPage: [2, 'the attempt, and the store it names (settings are cached)'],
  postSurveyPage: [2, 'the attempt, one conditional update'],
  getBrandLogo: [0, 'no table read: one S3 GetObject of the logo, by its name'],
  getUnsubscribePage: [1, 'the attempt'],
  postUnsubscribe: [2, 'the attempt, one conditional update of the customer'],
  getDigestUnsubscribe: [1, "the tenant's users (one Query; the settings are cached)"],
  postDigestUnsubscribe: [2, "the tenant's users, one UpdateItem of the user's digest"],
  getQrPage: [0, 'none: the token names the store and journey, the settings and brand are cached'],
  postQrPage: [
    3,
    "the code's rate counter (one conditional UpdateItem), one batched read of the store, employee and customer, one conditional write of the rated transaction with its counters",
  ],
  getAdminQr: [1, 'the store (one GetItem; the settings are cached)'],
  rotateAdminQr: [3, 'one UpdateItem of the generation, the configuration version raised, the audit entry'],
  getKioskEntry: [1, 'the kiosk (one GetItem: its token names tenant and id)'],
  getKioskPage: [1, 'the kiosk (one GetItem; the settings and brand are cached)'],
  postKioskPage: [
    5,
    "the kiosk (one GetItem), the device's rate counter and its day's (two conditional UpdateItems), one batched read of the store, employee and customer, one conditional write of the rated transaction with its counters",
  ],
  createAdminKiosk: [3, 'the store (one GetItem; the settings are cached), one conditional PutItem of the kiosk, the audit entry'],
  listAdminKiosks: [1, "one Query of the tenant's kiosk partition"],
  revokeAdminKiosk: [2, 'one conditional UpdateItem, the audit entry'],
};

export async function costPerOperation(f: Fixture): Promise<string> {
  // API Gateway caches the authorizer's answer per key (300 s by default): warm it, so each figure is the handler's.
  const clients = { public: inProcess('public', 300), chatbot: inProcess('chatbot', 300) };
  await clients.public({ path: '/public/store/1', key: f.key });
  await clients.chatbot({ path: '/survey', key: f.chatbotKey, query: { transactionId: 1, attemptId: 1, journey: 'loja', source: 'sms' } });
  const metered = meter(db().client);
  const rows: string[] = [];
  // Deactivations last: the operations after them use the same store and employee. Each request runs twice and
  // the second is measured, as a warm Lambda would (cached settings and ids).
  for (const route of [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))) {
    const request = {
      ...validRequests[route.operationId]!(f),
      method: route.method,
      ...(route.anonymous ? {} : { key: keyFor(route, f) }),
    };
    if (route.method === 'GET') await clients[route.api](request);
    metered.reset();
    const res = await metered.run(() => clients[route.api](request));
    const { roundTrips, read, write } = metered.totals();
    const [ownFloor, ownWhy] = FLOORS[route.operationId] ?? [NaN, '?'];
    // Authorizer results are cached by API Gateway: the authorizer's own lookup is not counted per request, but the
    // handler's strongly consistent read of a copy of the configuration version (1 read unit: a revocation holds at
    // once, shared/http/handler.ts; the key itself only when the version moved) is, and it is in every keyed route's
    // floor: no route may take a key it has not checked since the key could have been revoked.
    const checked = route.anonymous ? 0 : 1;
    const floor = ownFloor + checked;
    const why = checked ? `the key's check (a copy of the configuration version), then ${ownWhy}` : ownWhy;
    const price =
      PRICES.httpApiRequest +
      PRICES.lambdaRequest +
      read * PRICES.readUnit +
      write * PRICES.writeUnit +
      (route.queues.length ? PRICES.sqsRequest : 0);
    rows.push(
      `| ${route.operationId} | ${res.status} | ${roundTrips} | ${floor} | ${floor ? (roundTrips / floor).toFixed(2) : roundTrips === 0 ? '1.00' : '∞'} | ${read} | ${write} | $${price.toFixed(2)} | ${why} |`,
    );
  }
  metered.stop();
  return [
    '### Cost per operation (DynamoDB Local, ReturnConsumedCapacity; authorizer cached, as API Gateway does)',
    '',
    `Prices: DynamoDB on-demand $${PRICES.readUnit}/M read units, $${PRICES.writeUnit}/M write units; HTTP API $${PRICES.httpApiRequest}/M; Lambda $${PRICES.lambdaRequest}/M requests (duration not included); SQS $${PRICES.sqsRequest}/M.`,
    '',
    '| operation | status | round trips | floor | ratio | read units | write units | $ per million | floor argument |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}
