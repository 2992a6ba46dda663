import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { HOT_SHARE, replayAgainst, scaleReport, scaleSimulation } from '../../bench/scale.js';
import { LARGE_TENANT } from '../../bench/scale/day.js';

/**
 * `npm run bench -- scale` at a small size, so that it cannot rot, and the counting table it runs on checked against
 * DynamoDB Local: the same commands, replayed, consume the same units per table and index. Then two seconds of the
 * large tenant's peak at full rate: the partitions this issue sharded stay under a tenth of their limits.
 *
 * The counting table takes over this file's table client (it answers every command from then on; the next file in the
 * worker loads its own, test/support/fresh-file.ts), and its commands name a tenant no other test uses.
 */
describe('the scale simulation', () => {
  it('counts the same units as DynamoDB Local for the same commands, and prints its tables', async () => {
    // A small day whose commands all hold their conditions when replayed: one attempt a journey, no reminder.
    const shape = {
      ...LARGE_TENANT,
      transactionsPerDay: 50_000,
      journeys: LARGE_TENANT.journeys.map((journey) => ({ ...journey, attempts: journey.attempts.slice(0, 1) })),
    };
    const run = await scaleSimulation({ shape, windowSeconds: 3, record: true });
    expect(run.counts.transactions).toBeGreaterThan(5);
    expect(run.counts.firstSends).toBeGreaterThan(5);
    expect(run.counts.answers).toBeGreaterThan(0);

    const report = scaleReport(run, 3);
    expect(report).toMatch(/Hottest key: [\d.]+% of a partition's limit/);
    expect(report).toContain('| **the service** |');
    expect(report).toMatch(/Per survey sent .*: \$\d/);

    const rows = await replayAgainst(new DynamoDBClient({}), run.table);
    const tableRow = rows.find((row) => row.index === 'table')!;
    expect(tableRow.local.write).toBeGreaterThan(0);
    for (const { index, counted, local } of rows)
      for (const kind of ['write', 'read'] as const) {
        // The same but for nested updates, which the counting table takes as keeping an item's size (a few bytes).
        expect(
          Math.abs(counted[kind] - local[kind]),
          `${index} ${kind}: ${counted[kind]} counted, ${local[kind]} on DynamoDB Local`,
        ).toBeLessThanOrEqual(Math.max(1, local[kind] * 0.05));
      }
  });

  it('keeps the result counters, the evaluation index, the expiry index, the configuration version and the due minutes under a tenth of a partition at full rate, and reads no API key per sale', async () => {
    // Without the scheduler's release, whose minute of 41,000 parked reminders takes most of a run's time.
    const run = await scaleSimulation({ windowSeconds: 2, releases: false });
    const sharded = run.hot.filter(({ partition }) => /#RESULTS#|#EVAL#|^gsi9 EXPIRES#|^table T#\d+#CONFIG\b|^table DUE#/.test(partition));
    // The configuration version (its ten copies) and the due minutes (parking) are among them.
    expect(sharded.filter(({ partition }) => /#CONFIG#VERSION#\d+$/.test(partition)).length).toBe(9);
    expect(sharded.some(({ partition }) => partition.startsWith('table DUE#'))).toBe(true);
    expect(sharded.length).toBeGreaterThan(100);
    expect(sharded[0]!.share, sharded[0]!.partition).toBeLessThanOrEqual(HOT_SHARE);
    // Each sale's request, its authorizer answer cached, reads one copy of the version (1 unit) and never the API key.
    expect(run.hot.filter(({ partition }) => partition.startsWith('table APIKEY#'))).toEqual([]);
    expect(run.table.byFlow.get('sale request')!.read / run.counts.saleRequests).toBe(1);
  }, 180_000);
});
