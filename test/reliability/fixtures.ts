import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { routes } from '../../infra/routes.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { requestKeyFor } from '../../shared/transactions/request-key.js';
import { inProcess, type ApiRequest } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** How many cases each property-based check generates: small in `npm test`, full with RELIABILITY_FULL=1. */
export const FULL = process.env.RELIABILITY_FULL === '1';
export const CASES_PER_ROUTE = FULL ? 2000 : 40;

const publicApi = inProcess('public');
const chatbot = inProcess('chatbot');

/** A tenant holding one of everything, with unique markers in its data so that a leak shows in any answer. */
export interface Fixture extends TestTenant {
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
}

export async function fixture(): Promise<Fixture> {
  const tenant = await newTenant();
  const marker = `MARK${randomUUID().slice(0, 8)}`;
  const key = tenant.key;
  const store = await publicApi({ method: 'POST', path: '/store', key, body: { trade_name: `${marker} store`, store_id: `${marker}-S` } });
  const customer = await publicApi({ method: 'POST', path: '/customer', key, body: { name: `${marker} customer`, client_id: `${marker}-C`, phone: '11955554444', cpf: '52998224725' } });
  const employee = await publicApi({ method: 'POST', path: '/employee', key, body: { name: `${marker} employee`, employee_id: `${marker}-E`, store_id: `${marker}-S` } });
  const tx = (externalId: string) =>
    publicApi({ method: 'POST', path: '/public/transaction', key, body: { store_id: store.body.id, employee_id: employee.body.id, customer_id: customer.body.id, journey: 'loja', transaction_id: externalId } });
  const transaction = await tx(`${marker}-T`);
  const answered = await tx(`${marker}-A`);
  await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: { transactionId: answered.body.id, attemptId: 1, journey: 'loja', classes: [], score: 9, comment: marker } });
  return {
    ...tenant, marker, storeId: store.body.id, storeCode: `${marker}-S`, customerId: customer.body.id, clientId: `${marker}-C`, employeeId: employee.body.id,
    transactionId: transaction.body.id, transactionExternalId: `${marker}-T`, answeredId: answered.body.id,
    // The legacy create shares its request key with v2: the outcome of that key is this transaction.
    requestId: requestKeyFor({ externalId: `${marker}-T`, journey: { slug: 'loja' } }),
  };
}

/**
 * A valid request for every operation of the route table, naming the fixture's resources. Tests that must cover
 * every route use this; a route without an entry fails them, so a new route cannot be forgotten.
 */
export const validRequests: Record<string, (f: Fixture) => ApiRequest> = {
  getHealth: () => ({ path: '/health' }),
  listStores: (f) => ({ path: '/public/store', query: { store_id: f.storeCode, limit: 10 } }),
  createStore: (f) => ({ method: 'POST', path: '/public/store', body: { trade_name: `${f.marker} new`, store_id: `${f.marker}-${randomUUID().slice(0, 6)}` } }),
  getStore: (f) => ({ path: `/public/store/${f.storeId}` }),
  updateStore: (f) => ({ method: 'PUT', path: `/public/store/${f.storeId}`, body: { company_name: 'Changed' } }),
  deleteStore: (f) => ({ method: 'DELETE', path: `/public/store/${f.storeId}` }),
  listCustomers: (f) => ({ path: '/public/customer', query: { client_id: f.clientId, token: f.userToken } }),
  createCustomer: (f) => ({ method: 'POST', path: '/public/customer', body: { name: `${f.marker} new`, phone: '11933332222' } }),
  getCustomer: (f) => ({ path: `/public/customer/${f.customerId}` }),
  updateCustomer: (f) => ({ method: 'PUT', path: `/public/customer/${f.customerId}`, body: { name: 'Changed' } }),
  listEmployees: (f) => ({ path: '/public/employee', query: { store: f.storeId } }),
  createEmployee: (f) => ({ method: 'POST', path: '/public/employee', body: { name: `${f.marker} new` } }),
  getEmployee: (f) => ({ path: `/public/employee/${f.employeeId}` }),
  updateEmployee: (f) => ({ method: 'PUT', path: `/public/employee/${f.employeeId}`, body: { name: 'Changed' } }),
  deleteEmployee: (f) => ({ method: 'DELETE', path: `/public/employee/${f.employeeId}` }),
  getEmployeeStores: (f) => ({ path: `/public/employee/${f.employeeId}/stores` }),
  putEmployeeStores: (f) => ({ method: 'PUT', path: `/public/employee/${f.employeeId}/stores`, query: { token: f.userToken }, body: { stores: [1] } }),
  getEmployeeGroups: (f) => ({ path: `/public/employee/${f.employeeId}/groups` }),
  putEmployeeGroups: (f) => ({ method: 'PUT', path: `/public/employee/${f.employeeId}/groups`, query: { token: f.userToken }, body: { groups: [1] } }),
  postV2Transaction: (f) => ({ method: 'POST', path: '/v2/transactions', body: { store: { id: f.storeId }, employee: { id: f.employeeId }, customer: { id: f.customerId }, transaction: { journeySlug: 'loja' } } }),
  getTransactionRequest: (f) => ({ path: `/v2/transactions/requests/${f.requestId}` }),
  postTransaction: (f) => ({ method: 'POST', path: '/public/transaction', body: { store_id: f.storeId, employee_id: f.employeeId, customer_id: f.customerId, journey: 'loja' } }),
  getTransaction: (f) => ({ path: `/public/transaction/${f.transactionId}` }),
  listEvaluations: (f) => {
    const today = new Date().toISOString().slice(0, 10);
    return { path: '/public/rating/formbuilder', query: { token: f.userToken, start_date: today, end_date: today } };
  },
  getEvaluation: (f) => ({ path: `/public/rating/formbuilder/${f.answeredId}` }),
  getSurvey: (f) => ({ path: '/survey', query: { transactionId: f.transactionId, attemptId: 1, journey: 'loja', source: 'whatsapp' } }),
  postSurvey: (f) => ({ method: 'POST', path: '/survey', body: { transactionId: f.transactionId, attemptId: 1, journey: 'loja', classes: [], score: 7 } }),
  putSurvey: (f) => ({ method: 'PUT', path: '/survey', body: { transactionId: f.answeredId, attemptId: 1, journey: 'loja', classes: [], score: 8 } }),
};

export const routeOf = (operationId: string) => routes.find((r) => r.operationId === operationId)!;

/** Every item of a tenant, as stored (a Scan: for tests only, never on a request path). */
export async function snapshot(tenantId: number): Promise<string> {
  const { client, tableName } = db();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': `T#${tenantId}#` }, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return JSON.stringify(items.sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`)));
}
