import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as analyticsExporter } from '../../functions/queue/analytics-exporter.js';
import { handler as caseOpener } from '../../functions/queue/case-opener.js';
import { handler as privacyConsumer } from '../../functions/queue/privacy-requests.js';
import { query, savedQuery } from '../../infra/analytics.js';
import { invoke } from '../../infra/local/invoke.js';
import { exportChains, LinkMessage } from '../../shared/analytics/chain.js';
import { DATASET_IDS, objectKeyOf } from '../../shared/analytics/datasets.js';
import * as analytics from '../../shared/analytics/export.js';
import type { WriteLimits } from '../../shared/analytics/parquet.js';
import type { AnalyticsFiles } from '../../shared/analytics/ports.js';
import { nextExport, runChainId, settledDay, type RunMessage } from '../../shared/analytics/schedule.js';
import { dayAnswers } from '../../shared/adapters/analytics-answers.js';
import { analyticsChains } from '../../shared/adapters/analytics-chains.js';
import { dirtyDays } from '../../shared/adapters/analytics-dirty.js';
import { analyticsFiles } from '../../shared/adapters/analytics-files.js';
import { pseudonymKey } from '../../shared/adapters/analytics-key.js';
import { dayCases, daySurveys } from '../../shared/adapters/analytics-records.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { s3 } from '../../shared/adapters/s3.js';
import { ENV } from '../../shared/config.js';
import { dueTimerKey } from '../../shared/adapters/due-timers.js';
import { surveyIndex } from '../../shared/adapters/transaction-repository.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { sendMessage } from '../../shared/adapters/sqs.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { analyticsExport } from '../../shared/adapters/wiring/analytics.js';
import { caseSystemChanges } from '../../shared/adapters/wiring/cases.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { keys } from '../../shared/keys.js';
import { minuteOf } from '../../shared/timers/timers.js';
import { MAX_DELAY_SECONDS } from '../../shared/queues.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { command } from '../support/commands.js';

/**
 * The analytics export (docs/analytics.md) through the local stack: `npm run admin -- export` writes a day's Parquet to
 * the local bucket, DuckDB reads it as Athena would (`npm run analytics`), erasure and retention reach it.
 */
// Every link of a chain stops at its first row group or object completed: each day is written by several invocations
// of the analytics consumer, through its queue (shared/analytics/chain.ts). Read by the wiring, at import.
vi.hoisted(() => {
  process.env.ANALYTICS_LINK_SECONDS = '0';
});
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('analysis');
const privacyQueue = usePrivateQueue('privacy');
const analyticsQueue = usePrivateQueue('analytics');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const admin = (args: string[]) => command('infra/admin.ts', args);
// Results count by UTC day: the tenant's day is the same one in UTC.
const today = new Date().toISOString().slice(0, 10);
const CPF = '52998224725';
const SUBJECT = { name: 'Titular Analytics', email: `titular-${randomUUID().slice(0, 8)}@example.com`, phone: '+5511987651234', cpf: CPF };
const OWNER = `dona-${randomUUID().slice(0, 8)}@loja.test`;
let tenant: TestTenant;
let subjectSale: number;
let ownedCase: number;

const settings = (extra: object) =>
  putSettings(tenant.tenantId, { ...DEMO_SETTINGS, timeZone: 'UTC', analytics: { comments: true }, ...extra });
const rows = async () => query(tenant.tenantId, `SELECT * FROM answers WHERE tenant = ${tenant.tenantId} ORDER BY store_id, score DESC`);
const caseRows = async () => query(tenant.tenantId, `SELECT * FROM cases WHERE tenant = ${tenant.tenantId} ORDER BY store_id`);
const patchCase = async (id: number, body: object) => {
  const res = await api({
    method: 'PATCH',
    path: `/public/cases/${id}`,
    key: tenant.key,
    body,
    headers: { 'x-service-user-token': tenant.userToken, 'if-match': '*' },
  });
  expect(res.status, res.text).toBe(200);
};

beforeAll(async () => {
  tenant = await newTenant();
  await settings({});
  expect((await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } })).body.id).toBe(2);
  await registerSale(api, tenant.key, { store_id: 1, score: 10, comment: 'Tudo certo', name: 'Maria Um' });
  const detractor = await registerSale(api, tenant.key, { store_id: 1, score: 3, comment: `Demorou, cpf ${CPF}, ligue 11 98765–1234` });
  subjectSale = await registerSale(api, tenant.key, {
    store_id: 2,
    score: 2,
    comment: 'A Joana resolveu',
    customer_integration: `A-${randomUUID().slice(0, 8)}`,
    ...SUBJECT,
  });
  // The two detractors open a case each (the message an answer puts on the case queue; the legacy route sends none);
  // one gets an owner and a recovery survey that recovered the customer.
  const opened = [detractor, subjectSale].map((transactionId) => ({ tenantId: tenant.tenantId, transactionId, version: 1 }));
  expect((await invoke('caseOpener', caseOpener, sqsEvent(opened, { queue: 'CaseQueue' }))).batchItemFailures).toEqual([]);
  await tenantService.createUser(tenant.tenantId, { name: OWNER, scope: 'all' });
  ownedCase = (await caseRowsOfTable()).find((id) => id !== subjectSale)!;
  await patchCase(ownedCase, { owner: OWNER });
  await caseSystemChanges.recordRecovery(tenant.tenantId, ownedCase, { outcome: 'recovered', at: new Date().toISOString(), score: 9 });
});

/** The export over the stack's own adapters, with these files (and write limits). */
const exporterWith = (files: AnalyticsFiles, limits?: WriteLimits) =>
  analytics.analyticsExport(
    { answers: dayAnswers, surveys: daySurveys, cases: dayCases, dirty: dirtyDays, settings: readSettings, pseudonymKey, files },
    { limits },
  );

/** One message of the analytics queue through its consumer. */
async function consume(body: unknown): Promise<void> {
  expect((await invoke('analyticsExporter', analyticsExporter, sqsEvent([body], { queue: 'AnalyticsQueue' }))).batchItemFailures).toEqual(
    [],
  );
}

/** Runs the analytics consumer on what its queue holds until it holds nothing (a chain's links); answers how many. */
async function runLinks(): Promise<number> {
  let links = 0;
  for (let bodies = await analyticsQueue.drain(); bodies.length; bodies = await analyticsQueue.drain())
    for (const body of bodies) {
      await consume(body);
      links++;
    }
  return links;
}

/** A chain's item as the table holds it. */
async function chainItem(chainId: string) {
  const { Item } = await db().client.send(
    new GetCommand({ TableName: db().tableName, Key: keys.analyticsChain(tenant.tenantId, chainId), ConsistentRead: true }),
  );
  return Item;
}

/** Every row of every dataset of the tenant, as DuckDB reads them. */
const everything = async () =>
  Promise.all(
    DATASET_IDS.map((dataset) =>
      query(tenant.tenantId, `SELECT * FROM ${dataset} WHERE tenant = ${tenant.tenantId} ORDER BY transaction_id`),
    ),
  );

/** The ids of the tenant's cases opened today, as the export's own read lists them. */
async function caseRowsOfTable(): Promise<number[]> {
  const { from, to } = analytics.dayBounds(today, 'UTC');
  const ids: number[] = [];
  for await (const page of dayCases.between(tenant.tenantId, { from, to })) ids.push(...page.records.map((c) => c.transactionId));
  expect(ids).toHaveLength(2);
  return ids;
}

/**
 * A sale registered through the API, its time moved back a day (its entry in the day's list of surveys with it), with
 * `also` set on it.
 */
async function saleOfYesterday(also: Record<string, string> = {}): Promise<{ id: number; registered: string }> {
  const id = await registerSale(api, tenant.key, { store_id: 1 });
  const registered = new Date(Date.now() - 86_400_000).toISOString();
  const moved = { created_at: registered, ...surveyIndex(tenant.tenantId, { id, created_at: registered }) };
  const set = Object.entries({ ...moved, ...also });
  await db().client.send(
    new UpdateCommand({
      TableName: db().tableName,
      Key: keys.transaction(tenant.tenantId, id),
      UpdateExpression: `SET ${set.map(([path], i) => `${path} = :v${i}`).join(', ')}`,
      ExpressionAttributeValues: Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
  return { id, registered };
}

describe('the analytics export', () => {
  it('writes the day as Parquet that DuckDB counts as GET /public/results does, and skips it when run again', async () => {
    const { stdout } = await admin(['export', '--tenant', String(tenant.tenantId), '--from', today, '--to', today]);
    // The first export starts the tenant's daily run: the next one parked after its midnight.
    // The owner and recovery set before it marked the day: written again (the next run's work, here the command's).
    expect(stdout).toMatch(
      new RegExp(
        `^${today}\twritten\n${today}\twritten again \\(late changes\\)\n\\d{4}-\\d{2}-\\d{2}\tscheduled for \\S+T00:30:00.000Z\n$`,
      ),
    );
    expect(await dirtyDays.list(tenant.tenantId)).toEqual([]);
    expect(await analyticsExport.exportDays(tenant.tenantId, { from: today, to: today })).toEqual([{ day: today, outcome: 'skipped' }]);

    const counted = await query(
      tenant.tenantId,
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
      .map((row) => ({ store_id: Number(row.key), answers: row.responses }))
      .sort((a, b) => a.store_id - b.store_id);
    expect(counted).toEqual(expected);
    expect(expected.map((row) => row.answers)).toEqual([2, 1]);
    // Every sale's survey on the day it was registered; every case on the day it opened.
    const count = async (dataset: string) =>
      (await query(tenant.tenantId, `SELECT count(*) AS n FROM ${dataset} WHERE tenant = ${tenant.tenantId} AND date = '${today}'`))[0]!.n;
    expect([await count('surveys'), await count('cases')]).toEqual([3, 2]);
    // The admin command is a process of its own (tsx compiles it): seconds on a quiet machine, more on a busy one.
  }, 90_000);

  it('holds no name, phone, e-mail or cpf in any column, the customer as a pseudonym, the comment as the tenant opted in', async () => {
    const exported = await rows();
    expect(exported).toHaveLength(3);
    const text = JSON.stringify(exported);
    for (const dataset of DATASET_IDS) {
      const every = JSON.stringify(await query(tenant.tenantId, `SELECT * FROM ${dataset} WHERE tenant = ${tenant.tenantId}`));
      expect(every.length, dataset).toBeGreaterThan(100);
      for (const personal of ['Maria Um', 'Bia Lima', SUBJECT.name, SUBJECT.email, '987651234', CPF, '@example.com', OWNER, '@loja.test'])
        expect(every, dataset).not.toContain(personal);
    }
    expect(text).toContain('Tudo certo');
    expect(exported.map((row) => row.customer_key)).toEqual([expect.stringMatching(/^[\w-]{22}$/), expect.any(String), expect.any(String)]);
    expect(exported.map((row) => [row.store_id, row.score, row.bucket, row.comment, row.source])).toEqual([
      [1, 10, 'promoter', 'Tudo certo', 'api'],
      // The comment as every reader but the tenant's admin reads it: redacted.
      [1, 3, 'detractor', 'Demorou, cpf [cpf], ligue [phone]', 'api'],
      [2, 2, 'detractor', 'A Joana resolveu', 'api'],
    ]);
  });

  it('runs the saved queries on DuckDB as Athena would', async () => {
    const nps = await savedQuery(tenant.tenantId, 'npsByStoreAndWeek');
    // Counts are numbers, as Athena's console shows them (DuckDB's BIGINT and HUGEINT would be strings).
    expect(nps.map((row) => [row.store_id, row.answers, row.nps])).toEqual([
      [1, 2, 0],
      [2, 1, -100],
    ]);
    expect(await savedQuery(tenant.tenantId, 'detractorThemesByRegion')).toEqual([]);
    // The owned case recovered its customer; the other has no owner and no recovery survey answered.
    expect(await savedQuery(tenant.tenantId, 'recoveryRateByOwner')).toEqual([
      { owner_key: expect.stringMatching(/^[\w-]{22}$/), cases: 1, surveyed: 1, recovered: 1, recovery_rate: 100 },
      { owner_key: null, cases: 1, surveyed: 0, recovered: 0, recovery_rate: null },
    ]);
  });

  describe('npm run analytics', () => {
    // Another tenant's days beside this one's: a file DuckDB writes, in the export's keys (any columns: union_by_name).
    const other = 9_000_000 + Math.floor(Math.random() * 900_000);
    const bucket = () => process.env[ENV.analyticsBucket]!;
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'analytics-other-'));
      const instance = await DuckDBInstance.create(':memory:');
      const file = join(dir, 'part-0.parquet');
      await (
        await instance.connect()
      ).run(
        `COPY (SELECT * FROM (VALUES (1, 'detractor', ['wait', 'price']), (2, 'detractor', ['wait']), (2, 'detractor', ['wait', 'staff']),
          (2, 'promoter', ['staff']), (NULL, 'detractor', ['price'])) AS t(region_id, bucket, themes)) TO '${file}' (FORMAT parquet)`,
      );
      instance.closeSync();
      await s3().send(
        new PutObjectCommand({ Bucket: bucket(), Key: objectKeyOf('answers', other, '2026-01-05'), Body: readFileSync(file) }),
      );
      rmSync(dir, { recursive: true, force: true });
    });

    it("reads only the tenant's own files", async () => {
      expect(await query(tenant.tenantId, 'SELECT DISTINCT tenant FROM answers')).toEqual([{ tenant: tenant.tenantId }]);
      expect(await query(other, 'SELECT tenant, count(*) AS n FROM answers GROUP BY tenant')).toEqual([{ tenant: other, n: 5 }]);
      expect(await query(other, 'SELECT count(*) AS n FROM surveys')).toEqual([{ n: 0 }]);
    });

    it('reads and writes no file and reaches no network once loaded, and the SQL cannot turn that back on', async () => {
      const leak = join(mkdtempSync(join(tmpdir(), 'analytics-leak-')), 'leak.csv');
      for (const sql of [
        "SELECT * FROM read_text('/etc/hostname')",
        `COPY answers TO '${leak}'`,
        "SELECT * FROM read_csv('/etc/passwd')",
        "ATTACH '/tmp/other.duckdb' AS other",
        "SELECT * FROM read_parquet('http://127.0.0.1:1/x.parquet')",
      ])
        await expect(query(tenant.tenantId, sql), sql).rejects.toThrow(/external access|disabled|Permission Error/i);
      expect(existsSync(leak)).toBe(false);
      rmSync(dirname(leak), { recursive: true, force: true });
      await expect(query(tenant.tenantId, 'SET enable_external_access = true')).rejects.toThrow(/lock|configuration/i);
      await expect(query(tenant.tenantId, 'RESET lock_configuration')).rejects.toThrow(/lock|configuration/i);
    });

    it('runs a saved query by its name with its parameters, from the command line, counts as numbers', async () => {
      expect(await savedQuery(other, 'detractorThemesByRegion')).toEqual([
        { region_id: 1, theme: 'price', answers: 1 },
        { region_id: 1, theme: 'wait', answers: 1 },
        { region_id: 2, theme: 'wait', answers: 2 },
        { region_id: 2, theme: 'staff', answers: 1 },
        { region_id: null, theme: 'price', answers: 1 },
      ]);
      const analyticsCommand = (args: string[]) => command('infra/analytics.ts', args);
      const { stdout } = await analyticsCommand(['--tenant', String(other), '--query', 'detractor-themes-by-region', '--region', '2']);
      expect(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
      ).toEqual([
        { region_id: 2, theme: 'wait', answers: 2 },
        { region_id: 2, theme: 'staff', answers: 1 },
      ]);
      const refused = (await analyticsCommand(['--query', 'detractor-themes-by-region']).catch((error: unknown) => error)) as {
        stderr: string;
      };
      expect(refused.stderr).toContain('analytics: --tenant ID is required');
      const unknown = (await analyticsCommand(['--tenant', '1', '--query', 'nps']).catch((error: unknown) => error)) as { stderr: string };
      expect(unknown.stderr).toContain('analytics: no saved query "nps": nps-by-store-and-week, detractor-themes-by-region');
    }, 120_000);
  });

  it('writes a day in several parts and row groups, one object that reads back whole', async () => {
    const before = await everything();
    let parts = 0;
    const counting: AnalyticsFiles = { ...analyticsFiles, part: (...args) => ((parts += 1), analyticsFiles.part(...args)) };
    // A row group a row, a part per row group: each of the day's 8 rows (3 answers, 3 surveys, 2 cases) ends a part, and
    // each dataset's footer one more.
    expect(await exporterWith(counting, { rowGroupRows: 1, partBytes: 1 }).exportDay(tenant.tenantId, today, true)).toBe('written');
    expect(parts).toBe(8 + DATASET_IDS.length);
    expect(await everything()).toEqual(before);
  });

  it('writes a day in links that each stop after a row, each object shown whole when its last link completes it', async () => {
    const before = await everything();
    // A row group a row, and links that stop at their first: the file half written is kept in the bucket from one link
    // to the next, its parts' ETags and the read's cursor in the chain's item.
    const chains = exportChains(
      {
        chains: analyticsChains,
        files: analyticsFiles,
        send: async (message) => void (await sendMessage('analytics', message)),
        erasureWritten: async () => {},
      },
      exporterWith(analyticsFiles, { rowGroupRows: 1, partBytes: 1 }),
      { linkSeconds: 0 },
    );
    await Promise.all(DATASET_IDS.map((dataset) => analyticsFiles.remove(objectKeyOf(dataset, tenant.tenantId, today))));
    const chainId = `test-${randomUUID()}`;
    // Run as the analytics consumer is, under its role: its grants cover the saved files' PutObject, GetObject, DeleteObject.
    const asConsumer = <T>(work: () => Promise<T>) => invoke('analyticsExporter', work, undefined);
    expect(await asConsumer(() => chains.start(chainId, { tenantId: tenant.tenantId, days: [today], then: {} }))).toBe('continued');
    let links = 1;
    for (let bodies = await analyticsQueue.drain(); bodies.length; bodies = await analyticsQueue.drain()) {
      expect(bodies).toHaveLength(1);
      // The answers are written last: until their object is completed, no reader sees it.
      expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, today))).toBe(false);
      const message = v.parse(LinkMessage, bodies[0]);
      expect(await asConsumer(() => chains.run(message))).toMatch(/^(continued|written)$/);
      links++;
    }
    // A link per row (8), and one more per object that completes it (3).
    expect(links).toBe(8 + DATASET_IDS.length);
    expect(await chainItem(chainId)).toMatchObject({ done: true, seq: links });
    expect(await everything()).toEqual(before);
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
    const status = async () =>
      (
        await api({
          path: `/public/privacy/requests/${res.body.id}`,
          key: tenant.key,
          headers: { 'x-service-user-token': tenant.userToken },
        })
      ).body.status;
    // Pending while the chain that writes the subject's day again runs: a link per object of the day (this file's links
    // stop at each), the last one reports the request done.
    expect(await status()).toBe('pending');
    expect(await runLinks()).toBe(DATASET_IDS.length);
    expect(await status()).toBe('done');
    const after = await rows();
    const erased = after.find((row) => row.transaction_id === subjectSale);
    expect(erased).toMatchObject({ customer_key: null, comment: null, score: 2, store_id: 2 });
    expect(JSON.stringify(after)).not.toContain('Joana');
    // Its survey and its case too: no pseudonym left to join them by.
    const subjectOf = async (dataset: string) =>
      (
        await query(
          tenant.tenantId,
          `SELECT customer_key FROM ${dataset} WHERE tenant = ${tenant.tenantId} AND transaction_id = ${subjectSale}`,
        )
      )[0];
    expect([await subjectOf('surveys'), await subjectOf('cases')]).toEqual([{ customer_key: null }, { customer_key: null }]);
    // The others keep their key and comment.
    expect(after.filter((row) => row.transaction_id !== subjectSale)).toEqual(before.filter((row) => row.transaction_id !== subjectSale));
  });

  it('a case resolved after its day was written is in the day written again; a change during that write waits for the next', async () => {
    await patchCase(ownedCase, { status: 'in_progress' });
    expect((await caseRows()).find((row) => row.transaction_id === ownedCase)).toMatchObject({ status: 'open' });
    // The admin command's way: the day is written already (skipped), the day the change marked is written again.
    expect(await analyticsExport.exportDays(tenant.tenantId, { from: today, to: today })).toEqual([{ day: today, outcome: 'skipped' }]);
    expect(await analyticsExport.rewriteDirty(tenant.tenantId, today)).toEqual([today]);
    expect((await caseRows()).find((row) => row.transaction_id === ownedCase)).toMatchObject({
      status: 'in_progress',
      first_contact_at: expect.any(String),
    });
    expect(await dirtyDays.list(tenant.tenantId)).toEqual([]);

    // The case is resolved while its day is being written again: the day's mark stays for the next run.
    let resolving: Promise<void> | undefined;
    const exporter = exporterWith({
      ...analyticsFiles,
      begin(key) {
        resolving ??= patchCase(ownedCase, { status: 'resolved', root_cause: 'Atendimento', note: 'Troca feita' });
        return resolving.then(() => analyticsFiles.begin(key));
      },
    });
    await patchCase(ownedCase, { note: 'Ligamos de novo' });
    expect(await exporter.rewriteDirty(tenant.tenantId, today)).toEqual([today]);
    expect(await dirtyDays.list(tenant.tenantId)).toHaveLength(1);
    expect(await analyticsExport.rewriteDirty(tenant.tenantId, today)).toEqual([today]);
    expect((await caseRows()).find((row) => row.transaction_id === ownedCase)).toMatchObject({
      status: 'resolved',
      root_cause: 'Atendimento',
      closed_at: expect.any(String),
    });
    expect(await dirtyDays.list(tenant.tenantId)).toEqual([]);
  });

  it("a survey answered after its registration's day marks that day, and the next daily run writes it with the answer", async () => {
    // A sale registered yesterday (its time moved back a day, its entry in the day's list of surveys with it), whose
    // survey is still waiting when yesterday is written.
    const yesterday = addDays(today, -1);
    const { id, registered } = await saleOfYesterday();
    await analyticsExport.exportDay(tenant.tenantId, yesterday, true);
    const outcome = async () =>
      (
        await query(
          tenant.tenantId,
          `SELECT outcome FROM surveys WHERE tenant = ${tenant.tenantId} AND date = '${yesterday}' AND transaction_id = ${id}`,
        )
      )[0];
    expect(await outcome()).toEqual({ outcome: 'scheduled' });

    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: 9, classes: [] },
    });
    expect(answered.status, answered.text).toBe(201);
    expect((await dirtyDays.list(tenant.tenantId)).map((mark) => mark.utcDay)).toEqual([registered.slice(0, 10)]);
    // Today's run (the next one): its own day, then the day the answer marked.
    await consume({ version: 1, tenantId: tenant.tenantId, day: today });
    await runLinks();
    expect(await outcome()).toEqual({ outcome: 'answered' });
    expect(await dirtyDays.list(tenant.tenantId)).toEqual([]);
  });

  it('a survey whose links lapsed unanswered is written expired, though no write recorded that', async () => {
    const { id } = await saleOfYesterday({ 'survey.expires_at': new Date(Date.now() - 60_000).toISOString() });
    const yesterday = addDays(today, -1);
    await analyticsExport.exportDay(tenant.tenantId, yesterday, true);
    const [row] = await query(
      tenant.tenantId,
      `SELECT outcome FROM surveys WHERE tenant = ${tenant.tenantId} AND date = '${yesterday}' AND transaction_id = ${id}`,
    );
    expect(row).toEqual({ outcome: 'expired' });
  });

  it('the daily run writes its day once however often its timer fires, deletes the days past retention, parks the next', async () => {
    const startedAt = Date.now();
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
    // Its first link ran in that invocation, the next ones come from the queue (a link per object in this file).
    const [second] = await analyticsQueue.drain();
    await consume(second);
    // That link's message delivered again: the chain moved on, so nothing is written and nothing queued.
    const chain = await chainItem(runChainId(yesterday));
    await consume(second);
    expect(await chainItem(runChainId(yesterday))).toEqual(chain);
    // Its day's answers, then the three objects of the day whose surveys have settled (written once more).
    const settled = settledDay(yesterday, await readSettings(tenant.tenantId));
    expect(settled).toBeDefined();
    await analyticsFiles.remove(objectKeyOf('surveys', tenant.tenantId, settled!));
    expect(await runLinks()).toBe(4);
    expect(await chainItem(runChainId(yesterday))).toMatchObject({ done: true, seq: 6 });
    expect(await analyticsFiles.exists(objectKeyOf('surveys', tenant.tenantId, settled!))).toBe(true);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, yesterday))).toBe(true);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, old))).toBe(false);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, today))).toBe(true);
    // The same timer again (a release sent twice): the day is claimed, nothing is written.
    await analyticsFiles.remove(objectKeyOf('answers', tenant.tenantId, yesterday));
    expect((await run()).batchItemFailures).toEqual([]);
    expect(await runLinks()).toBe(0);
    expect(await analyticsFiles.exists(objectKeyOf('answers', tenant.tenantId, yesterday))).toBe(false);
    // The next run waits in the table, due after the tenant's coming midnight. Within the queue's longest delay of it
    // (from 00:15 to 00:30 in the tenant's zone) the run queues it delayed instead, and parks nothing: a CI run at
    // 00:26 UTC found no timer where this test looked for one.
    const next = nextExport(new Date(), 'UTC');
    const parked: RunMessage = { version: 1, tenantId: tenant.tenantId, day: next.day };
    const key = dueTimerKey(minuteOf(next.dueAt), 'analyticsDay', parked);
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: key }));
    const parkedWhenRun = (at: number) => next.dueAt.getTime() - at > MAX_DELAY_SECONDS * 1000;
    // A test that began before 00:15 or 00:30 and ended after is not checked: its runs chose differently.
    const sameChoice = nextExport(new Date(startedAt), 'UTC').day === next.day && parkedWhenRun(startedAt) === parkedWhenRun(Date.now());
    if (sameChoice && parkedWhenRun(Date.now()))
      expect(Item?.message).toMatchObject({ tenantId: tenant.tenantId, day: next.day, dueAt: next.dueAt.toISOString() });
    else if (sameChoice) expect(Item).toBeUndefined();
  });
});
