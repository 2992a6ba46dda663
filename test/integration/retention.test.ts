import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../infra/local/invoke.js';
import { handler as scheduledSweep } from '../../functions/schedule/expire-personal-copies.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { EXPIRY_SHARDS } from '../../shared/adapters/personal-copies.js';
import { personalExpiry } from '../../shared/adapters/personal-expiry.js';
import { caseOpener } from '../../shared/adapters/wiring/cases.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { keys } from '../../shared/keys.js';
import { STOP_MARGIN_MS, sweepExpired, type ExpiryStore } from '../../shared/privacy/retention.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess('public');
const chatbot = inProcess('chatbot');
const dispatch = usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
const DAY = 86_400_000;
let tenant: TestTenant;
let kept: TestTenant;

const stored = async (who: TestTenant, id: number) =>
  (await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(who.tenantId, id), ConsistentRead: true })))
    .Item!;
const transaction = async (id: number) => (await api({ path: `/public/transaction/${id}`, key: tenant.key })).body;

/** Time passes for one transaction: its copies' expiry is moved to a second ago. */
async function expireNow(id: number): Promise<void> {
  await db().client.send(
    new UpdateCommand({
      TableName: db().tableName,
      Key: keys.transaction(tenant.tenantId, id),
      UpdateExpression: 'SET personal_expires_at = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}

/** The table's sweep with a checkpoint of its own: the table's checkpoint belongs to the stack's scheduled sweep. */
function sweeper(): ExpiryStore {
  let checkpoint: string | undefined;
  return { ...personalExpiry, checkpoint: async () => checkpoint, saveCheckpoint: async (day) => void (checkpoint = day) };
}
const sweep = (at: Date, store = sweeper()) => sweepExpired(store, at, () => 60_000);

let sale: number;
let answered: number;
let keptSale: number;

beforeAll(async () => {
  [tenant, kept] = await Promise.all([newTenant(), newTenant()]);
  await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, privacy: { retentionDays: 30 } });
  const customer = { name: 'Rita Prazo', email: 'rita.prazo@example.com' };
  [sale, answered] = await Promise.all([registerSale(api, tenant.key, customer), registerSale(api, tenant.key, customer)]);
  keptSale = await registerSale(api, kept.key, customer);
  await dispatch.drain();
  const res = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: {
      transactionId: answered,
      attemptId: 1,
      journey: 'loja',
      score: 4,
      classes: [],
      comment: 'Demorou',
      name: 'Rita',
      phone: '11987650001',
    },
  });
  expect(res.status, res.text).toBe(201);
  // The detractor's answer opened a case, on which a manager noted whom they called.
  await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: answered, version: 1 });
  const noted = await api({
    method: 'PATCH',
    path: `/public/cases/${answered}`,
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken, 'if-match': '"1"' },
    body: { note: 'Liguei para Rita Prazo no 11987650001' },
  });
  expect(noted.status, noted.text).toBe(200);
});

// Sweeps over the local stack: seconds each alone, over 30 under CI's load beside the other tiers.
describe('retention: a tenant keeps personal copies for its days', { timeout: 90_000 }, () => {
  it("dates each transaction's copies from its registration, and from its answer once answered", async () => {
    const item = await stored(tenant, sale);
    expect(item).toMatchObject({ retention_days: 30, customer_name: 'Rita Prazo', survey_contact: 'rita.prazo@example.com' });
    expect(Date.parse(item.personal_expires_at) - Date.parse(item.created_at)).toBe(30 * DAY);
    expect(item.gsi9pk).toBe(`EXPIRES#${item.personal_expires_at.slice(0, 10)}#${sale % EXPIRY_SHARDS}`);

    const rated = await stored(tenant, answered);
    expect(Date.parse(rated.personal_expires_at) - Date.parse(rated.answered_at)).toBe(30 * DAY);
    expect(rated.rating).toEqual({ score: 4, comment: 'Demorou' });
  });

  it('leaves a tenant without retention as it was: no expiry, no index entry', async () => {
    const item = await stored(kept, keptSale);
    expect(item.customer_name).toBe('Rita Prazo');
    for (const attribute of ['retention_days', 'personal_expires_at', 'gsi9pk']) expect(item).not.toHaveProperty(attribute);
  });

  it('sweeps nothing before the copies expire', async () => {
    const outcome = await sweep(new Date(Date.now() + 29 * DAY));
    expect(outcome).toMatchObject({ finished: true });
    expect((await stored(tenant, sale)).customer_name).toBe('Rita Prazo');
    expect((await transaction(answered)).rating).toEqual({ score: 4, comment: 'Demorou' });
  });

  it('hides expired copies from every read at once, before the sweep comes by', async () => {
    await expireNow(answered);
    expect((await transaction(answered)).rating).toEqual({ score: 4, comment: null });
    expect((await stored(tenant, answered)).rating.comment).toBe('Demorou');
  });

  it('sends no survey attempt once the copies expired', async () => {
    const late = await registerSale(api, tenant.key, { name: 'Rita Prazo' });
    const [message] = (await dispatch.drain()) as unknown as DispatchMessage[];
    await expireNow(late);
    expect(await deliverSurvey({ message: message!, ports: deliveryPorts, config: linkConfig() })).toBe('missing');
    // The transaction says why: not sent, for want of a contact; its waiting attempts will not go out.
    const shown = await transaction(late);
    expect(shown.survey).toMatchObject({ status: 'not_sent', reason: 'no_contact' });
    expect(shown.attempts.map((a: { status: string }) => a.status)).not.toContain('scheduled');
  });

  it('removes the name, contacts, comment and respondent once expired, keeping score, attempts and counts', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const results = () =>
      api({
        path: '/public/results',
        key: tenant.key,
        headers: { 'x-service-user-token': tenant.userToken },
        query: { journey: 'loja', from: today, to: today },
      });
    const before = (await results()).body;
    // A provider's refusal stored as it was before its words were dropped: they named the address.
    await db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: keys.transaction(tenant.tenantId, sale),
        UpdateExpression: 'SET survey.detail = :detail',
        ExpressionAttributeValues: { ':detail': 'MessageRejected: rita.prazo@example.com is not verified' },
      }),
    );

    const outcome = await sweep(new Date(Date.now() + 31 * DAY));
    // The two sales, and the one whose attempt was not sent above.
    expect(outcome).toMatchObject({ stripped: 3, finished: true });
    for (const id of [sale, answered]) {
      const item = await stored(tenant, id);
      expect(item).toMatchObject({ customer_name: null, survey_contact: null, retention_days: 30 });
      expect(item.personal_expired_at).toEqual(expect.any(String));
      for (const attribute of ['survey_contacts', 'personal_expires_at', 'gsi9pk', 'gsi9sk']) expect(item).not.toHaveProperty(attribute);
      expect(JSON.stringify(item)).not.toMatch(/Rita|rita\.prazo|Demorou|11987650001/);
      expect(item.attempts.length).toBeGreaterThan(0);
      expect(item.survey).not.toHaveProperty('detail');
    }
    expect((await stored(tenant, answered)).rating).toEqual({ score: 4, comment: null });
    // The case its answer opened keeps its score, not the customer's name, comment or the manager's note about them.
    const kept = (await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.case(tenant.tenantId, answered) }))).Item!;
    expect(kept).toMatchObject({ score: 4, customerName: null, comment: null, notes: [], erased: true });
    expect(JSON.stringify(kept)).not.toMatch(/Rita|Demorou|11987650001/);
    expect((await results()).body).toEqual(before);
    // The customer's own record is not a copy: it stays until the customer is erased.
    const customerId = (await transaction(sale)).customer_id as number;
    expect((await api({ path: `/public/customer/${customerId}`, key: tenant.key })).body.name).toBe('Rita Prazo');
  });

  it("takes stripped transactions out of the day's index: a second sweep finds nothing", async () => {
    expect(await sweep(new Date(Date.now() + 31 * DAY))).toMatchObject({ stripped: 0, finished: true });
    // The kept tenant's transaction was never in it.
    expect(await sweep(new Date(Date.now() + 400 * DAY))).toMatchObject({ stripped: 0 });
  });

  it('keeps copies an answer renewed after the index was read', async () => {
    const fresh = await registerSale(api, tenant.key, { name: 'Rita Prazo' });
    const item = await stored(tenant, fresh);
    // The sweep read the entry when it had expired, but the copies now expire later: nothing is removed.
    expect(await personalExpiry.strip([{ pk: item.pk, sk: item.sk }], new Date(Date.now() + 29 * DAY).toISOString())).toBe(0);
    expect((await stored(tenant, fresh)).customer_name).toBe('Rita Prazo');
  });

  it('stops when its time runs short and goes on from its checkpoint on the next run', async () => {
    const store = sweeper();
    const at = new Date(Date.now() + 31 * DAY);
    const stopped = await sweepExpired(store, at, () => STOP_MARGIN_MS - 1);
    expect(stopped).toMatchObject({ finished: false, stripped: 0 });
    const finished = await sweepExpired(store, at, () => 60_000);
    expect(finished.finished).toBe(true);
    expect(await store.checkpoint()).toBe(new Date(at.getTime() - DAY).toISOString().slice(0, 10));
    // The next run reads only today again.
    expect((await sweepExpired(store, at, () => 60_000)).days).toBe(1);
  });

  it('runs as the scheduled function with the Lambda context', async () => {
    const outcome = await invoke('personalCopiesExpiry', scheduledSweep, {});
    expect(outcome).toMatchObject({ finished: true });
  });
});
