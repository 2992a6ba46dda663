import { beforeAll, describe, expect, inject, it } from 'vitest';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { casePagePath } from '../../shared/cases/alert.js';
import { digestDays } from '../../shared/digest/figures.js';
import { overHttp } from '../support/api.js';
import { emailsTo, until, type Mail } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { answered, changeConfig, createStores } from '../support/regional-digest.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * A user whose scope names a region (docs/regions.md) hears of their region's stores as a store manager does of theirs
 * (issue 58): a new case at a store of a child region alerts them by e-mail (and goes to them, its only person), and
 * their digest ranks the region's stores, never the others. Over HTTP through the local stack.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const sesUrl = inject('sesUrl');
let tenant: TestTenant;
let regional: string;
const STORES = { dois: 'Loja Dois Regional', tres: 'Loja Três Regional' };

const mailsTo = (address: string) => emailsTo<Mail & { subject: string }>(sesUrl, address);

beforeAll(async () => {
  tenant = await newTenant();
  const ids = await createStores(api, tenant, [STORES.dois, STORES.tres]);
  // The user's region (1) holds no store of its own: its stores are its child region's.
  await changeConfig(api, tenant, (config) => ({
    ...config,
    regions: [
      { id: 1, name: 'Sul', stores: [] },
      { id: 2, name: 'RS', stores: ids, parent: 1 },
    ],
  }));
  regional = `regional-${tenant.tenantId}@example.com`;
  await tenantService.createUser(tenant.tenantId, { name: regional, scope: { stores: [], groups: [], regions: [1] } });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@test.local' } });
}, 60_000);

describe('a user scoped to a region', () => {
  it("gets the case alert e-mail of a store of their region, and the case is theirs (the store's only person)", async () => {
    const id = await registerSale(api, tenant.key, { store_id: 2, phone: '11987654321' });
    const body = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment: 'Demorou muito', classes: [] };
    expect((await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body })).status).toBe(201);
    const read = () => api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
    const found = await until(async () => ((await read()).status === 200 ? read() : undefined), `the case of transaction ${id}`);
    const [alert] = await until(async () => {
      const mails = (await mailsTo(regional)).filter((m) => m.body.text.includes(casePagePath(id)));
      return mails.length ? mails : undefined;
    }, 'the case alert to the regional manager');
    expect(alert!.body.text).toContain(STORES.dois);
    expect(found.body.owner).toBe(regional);
  }, 60_000);

  it("gets a digest of their region's stores, and of no other", async () => {
    const days = digestDays('week', new Date(), 'America/Sao_Paulo');
    await answered(tenant.tenantId, days.from, 1, [3, 3, 3, 3, 3, 3]);
    await answered(tenant.tenantId, days.from, 2, [10, 9, 9, 10, 10, 9]);
    await answered(tenant.tenantId, days.to, 3, [6, 9, 9, 10, 10, 8]);
    const posted = await api({ method: 'POST', path: '/public/admin/digests', key: tenant.adminKey, body: { period: 'week' } });
    expect(posted.status, posted.text).toBe(202);
    const [digest] = await until(async () => {
      const mails = (await mailsTo(regional)).filter((m) => !m.body.text.includes('/app/cases/'));
      return mails.length ? mails : undefined;
    }, 'the digest to the regional manager');
    expect(digest!.body.text).toContain(STORES.dois);
    expect(digest!.body.text).toContain(STORES.tres);
    expect(digest!.body.text).not.toContain('Loja Paulista');
  }, 60_000);
});
