import { signQrCode } from '../../shared/in-store/qr-token.js';
import { digestUnsubscribeToken } from '../../shared/digest/unsubscribe.js';
import { caseOpener } from '../../shared/adapters/wiring/cases.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { chatPorts } from '../../shared/adapters/wiring/chat.js';
import { privacyService } from '../../shared/adapters/wiring/privacy.js';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { routes } from '../../infra/routes.js';
import { batchGet, db } from '../../shared/adapters/dynamodb.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { signSurveyLink } from '../../shared/surveys/link.js';
import { requestKeyFor } from '../../shared/transactions/request-key.js';
import { requestIdFor } from '../support/transactions.js';
import { inProcess } from '../support/api.js';
import { FIXTURE_ENDPOINT, FIXTURE_WEBHOOK, keyFor, validRequests, type Fixture } from '../../infra/examples.js';
import { deliveryId, tenantEvent } from '../../shared/events/events.js';
import { newTenant } from '../support/tenant.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { readFileSync } from 'node:fs';
import { storeLogo } from '../../shared/brand/logo.js';
import { logoStore } from '../../shared/adapters/logo-store.js';

export { keyFor, validRequests, type Fixture };

/** How many cases each property-based check generates: small in `npm test`, full with RELIABILITY_FULL=1. */
export const FULL = process.env.RELIABILITY_FULL === '1';
export const CASES_PER_ROUTE = FULL ? 2000 : 15;

const publicApi = inProcess('public');
const chatbot = inProcess('chatbot');

/**
 * A case of its own on the fixture's store, employee and customer: a transaction, a detractor's answer, and the case
 * opened as the case queue's consumer opens it. Its id is the transaction's.
 */
export async function openCase(
  f: Pick<Fixture, 'key' | 'chatbotKey' | 'tenantId' | 'storeId' | 'employeeId' | 'customerId'>,
  externalId: string,
): Promise<number> {
  const transaction = await publicApi({
    method: 'POST',
    path: '/public/transaction',
    key: f.key,
    body: { store_id: f.storeId, employee_id: f.employeeId, customer_id: f.customerId, journey: 'loja', transaction_id: externalId },
  });
  const id = transaction.body.id as number;
  await chatbot({
    method: 'POST',
    path: '/survey',
    key: f.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', classes: [], score: 2, comment: `${externalId} ruim` },
  });
  await caseOpener.openFromAnswer(f.tenantId, { transactionId: id, version: 1 });
  return id;
}

export async function fixture(): Promise<Fixture> {
  const tenant = await newTenant();
  const marker = `MARK${randomUUID().slice(0, 8)}`;
  const key = tenant.key;
  const store = await publicApi({ method: 'POST', path: '/store', key, body: { trade_name: `${marker} store`, store_id: `${marker}-S` } });
  const customer = await publicApi({
    method: 'POST',
    path: '/customer',
    key,
    body: { name: `${marker} customer`, client_id: `${marker}-C`, phone: '11955554444', cpf: '52998224725' },
  });
  const employee = await publicApi({
    method: 'POST',
    path: '/employee',
    key,
    body: { name: `${marker} employee`, employee_id: `${marker}-E`, store_id: `${marker}-S` },
  });
  const tx = (externalId: string) =>
    publicApi({
      method: 'POST',
      path: '/public/transaction',
      key,
      body: {
        store_id: store.body.id,
        employee_id: employee.body.id,
        customer_id: customer.body.id,
        journey: 'loja',
        transaction_id: externalId,
      },
    });
  const transaction = await tx(`${marker}-T`);
  const answered = await tx(`${marker}-A`);
  const surveyed = await tx(`${marker}-P`);
  await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: answered.body.id, attemptId: 1, journey: 'loja', classes: [], score: 9, comment: marker },
  });
  // A detractor's answer and its case, opened here as the case queue's consumer opens it.
  const caseId = await openCase(
    { ...tenant, storeId: store.body.id, employeeId: employee.body.id, customerId: customer.body.id },
    `${marker}-D`,
  );
  // A done export of the customer's data: submitted as a tenant would, worked on here rather than by a poller.
  const exportRequest = await publicApi({
    method: 'POST',
    path: '/public/privacy/requests',
    key,
    headers: { 'x-service-user-token': tenant.userToken },
    body: { type: 'export', client_id: `${marker}-C` },
  });
  await privacyService.process(tenant.tenantId, exportRequest.body.id as string);
  // A logo stored as the admin command stores a tenant file's.
  // A delivery that failed, recorded as the event consumer records one (its endpoint refused the connection).
  const failed = {
    tenantId: tenant.tenantId,
    url: FIXTURE_ENDPOINT,
    attempt: 1,
    event: tenantEvent(tenant.tenantId, {
      type: 'survey.answered',
      subject: marker,
      data: { transaction_id: answered.body.id },
      at: new Date(),
    }),
  };
  const failedDeliveryId = deliveryId(failed.event.id, failed.url);
  await deliveryPorts().recordFailure(
    tenant.tenantId,
    {
      id: failedDeliveryId,
      event_id: failed.event.id,
      type: failed.event.type,
      url: failed.url,
      attempt: 1,
      failed_at: new Date().toISOString(),
      error: 'unreachable',
      next_attempt_at: null,
    },
    failed,
  );
  // A chat message that failed, claimed and recorded as the chat consumer does (to an endpoint the tenant does not list).
  const chat = {
    tenantId: tenant.tenantId,
    url: `${FIXTURE_ENDPOINT}-chat`,
    attempt: 1,
    event: {
      ...tenantEvent(tenant.tenantId, {
        type: 'case.opened',
        subject: marker,
        data: { case_id: 1, store_id: 1, employee_id: 1, score: 1 },
        at: new Date(),
      }),
      type: 'case.opened' as const,
    },
  };
  const failedChatDeliveryId = deliveryId(chat.event.id, chat.url);
  await chatPorts.claim(tenant.tenantId, failedChatDeliveryId, chat);
  await chatPorts.recordFailure(
    tenant.tenantId,
    {
      id: failedChatDeliveryId,
      event_id: chat.event.id,
      type: chat.event.type,
      url: chat.url,
      attempt: 1,
      failed_at: new Date().toISOString(),
      error: 'unreachable',
      next_attempt_at: null,
    },
    chat,
  );
  // The event endpoint whose signing secret POST /public/admin/webhooks/rotate rotates: listed before the configuration
  // is read, so that replacing it (putAdminConfig) keeps it.
  const { delivery } = await readSettings(tenant.tenantId);
  await putDelivery(tenant.tenantId, { ...delivery, webhooks: [FIXTURE_WEBHOOK] });
  const logo = await storeLogo(readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url)), logoStore);
  const spareKey = (name: string) =>
    publicApi({ method: 'POST', path: '/public/admin/keys', key: tenant.adminKey, body: { scope: 'public', name: `${marker} ${name}` } });
  const [revocable, rotatable] = await Promise.all([spareKey('revocable'), spareKey('rotatable')]);
  const kiosk = (name: string) =>
    publicApi({
      method: 'POST',
      path: '/public/admin/kiosks',
      key: tenant.adminKey,
      body: { store: store.body.id, journey: 'loja', name: `${marker} ${name}` },
    });
  const [answering, revocableKiosk] = await Promise.all([kiosk('answering'), kiosk('revocable')]);
  const spareUser = `spare@${marker.toLowerCase()}.example`;
  await publicApi({ method: 'POST', path: '/public/admin/users', key: tenant.adminKey, body: { email: spareUser, scope: 'all' } });
  // Read last: issuing a key raises the configuration version, which is the configuration's ETag.
  const config = await publicApi({ path: '/public/admin/config', key: tenant.adminKey });
  return {
    spareUser,
    revocableKeyId: revocable.body.id as string,
    rotatableKeyId: rotatable.body.id as string,
    ...tenant,
    logoFile: logo.file,
    failedDeliveryId,
    failedChatDeliveryId,
    configEtag: config.headers.etag!,
    marker,
    privacyRequestId: exportRequest.body.id as string,
    storeId: store.body.id,
    storeCode: `${marker}-S`,
    customerId: customer.body.id,
    clientId: `${marker}-C`,
    employeeId: employee.body.id,
    transactionId: transaction.body.id,
    transactionExternalId: `${marker}-T`,
    answeredId: answered.body.id,
    caseId,
    // The legacy create shares its request key with v2: the outcome of that key is this transaction.
    requestId: requestIdFor(tenant.tenantId, requestKeyFor({ externalId: `${marker}-T`, journey: { slug: 'loja' } })),
    surveyToken: surveyTokenFor(tenant.tenantId, surveyed.body.id),
    kioskToken: answering.body.token as string,
    revocableKioskId: revocableKiosk.body.id as string,
    qrToken: signQrCode({ tenantId: tenant.tenantId, storeId: store.body.id, journeyId: 1, generation: 1 }, requireEnv(ENV.surveySecret)),
    digestToken: digestUnsubscribeToken(tenant.tenantId, spareUser, requireEnv(ENV.surveySecret)),
  };
}

/** The link of a transaction's survey attempt 1 (journey loja, whose first channel is whatsapp), valid for a week. */
export const surveyTokenFor = (tenantId: number, transactionId: number, attemptId = 1) =>
  signSurveyLink(
    { tenantId, transactionId, attemptId, channel: 'whatsapp', expiresAt: Math.floor(Date.now() / 1000) + 7 * 86_400 },
    requireEnv(ENV.surveySecret),
  );

export const routeOf = (operationId: string) => routes.find((r) => r.operationId === operationId)!;

/** Every item of a tenant, its API keys included, as stored (a Scan: for tests only, never on a request path). */
export async function snapshot(tenantId: number): Promise<string> {
  return stringified(await tenantItems(tenantId));
}

/**
 * A tenant's items, and `readAgain`, which reads those same items again with one BatchGetItem a hundred (consistent):
 * a change to or a removal of any of them shows, at what a check costs DynamoDB whatever the tenant or the table
 * holds. An item added beside them does not: a Scan of the tenant (`snapshot`) once after the checks sees that.
 */
export async function itemsOf(tenantId: number): Promise<{ snapshot: string; readAgain: () => Promise<string> }> {
  const items = await tenantItems(tenantId);
  const itemKeys = items.map(({ pk, sk }) => ({ pk, sk }));
  const readAgain = async () => stringified(await batchGet(db(), itemKeys, { consistent: true }));
  return { snapshot: stringified(items), readAgain };
}

async function tenantItems(tenantId: number): Promise<Record<string, unknown>[]> {
  const { client, tableName } = db();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new ScanCommand({
        TableName: tableName,
        // The tenant's API keys are stored under their hash, outside the tenant's partitions: gsi1 names their tenant.
        FilterExpression: 'begins_with(pk, :p) OR begins_with(gsi1pk, :p)',
        ExpressionAttributeValues: { ':p': `T#${tenantId}#` },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

function stringified(items: Record<string, unknown>[]): string {
  // A key's last use is the authorizer's mark that the key was presented (every 300 s at most), refused request or not:
  // not a change the operation made.
  const changes = items.map(({ last_used_at: _lastUse, ...item }) => item);
  return JSON.stringify(changes.sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`)));
}
