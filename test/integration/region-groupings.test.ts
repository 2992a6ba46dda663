import { beforeAll, describe, expect, it } from 'vitest';
import { commentAnalyser } from '../../shared/adapters/wiring/themes.js';
import { GROUPING_NAMES } from '../../shared/results/groupings.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { changeConfig, createStores } from '../support/regional-digest.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * docs/regions.md: `region` keeps only the stores of that region and of its child regions in every grouping of GET
 * /public/results, `theme` included, and an unknown region is a 422 naming `region` in every one (issue 58).
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('events');
const analysisQueue = usePrivateQueue('analysis');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;

const today = () => new Date().toISOString().slice(0, 10);
const results = (query: Record<string, string>) =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken },
    query: { journey: 'loja', from: today(), to: today(), ...query },
  });

interface Row {
  key: string;
  responses: number;
  theme?: string;
}

beforeAll(async () => {
  tenant = await newTenant();
  await createStores(api, tenant, ['Loja Dois', 'Loja Três']);
  await changeConfig(api, tenant, (config) => ({
    ...config,
    regions: [
      { id: 1, name: 'Sul', stores: [1] },
      { id: 2, name: 'RS', stores: [2, 3], parent: 1 },
    ],
  }));
  // Store 1 (Sul only) has the wait theme; region 2's stores have price and staff.
  for (const [store_id, score, comment] of [
    [1, 2, 'A fila estava enorme, esperei 40 minutos no caixa'],
    [2, 3, 'Prices are too high for what you get'],
    [3, 10, 'El personal fue muy amable'],
  ] as const) {
    const id = await registerSale(api, tenant.key, { store_id, phone: '11987654321' });
    const body = {
      transactionId: id,
      attemptId: 1,
      journey: 'loja',
      score,
      classes: [{ classId: 1, label: 'Atendimento', type: 'csat' as const, score: score > 6 ? 5 : 2 }],
      comment,
    };
    const res = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body });
    expect(res.status, res.text).toBe(201);
  }
  const messages = (await analysisQueue.drain()) as { tenantId: number; transactionId: number; version: number }[];
  for (const { tenantId, transactionId, version } of messages) await commentAnalyser.analyse(tenantId, transactionId, version);
});

describe('GET /public/results with region', () => {
  it.each(GROUPING_NAMES.filter((name) => name !== 'region'))('group_by=%s counts only the region’s stores', async (groupBy) => {
    const [all, inRegion] = await Promise.all([results({ group_by: groupBy }), results({ group_by: groupBy, region: '2' })]);
    expect(inRegion.status, inRegion.text).toBe(200);
    const total = (rows: Row[]) => rows.reduce((n, row) => n + row.responses, 0);
    expect(total(all.body.data)).toBe(3);
    expect(total(inRegion.body.data)).toBe(2);
    if (groupBy === 'store') expect((inRegion.body.data as Row[]).map((row) => row.key).sort()).toEqual(['2', '3']);
  });

  it('group_by=region counts only the region’s stores in each region’s row', async () => {
    const res = await results({ group_by: 'region', region: '2' });
    expect(res.status, res.text).toBe(200);
    expect((res.body.data as Row[]).map((row) => [row.key, row.responses]).sort()).toEqual([
      ['1', 2],
      ['2', 2],
    ]);
  });

  it('group_by=theme counts only the comments of the region’s stores', async () => {
    const [all, inRegion, sul] = await Promise.all([
      results({ group_by: 'theme' }),
      results({ group_by: 'theme', region: '2' }),
      results({ group_by: 'theme', region: '1' }),
    ]);
    expect(inRegion.status, inRegion.text).toBe(200);
    const themes = (rows: Row[]) => rows.map((row) => row.theme).sort();
    expect(themes(all.body.data)).toEqual(expect.arrayContaining(['price', 'staff', 'wait']));
    expect(themes(inRegion.body.data)).toEqual(expect.arrayContaining(['price', 'staff']));
    expect(themes(inRegion.body.data)).not.toContain('wait');
    // A parent region counts its child regions' stores too.
    expect(themes(sul.body.data)).toEqual(themes(all.body.data));
  });

  it.each([...GROUPING_NAMES, 'theme'])('group_by=%s refuses an unknown region with a 422 naming it', async (groupBy) => {
    const res = await results({ group_by: groupBy, region: '99' });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'region', message: 'no region 99' }]);
  });
});
