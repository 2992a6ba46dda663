import { beforeAll, describe, expect, it } from 'vitest';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { overHttp } from '../support/api.js';
import { openedCase, regionalTenant, REGIONAL_STORES as STORES, SUL } from '../support/regional-digest.js';
import type { TestTenant } from '../support/tenant.js';

/**
 * The digest a regional manager acts on (issue 60 §3), over HTTP through the local stack: answers today at three stores
 * of two regions; GET /public/digest?from=<today>&to=<today> with the manager's token names their region's stores by
 * name and no other, opens with what to do first (a store and a case), and gives each case its store, age, owner and
 * short number; a day without answers says so and lists the last weeks that had some; a period of more than 31 days,
 * or backwards, is a 422 naming the field.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
let tenant: TestTenant;
let ids: number[];
let today: string;
let regional: string;
const token = `sut_regional_${Date.now()}`;

const digest = (query: string) => api({ path: `/public/digest?${query}`, key: tenant.key, headers: { 'x-service-user-token': token } });

beforeAll(async () => {
  ({ tenant, ids, today } = await regionalTenant(api));
  regional = `regional-${tenant.tenantId}@example.com`;
  await tenantService.createUser(tenant.tenantId, { name: regional, scope: SUL, token });
}, 60_000);

describe("a regional manager's digest of any period", () => {
  it("names the region's stores, what to do first and each case's store, age, owner and number, for today", async () => {
    // A detractor at the first store opens a case; past its deadline, it is overdue.
    const late = await openedCase(api, chatbot, tenant, ids[0]!, { overdue: true });
    const id = late.id;
    expect(late.number).toBe(1);

    const answer = await digest(`from=${today}&to=${today}`);

    expect(answer.status, answer.text).toBe(200);
    // One day asked for by its days is a day (titled as the daily digest is).
    expect(answer.body).toMatchObject({ period: 'day', from: today, to: today, answered: true });
    const loja = answer.body.journeys.find((j: { journey: { slug: string } }) => j.journey.slug === 'loja');
    const names = loja.stores.map((s: { name: string }) => s.name);
    expect(names.sort()).toEqual([STORES[0], STORES[1]]);
    expect(JSON.stringify(answer.body)).not.toContain(STORES[2]);
    // The region first, by name.
    expect(loja.regions.map((r: { name: string }) => r.name)).toEqual(['Sul']);
    // What to do first: a store and its case (no complaint rose: no comment was analysed).
    expect(answer.body.first).toMatchObject({ kind: 'case', case: { id, store: STORES[0] } });
    const [late1] = answer.body.cases.overdue;
    expect(late1).toMatchObject({ id, number: 1, store: STORES[0], age_days: 0, owner: regional });
    for (const c of [...answer.body.cases.overdue, ...answer.body.cases.open]) {
      expect(STORES).toContain(c.store);
      expect(c.age_days).toBeGreaterThanOrEqual(0);
      expect(c).toHaveProperty('owner');
    }
  }, 90_000);

  it('says a day without answers had none, and lists the last weeks that had some', async () => {
    const quiet = addDays(today, -7);
    const answer = await digest(`from=${quiet}&to=${quiet}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.answered).toBe(false);
    expect(answer.body.period).toBe('day');
    // Days that are neither one day nor a Monday-to-Sunday week are a range.
    const twoDays = await digest(`from=${addDays(quiet, -1)}&to=${quiet}`);
    expect(twoDays.body).toMatchObject({ period: 'range', from: addDays(quiet, -1), to: quiet });
    expect(answer.body.last_weeks.length).toBeGreaterThan(0);
    expect(answer.body.last_weeks[0].answers).toBe(2);
    expect(answer.body.last_weeks[0].from <= addDays(today, -14) && addDays(today, -14) <= answer.body.last_weeks[0].to).toBe(true);
  }, 60_000);

  it('refuses more than 31 days, a period backwards, or one end alone, naming the field', async () => {
    const long = await digest(`from=${addDays(today, -31)}&to=${today}`);
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain('"to"');
    const backwards = await digest(`from=${today}&to=${addDays(today, -1)}`);
    expect(backwards.status).toBe(422);
    const alone = await digest(`from=${today}`);
    expect(alone.status).toBe(422);
    expect(JSON.stringify(alone.body)).toContain('"to"');
  }, 60_000);
});
