import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cognitoIdentityProvider } from '../../shared/adapters/cognito.js';
import { ENV } from '../../shared/config.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { errorPaths, overHttp } from '../support/api.js';
import { emailsTo, until, type Mail } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf } from '../support/workspace.js';

/**
 * A case has one owner (issue 46 §4), over HTTP through the local stack: who a new case goes to, the PATCH's `owner`
 * (a person who signs in and sees the store, or null), the list's `owner` filter (an e-mail, `me` with a user token or
 * a session, `none`), the alert naming the owner, and two managers taking one case at once.
 *
 * Store 1 is seen by two people (Ana, who signs in, and Bruno) and by the API users `full` and `limited`; store 2 by
 * one person (Solo): store 1's cases open unassigned, store 2's go to Solo.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
const sesUrl = inject('sesUrl');
const PASSWORD = 'Case-owner-pass-1!';
let tenant: TestTenant;
let store2: number;
let ana: string;
let anaToken: string;
let anaCookie: string;
let bruno: string;
let brunoToken: string;
let solo: string;

type CaseOf = {
  id: number;
  owner: string | null;
  version: number;
  history: { action: string; by: string; from?: string | null; to?: string | null }[];
};

/** A detractor's answer at `store`, and its case, waited for. */
async function detractor(store = 1, comment = 'Demorou muito'): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: store, phone: '11987654321' });
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment, classes: [] },
  });
  expect(answer.status, answer.text).toBe(201);
  await until(async () => ((await readCase(id)).status === 200 ? true : undefined), `the case of transaction ${id}`);
  return id;
}

const readCase = (id: number, token = tenant.userToken) =>
  api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': token } });
const caseOf = async (id: number) => (await readCase(id)).body as CaseOf;
const patch = (id: number, body: unknown, etag: string, token = tenant.userToken) =>
  api({
    method: 'PATCH',
    path: `/public/cases/${id}`,
    key: tenant.key,
    body,
    headers: { 'x-service-user-token': token, 'if-match': etag },
  });
const etagOf = async (id: number) => `"${(await caseOf(id)).version}"`;
const listed = async (query: Record<string, string>, token: string | null = tenant.userToken) => {
  const res = await api({ path: '/public/cases', key: tenant.key, query, headers: token ? { 'x-service-user-token': token } : {} });
  return { res, ids: ((res.body.data ?? []) as { id: number }[]).map((c) => c.id) };
};
const mailsTo = (address: string) => emailsTo<Mail>(sesUrl, address);

const page = async (path: string, form?: Record<string, string>) => {
  const response = await fetch(`${publicUrl}${path}`, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { cookie: anaCookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl } : {}) },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
};

beforeAll(async () => {
  tenant = await newTenant();
  const created = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } });
  expect(created.status, created.text).toBe(201);
  store2 = created.body.id;
  ana = `ana-${tenant.tenantId}@test.local`;
  bruno = `bruno-${tenant.tenantId}@test.local`;
  solo = `solo-${tenant.tenantId}@test.local`;
  anaToken = (await inviteManagerOf(tenant.tenantId, ana, { stores: [1], groups: [1] }, { password: PASSWORD })).token;
  brunoToken = (await tenantService.createUser(tenant.tenantId, { name: bruno, scope: { stores: [1], groups: [] } })).token;
  await tenantService.createUser(tenant.tenantId, { name: solo, scope: { stores: [store2], groups: [] } });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@test.local' } });
  const signedIn = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(ana, PASSWORD);
  if (signedIn.kind !== 'signed-in') throw new Error(`not signed in: ${signedIn.kind}`);
  anaCookie = `sid=${signedIn.tokens.idToken}`;
}, 60_000);

describe('a new case', () => {
  it("opens unassigned when two people see its store, and goes to the store's only person otherwise; never to an API user", async () => {
    const [shared, alone] = await Promise.all([detractor(1), detractor(store2)]);
    expect((await caseOf(shared)).owner).toBeNull();
    expect((await caseOf(alone)).owner).toBe(solo);
  });
});

describe('PATCH /public/cases/{id} with owner', () => {
  it('refuses anything but a person who signs in and sees the store, with 422 naming owner, and changes nothing', async () => {
    const id = await detractor();
    const before = await caseOf(id);
    for (const owner of ['full', 'limited', solo, `nobody-${tenant.tenantId}@test.local`, 'not-an-address', 5, true, ['x@y.z'], '']) {
      const res = await patch(id, { owner }, `"${before.version}"`);
      expect(res.status, `${JSON.stringify(owner)}: ${res.text}`).toBe(422);
      expect(errorPaths(res)).toEqual(['owner']);
    }
    expect(await caseOf(id)).toMatchObject({ owner: null, version: before.version });
  });

  it('assigns the case to a person of its store and unassigns it with null, each change in its history', async () => {
    const id = await detractor();
    const taken = await patch(id, { owner: bruno.toUpperCase() }, await etagOf(id));
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.owner).toBe(bruno);
    const left = await patch(id, { owner: null }, taken.headers.etag!);
    expect(left.status, left.text).toBe(200);
    const stored = await caseOf(id);
    expect(stored.owner).toBeNull();
    expect(stored.history.filter((h) => h.action === 'owner')).toEqual([
      expect.objectContaining({ by: 'full', from: null, to: bruno }),
      expect.objectContaining({ by: 'full', from: bruno, to: null }),
    ]);
  });

  it('lets one of two managers taking the same case at once win; the other gets 412 and the case stays the winner’s', async () => {
    const id = await detractor();
    const etag = await etagOf(id);
    const [byAna, byBruno] = await Promise.all([patch(id, { owner: ana }, etag, anaToken), patch(id, { owner: bruno }, etag, brunoToken)]);
    expect([byAna.status, byBruno.status].sort()).toEqual([200, 412]);
    const winner = byAna.status === 200 ? ana : bruno;
    const stored = await caseOf(id);
    expect(stored.owner).toBe(winner);
    expect(stored.history.filter((h) => h.action === 'owner')).toEqual([expect.objectContaining({ by: winner, to: winner })]);
  });
});

describe('GET /public/cases with owner', () => {
  let brunos: number;
  let nobodys: number;
  beforeAll(async () => {
    [brunos, nobodys] = await Promise.all([detractor(), detractor()]);
    expect((await patch(brunos, { owner: bruno }, await etagOf(brunos))).status).toBe(200);
  }, 30_000);

  it("lists a person's cases by their e-mail, the caller's with me, and the unassigned with none", async () => {
    const byAddress = await listed({ owner: bruno });
    expect(byAddress.res.status, byAddress.res.text).toBe(200);
    expect(byAddress.ids).toContain(brunos);
    expect(byAddress.ids).not.toContain(nobodys);
    expect(byAddress.res.body.data.every((c: CaseOf) => c.owner === bruno)).toBe(true);

    const mine = await listed({ owner: 'me' }, brunoToken);
    expect(mine.ids.sort()).toEqual(byAddress.ids.sort());

    const none = await listed({ owner: 'none' });
    expect(none.ids).toContain(nobodys);
    expect(none.ids).not.toContain(brunos);
    expect(none.res.body.data.every((c: CaseOf) => c.owner === null)).toBe(true);
    // Store 2's only case went to Solo: store 2's unassigned list is empty, and a store-1 user reads none of its cases.
    expect((await listed({ owner: 'none', store: String(store2) })).ids).toEqual([]);
    expect((await listed({ owner: solo }, tenant.limitedToken)).ids).toEqual([]);
    expect((await listed({ owner: solo })).ids).toHaveLength(1);
  });

  it('answers an API user nothing of its own, refuses an owner that is neither me, none nor an address, and me without a user (400)', async () => {
    expect((await listed({ owner: 'me' })).ids).toEqual([]);
    const wrong = await listed({ owner: 'someone' });
    expect(wrong.res.status).toBe(422);
    expect(errorPaths(wrong.res)).toEqual(['owner']);
    // With the key alone, `me` is nobody: 400 naming owner; a wrong token stays 401, and so does no token without me.
    const keyOnly = (await listed({ owner: 'me' }, null)).res;
    expect([keyOnly.status, keyOnly.body.type, errorPaths(keyOnly)]).toEqual([400, '/problems/needs-user', ['owner']]);
    expect(keyOnly.body.detail).toContain("owner=me needs a user's token");
    expect((await listed({ owner: 'me' }, 'sut_not-a-token-of-this-tenant')).res.status).toBe(401);
    expect((await listed({ owner: 'none' }, null)).res.status).toBe(401);
  });

  it("lists a signed-in manager's own cases (me with a session) and the unassigned ones on the workspace's pages", async () => {
    const taken = await page(`/app/cases/${nobodys}`, { form: 'owner', owner: ana, version: String((await caseOf(nobodys)).version) });
    expect([taken.status, taken.location]).toEqual([303, `/app/cases/${nobodys}?saved=owner`]);
    expect((await caseOf(nobodys)).owner).toBe(ana);
    const mine = await page('/app/cases?view=mine');
    expect(mine.status).toBe(200);
    expect(mine.html).toContain(`href="/app/cases/${nobodys}"`);
    expect(mine.html).not.toContain(`href="/app/cases/${brunos}"`);
    const unassigned = await page('/app/cases?view=none');
    expect(unassigned.html).not.toContain(`href="/app/cases/${nobodys}"`);
    expect(unassigned.html).not.toContain(`href="/app/cases/${brunos}"`);
    expect(unassigned.html).toContain('Sem responsável');
    expect((await listed({ owner: 'me' }, anaToken)).ids).toContain(nobodys);
  });
});

describe('the alert', () => {
  it('names the owner when the case has one, and goes to every person of the store', async () => {
    const [alone, shared] = await Promise.all([detractor(store2, 'Loja dois fria'), detractor(1, 'Loja um fria')]);
    const soloAlert = await until(
      async () => (await mailsTo(solo)).find((m) => m.body.text.includes(`/app/cases/${alone}`)),
      `the alert of case ${alone}`,
    );
    expect(soloAlert.body.text).toContain(`Responsável: ${solo}`);
    for (const person of [ana, bruno]) {
      const alert = await until(
        async () => (await mailsTo(person)).find((m) => m.body.text.includes(`/app/cases/${shared}`)),
        `the alert of case ${shared} to ${person}`,
      );
      expect(alert.body.text).not.toContain('Responsável:');
    }
  });
});
