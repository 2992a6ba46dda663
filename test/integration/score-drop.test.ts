import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { checkScoreDrops } from '../../shared/adapters/wiring/results.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { windowsOf } from '../../shared/results/score-drop.js';
import { answerTally, merge } from '../../shared/results/tally.js';
import { inProcess } from '../support/api.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The score-drop alert (issue 49 §3) at the domain's level against DynamoDB Local and the local SES: a week of answers
 * generated into the stores' day counters, the daily check run twice on the same day.
 */
const api = inProcess('public');
const sesUrl = inject('sesUrl');
/** A Monday of 2031: the days checked are the week before it and the 28 days before that. */
const TODAY = '2031-03-10';
let tenant: TestTenant;
let manager: string;
let worse: number;
let noisy: number;

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { text: string };
}
const mailsTo = async (address: string) =>
  ((await (await fetch(`${sesUrl}/store`)).json()) as { emails: Mail[] }).emails.filter((m) => m.destination.to.includes(address));

/** Each day of a period, these scores of journey 1 (loja, NPS) in the store, written to its counters a day at a time. */
async function answer(storeId: number, period: { from: string; to: string }, scores: number[]) {
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    const deltas = scores.flatMap((score) =>
      answerTally(
        { journeyId: 1, storeId, employeeId: 1 },
        { indicator: 'nps', score, items: [], answeredAt: `${day}T12:00:00Z`, sentOn: null },
      ),
    );
    await db().client.send(
      new TransactWriteCommand({ TransactItems: counterUpdates(tenant.tenantId, { journeyId: 1, deltas: merge(deltas) }, 0) }),
    );
  }
}

beforeAll(async () => {
  tenant = await newTenant();
  await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, alerts: { scoreDrop: true } });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.test' } });
  const store = async (name: string) =>
    (await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: name } })).body.id as number;
  [worse, noisy] = [await store('Loja Piorou'), await store('Loja Oscila')];
  manager = `gerente-${randomUUID().slice(0, 8)}@loja.test`;
  await tenantService.createUser(tenant.tenantId, manager, { stores: [worse, noisy], groups: [] });
  const { recent, baseline } = windowsOf(TODAY);
  // Worse: four answers a day, promoters for 28 days, then a week of detractors.
  await answer(worse, baseline, [10, 9, 9, 8]);
  await answer(worse, recent, [3, 5, 8, 9]);
  // Within noise: the same mix throughout, one promoter fewer in the last week.
  await answer(noisy, baseline, [10, 9, 7, 5]);
  await answer(noisy, recent, [10, 8, 7, 5]);
});

describe('the score-drop alert', () => {
  it('fires once for a store whose week is clearly worse, not for one within noise, not twice when run twice', async () => {
    // Act: the day's check, twice (a schedule that fires again).
    const first = await checkScoreDrops(tenant.tenantId, TODAY);
    const second = await checkScoreDrops(tenant.tenantId, TODAY);

    // Assess
    expect(first).toEqual([worse]);
    expect(second).toEqual([]);
    const mails = await mailsTo(manager);
    expect(mails.map((m) => m.subject)).toEqual(['Queda além do acaso na Loja Piorou']);
    expect(mails[0]!.body.text).toContain('Loja: de 75 para -25');
  });

  it('stays silent for a tenant that has not turned it on', async () => {
    await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, alerts: { scoreDrop: false } });
    expect(await checkScoreDrops(tenant.tenantId, addDays(TODAY, 7))).toEqual([]);
  });
});
