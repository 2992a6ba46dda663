import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as analyticsExporter } from '../../functions/queue/analytics-exporter.js';
import { handler as privacyConsumer } from '../../functions/queue/privacy-requests.js';
import { query } from '../../infra/analytics.js';
import { invoke } from '../../infra/local/invoke.js';
import { objectKeyOf } from '../../shared/analytics/datasets.js';
import { forTenant, savedQuerySql } from '../../shared/analytics/queries.js';
import { nextExport, type AnalyticsMessage } from '../../shared/analytics/schedule.js';
import { analyticsFiles } from '../../shared/adapters/analytics-files.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { dueTimerKey } from '../../shared/adapters/due-timers.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { analyticsExport } from '../../shared/adapters/wiring/analytics.js';
import { addDays } from '../../shared/dates.js';
import { minuteOf } from '../../shared/timers.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The analytics export (docs/analytics.md) through the local stack: `npm run admin -- export` writes a day's Parquet to
 * the local bucket, DuckDB reads it as Athena would (`npm run analytics`), erasure and retention reach it.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('analysis');
const privacyQueue = usePrivateQueue('privacy');
const api = inProcess('public');
const admin = (args: string[]) => promisify(execFile)('npx', ['tsx', 'infra/admin.ts', ...args], { env: { ...process.env } });
// Results count by UTC day: the tenant's day is the same one in UTC.
const today = new Date().toISOString().slice(0, 10);
const CPF = '52998224725';
const SUBJECT = { name: 'Titular Analytics', email: `titular-${randomUUID().slice(0, 8)}@example.com`, phone: '+5511987651234', cpf: CPF };
let tenant: TestTenant;
let subjectSale: number;

const settings = (extra: object) =>
  putSettings(tenant.tenantId, { ...DEMO_SETTINGS, timeZone: 'UTC', analytics: { comments: true }, ...extra });
const rows = async () => query(`SELECT * FROM answers WHERE tenant = ${tenant.tenantId} ORDER BY store_id, score DESC`);

beforeAll(async () => {
  tenant = await newTenant();
  await settings({});
  expect((await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } })).body.id).toBe(2);
  await registerSale(api, tenant.key, { store_id: 1, score: 10, comment: 'Tudo certo', name: 'Maria Um' });
  await registerSale(api, tenant.key, { store_id: 1, score: 3, comment: 'Demorou' });
  subjectSale = await registerSale(api, tenant.key, {
    store_id: 2,
    score: 2,
    comment: 'A Joana resolveu',
    customer_integration: `A-${randomUUID().slice(0, 8)}`,
    ...SUBJECT,
  });
});

describe('the analytics export', () => {
  it('writes the day as Parquet that DuckDB counts as GET /public/results does, and skips it when run again', async () => {
    const { stdout } = await admin(['export', '--tenant', String(tenant.tenantId), '--from', today, '--to', today]);
    // The first export starts the tenant's daily run: the next one parked after its midnight.
    expect(stdout).toMatch(new RegExp(`^${today}\twritten\n\\d{4}-\\d{2}-\\d{2}\tscheduled for \\S+T00:30:00.000Z\n$`));
    expect(await analyticsExport.exportDays(tenant.tenantId, today, today)).toEqual([{ day: today, outcome: 'skipped' }]);

    const counted = await query(
      `SELECT store_id, count(*) AS answers FROM answers WHERE tenant = ${tenant.tenantId} AND date = '${today}' GROUP BY store_id ORDER BY store_id`,
    );
    const results = await api({
      path: '/public/results',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { journey: 'loja', from: today, to: today, group_by: 'store' },
    });
    expect(results.status, results.text).toBe(200);
    const expected = (results.body.data as { key: string; responses: number }[])
      .map((row) => ({ store_id: Number(row.key), answers: String(row.responses) }))
      .sort((a, b) => a.store_id - b.store_id);
    expect(counted).toEqual(expected);
    expect(expected.map((row) => row.answers)).toEqual(['2', '1']);
    // The admin command is a process of its own (tsx compiles it): seconds on a quiet machine, more on a busy one.
  }, 90_000);

  it('holds no name, phone, e-mail or cpf in any column, the customer as a pseudonym, the comment as the tenant opted in', async () => {
    const exported = await rows();
    expect(exported).toHaveLength(3);
    const text = JSON.stringify(exported);
    for (const personal of ['Maria Um', 'Bia Lima', SUBJECT.name, SUBJECT.email, '987651234', CPF, '@example.com'])
      expect(text).not.toContain(personal);
    expect(exported.map((row) => row.customer_key)).toEqual([expect.stringMatching(/^[\w-]{22}$/), expect.any(String), expect.any(String)]);
    expect(exported.map((row) => [row.store_id, row.score, row.bucket, row.comment, row.source])).toEqual([
      [1, 10, 'promoter', 'Tudo certo', 'api'],
      [1, 3, 'detractor', 'Demorou', 'api'],
      [2, 2, 'detractor', 'A Joana resolveu', 'api'],
    ]);
  });

  it('runs the saved queries on DuckDB as Athena would', async () => {
    const nps = await query(forTenant(savedQuerySql('npsByStoreAndWeek'), tenant.tenantId));
    expect(nps.map((row) => [row.store_id, row.answers, row.nps])).toEqual([
      [1, '2', 0],
      [2, '1', -100],
    ]);
    expect(await query(forTenant(savedQuerySql('detractorThemesByRegion'), tenant.tenantId))).toEqual([]);
  });

  it("an erasure is done only once the day is written again without the subject's key and comment", async () => {
    const before = await rows();
    const res = await api({
      method: 'POST',
      path: '/public/privacy/requests',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      body: { type: 'erase', cpf: CPF },
    });
    expect(res.status, res.text).toBe(202);
    const work = async () => {
      const bodies = await privacyQueue.drain();
      if (bodies.length)
        expect((await invoke('privacyRequests', privacyConsumer, sqsEvent(bodies, { queue: 'PrivacyQueue' }))).batchItemFailures).toEqual(
          [],
        );
      return bodies.length;
    };
    await work();
    // The second pass comes ERASURE_RECHECK_SECONDS later (3 s in the tests' stack).
    const started = Date.now();
    while (!(await work())) {
      expect(Date.now() - started, 'the second pass never came').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const read = await api({
      path: `/public/privacy/requests/${res.body.id}`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(read.body.status).toBe('done');
    const after = await rows();
    const erased = after.find((row) => row.transaction_id === String(subjectSale));
    expect(erased).toMatchObject({ customer_key: null, comment: null, score: 2, store_id: 2 });
    expect(JSON.stringify(after)).not.toContain('Joana');
    // The others keep their key and comment.
    expect(after.filter((row) => row.transaction_id !== String(subjectSale))).toEqual(
      before.filter((row) => row.transaction_id !== String(subjectSale)),
    );
  });

  it('the daily run writes its day once however often its timer fires, deletes the days past retention, parks the next', async () => {
    const old = addDays(today, -40);
    const yesterday = addDays(today, -1);
    await analyticsExport.exportDay(tenant.tenantId, old);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, old))).toBe(true);
    await settings({ privacy: { retentionDays: 30 } });
    const run = () =>
      invoke(
        'analyticsExporter',
        analyticsExporter,
        sqsEvent([{ version: 1, tenantId: tenant.tenantId, day: yesterday }], { queue: 'AnalyticsQueue' }),
      );

    expect((await run()).batchItemFailures).toEqual([]);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, yesterday))).toBe(true);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, old))).toBe(false);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, today))).toBe(true);
    // The same timer again (a release sent twice): the day is claimed, nothing is written.
    await analyticsFiles.remove(objectKeyOf('answers', tenant.tenantId, yesterday));
    expect((await run()).batchItemFailures).toEqual([]);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, yesterday))).toBe(false);
    // The next run waits in the table, due after the tenant's coming midnight.
    const next = nextExport(new Date(), 'UTC');
    const parked: AnalyticsMessage = { version: 1, tenantId: tenant.tenantId, day: next.day };
    const key = dueTimerKey(minuteOf(next.dueAt), 'analyticsDay', parked);
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: key }));
    expect(Item?.message).toMatchObject({ tenantId: tenant.tenantId, day: next.day, dueAt: next.dueAt.toISOString() });
  });
});
