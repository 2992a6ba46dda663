import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../shared/adapters/dynamodb.js';
import { counterUpdates } from '../shared/adapters/result-counters.js';
import { caseDeltas, recoveryTally } from '../shared/results/case-tally.js';
import { answerCounts, countersOf, merge, sentTally } from '../shared/results/tally.js';
import { driverCounts, MAX_DRIVER_ITEMS } from '../shared/results/driver-cells.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../shared/keys.js';
import { itemSize } from './answers-cost.js';
import type { Fixture } from '../infra/examples.js';
import { inProcess } from '../test/support/api.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * Stores in the year of counters the report reads (at most 24: a day's counters go in one transaction). Read when the
 * benchmark runs, as the days are, so that a smoke test can ask for fewer.
 */
const storeCount = () => Math.min(24, Number(process.env.BENCH_RESULT_STORES ?? 20));
/**
 * The days, counting back from today, that hold counters (BENCH_RESULT_DAYS, at most the report's 365): the report reads
 * the same items over its year whether a day's counters are there or not, and a smoke test needs only months.
 */
const seededDays = () => Math.min(365, Number(process.env.BENCH_RESULT_DAYS ?? 365));
const DAY_MS = 86_400_000;
/** The items a seeded answer rated (loja's classes 1 and 2), varying with the store and day so that the drivers have a model. */
const DRIVEN = (s: number, d: number) => [
  { classId: 1, score: 1 + ((s * 7 + d) % 5) },
  { classId: 2, score: 1 + ((s * 3 + d * d) % 5) },
];
/** Regions the stores are spread over, all under one parent. */
const REGIONS = 4;
/** Whether the counters hold a case a day per store (BENCH_RESULT_CASES=0: answers only, to compare). */
const seedCases = () => process.env.BENCH_RESULT_CASES !== '0';

/**
 * What results cost: the write units an answer adds by counting (answer and correction, against the same write
 * without counters), and what a year's report reads, over a year of counters for STORES stores with answers every
 * day (seeded straight into the counters: the counts, not the answers, are what a report reads).
 */
export async function resultsCost(f: Fixture): Promise<string> {
  const STORES = storeCount();
  const SEED_CASES = seedCases();
  const client = inProcess('public', 300);
  const today = new Date();
  const days = Array.from({ length: 365 }, (_, i) => new Date(today.getTime() - i * DAY_MS).toISOString().slice(0, 10));
  const journeyId = 1;
  // One transaction per day: that day's counters for every store (a counter at most once in a transaction).
  for (const [d, day] of days.slice(0, seededDays()).entries()) {
    const deltas = merge(
      Array.from({ length: STORES }, (_, s) => [
        ...countersOf({ journeyId, storeId: 1000 + s, employeeId: 1 }, day, {
          ...answerCounts({ indicator: 'nps', score: 9, items: [], answeredAt: day, sentOn: day }, 1),
          r: 1,
          // An answer that rated loja's two items: its drivers' sums (`driver-cells.ts`), read by group_by=driver.
          ...driverCounts((s + 2 * d) % 11, DRIVEN(s, d), 1),
        }),
        ...sentTally({ journeyId, storeId: 1000 + s, employeeId: 1 }, new Date(`${day}T12:00:00Z`)),
        // A case a day per store, contacted, resolved and its recovery answered: every case counter is in the items read.
        ...(SEED_CASES ? caseLife(journeyId, 1000 + s, day) : []),
      ]).flat(),
    );
    await db().client.send(new TransactWriteCommand({ TransactItems: counterUpdates(f.tenantId, { journeyId, deltas }, 0) }));
  }

  // The stores in REGIONS regions under one parent (docs/regions.md): a region's figures are its stores' counters.
  const regions = [
    { id: 1, name: 'Brasil', stores: [] as number[] },
    ...Array.from({ length: REGIONS }, (_, r) => ({
      id: 2 + r,
      name: `Região ${r + 1}`,
      stores: Array.from({ length: STORES }, (_, s) => 1000 + s).filter((store) => store % REGIONS === r),
      parent: 1,
    })),
  ];
  const config = await client({ path: '/public/admin/config', key: f.adminKey });
  const put = await client({
    method: 'PUT',
    path: '/public/admin/config',
    key: f.adminKey,
    body: { ...config.body, regions },
    headers: { 'if-match': config.headers.etag! },
  });
  if (put.status !== 200) throw new Error(`regions not configured: ${put.text}`);

  const metered = meter(db().client);
  const rows: string[] = [];
  const from = days.at(-1)!;
  const readUnits: Record<string, number> = {};
  for (const [groupBy, region] of [['store'], ['region'], ['store', '2'], ['journey'], ['month'], ['employee'], ['driver']] as const) {
    const request = {
      path: '/public/results',
      key: f.key,
      headers: { 'x-service-user-token': f.userToken },
      query: { journey: 'loja', from, to: days[0]!, group_by: groupBy, ...(region ? { region } : {}) },
    };
    await client(request);
    metered.reset();
    const res = await metered.run(() => client(request));
    const { roundTrips, read } = metered.totals();
    const groups = (res.body as { data: unknown[] }).data.length;
    if (!region) readUnits[groupBy] = read;
    rows.push(
      `| ${groupBy}${region ? `, region=${region}` : ''} | ${res.status} | ${groups} | ${roundTrips} | ${read} | $${(read * PRICES.readUnit).toFixed(2)} |`,
    );
  }
  metered.stop();

  // What counting adds to an answer: the counters of one answer, written as the answer writes them.
  const perAnswer = merge(
    countersOf({ journeyId, storeId: 1, employeeId: 1 }, days[0]!, {
      ...answerCounts(
        { indicator: 'nps', score: 9, items: [{ classId: 1, indicator: 'csat', score: 5 }], answeredAt: days[0]!, sentOn: days[0]! },
        1,
      ),
      r: 1,
    }),
  );
  const counterWrites = counterUpdates(f.tenantId, { journeyId, deltas: perAnswer }, 0).length;
  const perTransition = caseLife(journeyId, 1, days[0]!, 'opened');
  const caseWrites = counterUpdates(f.tenantId, { journeyId, deltas: perTransition }, 0).length;
  const drivers = await driversWriteSizes(f.tenantId, journeyId, days[0]!);
  return [
    `### Results: a year's report, and what counting adds to each answer (${STORES} stores, answers every day)`,
    '',
    `A report reads counters, never answers: whole months from month counters, the partial months at either end from day counters. A report by store or employee reads the period of the same length before it too, with the same plan (each row's change): twice the queries of the journey's report, still bounded by months. Each answer, correction and first send adds ${counterWrites} counter updates (day and month, for the journey, the store, the employee and the pair) to the write it rides on, in one TransactWriteItems. On AWS a transactional write costs 2 write units per item of up to 1 KB, so counting adds ${2 * counterWrites} write units to an answer ($${(2 * counterWrites * PRICES.writeUnit).toFixed(2)} per million answers, $${(2 * counterWrites * PRICES.writeUnit * 0.3).toFixed(2)} per million transactions at a 30% response rate); DynamoDB Local reports transactional writes at the plain rate, so the postSurvey row above shows fewer. Cases count the same way: opening a case, its first contact, its resolution and its recovery answer each add ${caseWrites} counter updates (${2 * caseWrites} write units) to the case's or the recovery survey's own write; ${SEED_CASES ? "the counters read below hold a case a day per store, so a report's reads include the case figures." : 'the counters read below hold no case (BENCH_RESULT_CASES=0).'}`,
    '',
    `By region (${REGIONS} regions under one parent): a region's figures are its stores' counters summed at read time (there is no region counter), so \`group_by=region\` and \`region=<id>\` read exactly the items of the store report, whatever the number of regions: that report is their floor in this design, and no read is added per store or region (docs/regions.md says why not region counters).`,
    '',
    '| report over 365 days, group_by | status | groups | round trips | read units | $ per million reports |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Drivers (\`group_by=driver\`, docs/drivers.md) read the journey's own counters, the items \`group_by=journey\` reads: that report is their floor (${readUnits.journey} read units; drivers ${readUnits.driver}, ${(readUnits.driver! / readUnits.journey!).toFixed(2)}x), and the regression is solved from the sums in memory. They add no write: their sums ride in the counter items every answer already updates. They add bytes to those items: the journey's month counter here weighs ${drivers.month} bytes, ${drivers.loja} of them the drivers' cells of loja's 2 items; with ${MAX_DRIVER_ITEMS} items (the most a journey's drivers read) the cells of a busy month (10,000 answers) weigh ${drivers.most} bytes. A write unit covers 1 KB of the larger of the item before and after: ${drivers.month + drivers.most - drivers.loja <= 1024 ? `the largest such counter (${drivers.month + drivers.most - drivers.loja} bytes) stays within one, so an answer's write units do not change (the issue-62 gate concerns the transaction's own row; an answer's counters are apart, and unchanged)` : `a counter carrying ${MAX_DRIVER_ITEMS} items' cells (${drivers.month + drivers.most - drivers.loja} bytes) passes 1 KB: each of its writes then costs one more unit (2 more, transactional), for the journeys that rate that many items`}.`,
  ].join('\n');
}

/** The deltas of a case's life on `day` (opened, contacted after 20 minutes, resolved in time, recovered), or of its opening only. */
function caseLife(journeyId: number, storeId: number, day: string, only?: 'opened') {
  const opened = {
    journeyId,
    storeId,
    employeeId: 1,
    openedAt: `${day}T12:00:00.000Z`,
    dueAt: `${day}T23:00:00.000Z`,
    status: 'open',
    firstContactAt: null,
    closedAt: null,
    overdue: false,
  };
  if (only) return caseDeltas(undefined, opened);
  const resolved = { ...opened, status: 'resolved', firstContactAt: `${day}T12:20:00.000Z`, closedAt: `${day}T15:00:00.000Z` };
  return [...caseDeltas(undefined, opened), ...caseDeltas(opened, resolved), ...recoveryTally(opened, true).deltas];
}

/** The bytes of the journey's month counter as stored, of loja's drivers' cells in it, and of 8 items' cells over a busy month. */
async function driversWriteSizes(tenantId: number, journeyId: number, day: string) {
  const { Item } = await db().client.send(
    new GetCommand({
      TableName: db().tableName,
      Key: {
        pk: keys.results(tenantId, { journeyId, partition: day.slice(0, 4) }),
        sk: keys.resultSort({ grain: 'month', dimension: 'all', ids: [], period: day.slice(0, 7) }),
      },
    }),
  );
  const month = Item ?? {};
  const loja = Object.fromEntries(Object.entries(month).filter(([name]) => /^q/.test(name)));
  // 10,000 answers of 8 items scoring about 4 and a main score of about 8: sums of the size a busy month reaches.
  const eight = Array.from({ length: MAX_DRIVER_ITEMS }, (_, i) => ({ classId: 90 + i, score: 4 }));
  const busy = Object.fromEntries(Object.entries(driverCounts(8, eight, 1)).map(([name, value]) => [name, value * 10_000 + 1234]));
  return { month: itemSize(month), loja: itemSize(loja), most: itemSize(busy) };
}
