import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { DATASET_IDS, DATASETS, glueColumnsOf } from '../../shared/analytics/datasets.js';
import {
  allWritten,
  analyticsExport,
  answerRow,
  caseRow,
  localDaysOfUtcDay,
  pseudonymOf,
  surveyRow,
  userPseudonymOf,
  WRITE_START,
  type WriteAt,
} from '../../shared/analytics/export.js';
import { parquetFile, streamParquet, type ParquetState } from '../../shared/analytics/parquet.js';
import {
  UploadGone,
  type AnalyticsFiles,
  type DayAnswer,
  type DayCase,
  type DayRecords,
  type UploadedPart,
} from '../../shared/analytics/ports.js';
import { nextExport, settledDay } from '../../shared/analytics/schedule.js';

/** How a Parquet reader (DuckDB) names each type, in the Hive DDL Glue declares: the file's own view of its columns. */
const HIVE_OF_DUCKDB: Record<string, string> = {
  INTEGER: 'int',
  BIGINT: 'bigint',
  VARCHAR: 'string',
  TIMESTAMP: 'timestamp',
  'VARCHAR[]': 'array<string>',
};

/** The columns of a Parquet file as DuckDB reads them: name and type. */
async function columnsOfFile(bytes: Uint8Array): Promise<{ name: string; type: string }[]> {
  const directory = mkdtempSync(join(tmpdir(), 'analytics-schema-'));
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const file = join(directory, 'part-0.parquet');
    writeFileSync(file, bytes);
    const reader = await (await instance.connect()).runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    return (reader.getRowObjectsJson() as { column_name: string; column_type: string }[]).map((row) => ({
      name: row.column_name,
      type: HIVE_OF_DUCKDB[row.column_type] ?? row.column_type,
    }));
  } finally {
    instance.closeSync();
    rmSync(directory, { recursive: true, force: true });
  }
}

const answer: DayAnswer = {
  transactionId: 2 ** 40,
  customerId: 9,
  journeyId: 1,
  storeId: 4,
  employeeId: 1,
  source: 'api',
  channel: 'email',
  score: 2,
  items: [{ classId: 3, score: 4 }],
  comment: 'Demorou',
  sentiment: 'NEGATIVE',
  themes: ['fila'],
  createdAt: '2026-11-26T12:00:00.000Z',
  sentAt: '2026-11-26T12:01:00.000Z',
  answeredAt: '2026-11-26T13:00:00.000Z',
};

describe('the analytics datasets', () => {
  it.each(DATASET_IDS)('declare to Glue the columns and types the Parquet writer puts in the %s file, in its order', async (dataset) => {
    const glue = glueColumnsOf(dataset).map(({ name, type }) => ({ name, type }));
    // An empty day: the file is typed from the columns, not from rows.
    const parts: Uint8Array[] = [];
    await streamParquet({ columns: DATASETS[dataset], pages: (async function* () {})(), part: async (bytes) => void parts.push(bytes) });
    expect(await columnsOfFile(new Uint8Array(Buffer.concat(parts)))).toEqual(glue);
  });

  it("gives an answer its store's own region, and none to a store in no region", () => {
    const context = { indicatorOf: () => 'nps' as const, comments: false, customerKey: () => 'k' };
    const regionOf = (store: number) => (store === 4 ? 12 : undefined);
    expect(answerRow(answer, { ...context, regionOf })).toMatchObject({ store_id: 4, region_id: 12, bucket: 'detractor', comment: null });
    expect(answerRow({ ...answer, storeId: 5 }, { ...context, regionOf })).toMatchObject({ store_id: 5, region_id: null });
  });
});

const openedCase: DayCase = {
  transactionId: 77,
  customerId: 9,
  journeyId: 1,
  storeId: 4,
  employeeId: 2,
  score: 2,
  owner: 'gerente@loja.test',
  status: 'resolved',
  openedAt: '2026-11-26T13:01:00.000Z',
  dueAt: '2026-11-27T13:01:00.000Z',
  overdueAt: null,
  firstContactAt: '2026-11-26T15:00:00.000Z',
  closedAt: '2026-11-28T10:00:00.000Z',
  rootCause: 'Atendimento',
  recovery: 'recovered',
  recoveryScore: 9,
};

describe('the surveys and cases rows', () => {
  const key = 'chave-do-tenant';
  const customerKey = (id: number) => pseudonymOf(key, id);
  const userKey = (user: string) => userPseudonymOf(key, user);

  it("name a case's owner by a pseudonym of their own, never their e-mail address, and its customer as the answers do", () => {
    const row = caseRow(openedCase, { customerKey, userKey });
    expect(JSON.stringify(row)).not.toContain('gerente');
    expect(row).toMatchObject({
      customer_key: customerKey(9),
      owner_key: userKey('gerente@loja.test'),
      status: 'resolved',
      recovery: 'recovered',
    });
    expect(row.owner_key).toMatch(/^[\w-]{22}$/);
    expect(userKey('gerente@loja.test')).not.toBe(userPseudonymOf('outra-chave', 'gerente@loja.test'));
    expect(caseRow({ ...openedCase, owner: null, customerId: null, closedAt: null }, { customerKey, userKey })).toMatchObject({
      owner_key: null,
      customer_key: null,
      closed_at: null,
    });
    expect(Object.keys(row)).toEqual(DATASETS.cases.map((column) => column.name));
  });

  it("give a survey's outcome, channel and attempts, and its customer only while they are not erased", () => {
    const survey = {
      transactionId: 5,
      customerId: null,
      journeyId: 1,
      storeId: 4,
      employeeId: 2,
      outcome: 'failed',
      reason: 'undeliverable',
      channel: 'sms',
      attempts: 2,
      createdAt: '2026-11-26T12:00:00.000Z',
      sentAt: '2026-11-26T12:01:00.000Z',
      answeredAt: null,
    };
    const row = surveyRow(survey, customerKey);
    expect(row).toMatchObject({ customer_key: null, outcome: 'failed', reason: 'undeliverable', attempts: 2, answered_at: null });
    expect(Object.keys(row)).toEqual(DATASETS.surveys.map((column) => column.name));
  });
});

/** A Parquet file's rows and row groups as DuckDB reads them. */
async function readBack(bytes: Uint8Array): Promise<{ rows: unknown[]; groups: number }> {
  const directory = mkdtempSync(join(tmpdir(), 'analytics-parts-'));
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const file = join(directory, 'part-0.parquet');
    writeFileSync(file, bytes);
    const connection = await instance.connect();
    const rows = (
      await connection.runAndReadAll(`SELECT transaction_id, score FROM read_parquet('${file}') ORDER BY 1`)
    ).getRowObjectsJson();
    const [meta] = (
      await connection.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${file}')`)
    ).getRowObjectsJson();
    return { rows, groups: Number(meta!.n) };
  } finally {
    instance.closeSync();
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('a day streamed in parts', () => {
  const context = { indicatorOf: () => 'nps' as const, comments: false, customerKey: () => 'k', regionOf: () => undefined };
  async function* pagesOf(count: number) {
    for (let i = 0; i < count; i += 2)
      yield Array.from({ length: Math.min(2, count - i) }, (_, j) =>
        answerRow({ ...answer, transactionId: i + j, score: (i + j) % 11 }, context),
      );
  }

  it('is one Parquet file made of its parts, a row group per rowGroupRows rows, that reads back whole', async () => {
    const parts: Uint8Array[] = [];
    const written = await streamParquet({
      columns: DATASETS.answers,
      pages: pagesOf(5),
      part: async (bytes) => void parts.push(bytes),
      limits: {
        rowGroupRows: 2,
        partBytes: 1,
      },
    });
    expect(written).toEqual({ rows: 5, groups: 3, parts: 4 });
    const file = new Uint8Array(Buffer.concat(parts));
    const back = await readBack(file);
    expect(back.groups).toBe(3);
    expect(back.rows).toEqual([0, 1, 2, 3, 4].map((i) => ({ transaction_id: String(i), score: i })));
    // Parts are at least partBytes but the last: with the default, a small day is one part.
    const one: Uint8Array[] = [];
    expect(await streamParquet({ columns: DATASETS.answers, pages: pagesOf(5), part: async (bytes) => void one.push(bytes) })).toEqual({
      rows: 5,
      groups: 1,
      parts: 1,
    });
  });
});

describe('a Parquet file written in links', () => {
  // 7.7 s alone on a machine at load 7, 34 s in the whole unit tier there: sized for that, not for an idle machine.
  it(
    'is byte for byte the file one run writes, saved after every row group and taken up again from what was saved',
    { timeout: 90_000 },
    async () => {
      // Long comments: a row group's comment column spans several pages, so its chunks carry offset indexes too.
      const rows = Array.from({ length: 23 }, (_, i) =>
        answerRow(
          { ...answer, transactionId: i, score: i % 11, comment: `${i} `.repeat(120_000 + i * 997) },
          {
            indicatorOf: () => 'nps',
            comments: true,
            customerKey: (id) => `k${id}`,
            regionOf: () => (i % 2 ? 1 : undefined),
          },
        ),
      );
      const limits = { rowGroupRows: 4, partBytes: 300_000 };
      const once: Uint8Array[] = [];
      const file = parquetFile(DATASETS.answers, { part: async (bytes) => void once.push(bytes), limits });
      for (const row of rows) await file.add(row);
      expect(await file.finish()).toEqual({ rows: 23, groups: 6 });

      const linked: Uint8Array[] = [];
      let saved: ParquetState | undefined;
      let links = 0;
      for (let next = 0; ; links++) {
        // Each link a new writer from the last one's state, as another invocation would make it.
        const link = parquetFile(DATASETS.answers, { part: async (bytes) => void linked.push(bytes), limits, saved });
        while (next < rows.length && !(await link.add(rows[next++]!)));
        if (next === rows.length) {
          await link.finish();
          break;
        }
        saved = link.save();
      }
      expect(links).toBe(5);
      expect(Buffer.concat(linked).equals(Buffer.concat(once))).toBe(true);
      // The parts the links sent are those of the one run: each at least partBytes, but the last.
      expect(linked.map((part) => part.byteLength)).toEqual(once.map((part) => part.byteLength));
      const back = await readBack(new Uint8Array(Buffer.concat(linked)));
      expect(back.rows).toEqual(rows.map((_, i) => ({ transaction_id: String(i), score: i % 11 })));
    },
  );
});

describe('a day written in links', () => {
  /** A bucket in memory: an object shows once its upload is completed, made of its parts in their numbers' order. */
  function memoryFiles() {
    const objects = new Map<string, Buffer>();
    const uploads = new Map<string, Map<number, Uint8Array>>();
    let begun = 0;
    // As S3 does, an upload completed takes no part nor completion any more.
    const open = (id: string) => {
      if (!uploads.has(id)) throw new UploadGone(id);
      return uploads.get(id)!;
    };
    const files: AnalyticsFiles = {
      begin: async (key) => {
        const id = `${key}#${begun++}`;
        uploads.set(id, new Map());
        return id;
      },
      part: async (_key, { uploadId: id, n, bytes }) => (open(id).set(n, bytes.slice()), `etag-${n}`),
      complete: async (key, id, parts: UploadedPart[]) => {
        const upload = open(id);
        objects.set(key, Buffer.concat(parts.map((p) => upload.get(p.n)!)));
        uploads.delete(id);
      },
      exists: async (key) => objects.has(key),
      remove: async (key) => void objects.delete(key),
      keep: async () => {},
      read: async () => '',
    };
    return { files, objects, uploads };
  }
  // A day of 7 answers in pages of 3 (a cursor per page), and no survey or case.
  const answers: DayRecords<DayAnswer> = {
    async *between(_tenantId, { start }) {
      for (let page = start ? Number(start.key?.page) : 0; page * 3 < 7; page++)
        yield {
          records: Array.from({ length: Math.min(3, 7 - page * 3) }, (_, i) => ({ ...answer, transactionId: page * 3 + i, score: i })),
          at: { partition: 0, key: { page } },
        };
    },
  };
  const none = { async *between() {} };
  const exporter = (files: AnalyticsFiles) =>
    analyticsExport(
      {
        answers,
        surveys: none,
        cases: none,
        dirty: { list: async () => [], clear: async () => {} },
        files,
        settings: async () => ({ journeys: [], timeZone: 'UTC' }),
        pseudonymKey: async () => 'key',
      },
      { limits: { rowGroupRows: 2, partBytes: 1 } },
    );
  const job = { tenantId: 1, days: ['2026-11-26'] };

  it('gives, link after link from what each saved, the objects one run writes, byte for byte', async () => {
    const once = memoryFiles();
    expect(allWritten(job, (await exporter(once.files).writeDays(job, WRITE_START)).at)).toBe(true);

    const linked = memoryFiles();
    // Each link stops at its first row group or object completed, and saves its place as JSON, as a chain keeps it.
    let at: WriteAt = WRITE_START;
    let saved: string | undefined;
    let links = 0;
    for (; !allWritten(job, at); links++) {
      const stop = await exporter(linked.files).writeDays(job, at, { saved, due: () => true });
      at = JSON.parse(JSON.stringify(stop.at)) as WriteAt;
      saved = stop.saved;
    }
    // The answers' 4 row groups (a link each, the last of them completing the object); surveys and cases: a link each.
    expect(links).toBe(4 + 2);
    expect([...linked.objects.keys()]).toEqual([...once.objects.keys()]);
    for (const [key, bytes] of once.objects) expect(linked.objects.get(key)!.equals(bytes), key).toBe(true);
    const back = await readBack(new Uint8Array(linked.objects.get('answers/tenant=1/date=2026-11-26/part-0.parquet')!));
    expect(back.rows).toHaveLength(7);
  });

  it('writes an object again from its first row when a link completed it and died before saving so', async () => {
    const once = memoryFiles();
    await exporter(once.files).writeDays(job, WRITE_START);
    const linked = memoryFiles();
    // Links up to the answers' first row group (surveys, cases, then the answers' first stop).
    let stop: { at: WriteAt; saved?: string | undefined } = { at: WRITE_START };
    for (let link = 0; link < 3; link++)
      stop = await exporter(linked.files).writeDays(job, stop.at, { saved: stop.saved, due: () => true });
    expect(stop.at).toMatchObject({ dataset: 2, upload: expect.anything() });
    // A link that completes the answers' object, then dies: its end is never saved.
    await exporter(linked.files).writeDays(job, stop.at, { saved: stop.saved });
    // Its retry goes on from the last save: that upload is no more, so the object is written again whole.
    expect(allWritten(job, (await exporter(linked.files).writeDays(job, stop.at, { saved: stop.saved })).at)).toBe(true);
    for (const [key, bytes] of once.objects) expect(linked.objects.get(key)!.equals(bytes), key).toBe(true);
    expect(linked.uploads.size).toBe(0);
  });
});

describe('a late change', () => {
  it("marks a UTC day, which is the tenant's one day in UTC and two elsewhere", () => {
    expect(localDaysOfUtcDay('2026-11-26', 'UTC')).toEqual(['2026-11-26']);
    // São Paulo (UTC-3): 00:00-02:59 UTC is the day before there.
    expect(localDaysOfUtcDay('2026-11-26', 'America/Sao_Paulo')).toEqual(['2026-11-25', '2026-11-26']);
    // Kolkata (UTC+5:30): from 18:30 UTC it is the next day there.
    expect(localDaysOfUtcDay('2026-11-26', 'Asia/Kolkata')).toEqual(['2026-11-26', '2026-11-27']);
  });
});

describe('the daily analytics run', () => {
  it('writes once more the day whose surveys have all been sent and answered or lapsed, unless retention deleted it', () => {
    const journey = (surveyValidityDays: number, firstWait?: number) => ({
      surveyValidityDays,
      ...(firstWait === undefined ? {} : { attempts: [{ afterMinutes: firstWait }] }),
    });
    const settings = (journeys: ReturnType<typeof journey>[], retentionDays?: number) => ({
      journeys,
      ...(retentionDays ? { privacy: { retentionDays } } : {}),
    });
    // Sent the same day (a night of quiet hours at most), valid 7 days, and a day for the zone: 9 days back.
    expect(settledDay('2026-11-26', settings([journey(7)]))).toBe('2026-11-17');
    // The journey that settles last decides: a first attempt 2 days after the sale (2,880 minutes), valid 30 days.
    expect(settledDay('2026-11-26', settings([journey(7), journey(30, 2880)]))).toBe('2026-10-23');
    // A day past the tenant's retention is deleted by the run, not written again.
    expect(settledDay('2026-11-26', settings([journey(7)], 8))).toBeUndefined();
    expect(settledDay('2026-11-26', settings([journey(7)], 10))).toBe('2026-11-17');
    expect(settledDay('2026-11-26', settings([]))).toBeUndefined();
  });

  it("is due 30 minutes past the tenant's coming midnight, and writes the day that ended", () => {
    const at = (now: string, zone: string) => {
      const { day, dueAt } = nextExport(new Date(now), zone);
      return [day, dueAt.toISOString()];
    };
    // São Paulo is UTC-3: its midnight is 03:00 UTC.
    expect(at('2026-11-26T15:00:00Z', 'America/Sao_Paulo')).toEqual(['2026-11-26', '2026-11-27T03:30:00.000Z']);
    // Between the midnight and the run: the run of the day that just ended is still to come.
    expect(at('2026-11-27T03:10:00Z', 'America/Sao_Paulo')).toEqual(['2026-11-26', '2026-11-27T03:30:00.000Z']);
    expect(at('2026-11-27T03:30:00Z', 'America/Sao_Paulo')).toEqual(['2026-11-27', '2026-11-28T03:30:00.000Z']);
    // Ahead of UTC: Tokyo's midnight is 15:00 UTC the day before.
    expect(at('2026-11-26T16:00:00Z', 'Asia/Tokyo')).toEqual(['2026-11-27', '2026-11-27T15:30:00.000Z']);
    // New York leaves daylight time on 2026-11-01: that midnight is at UTC-4, the next at UTC-5.
    expect(at('2026-11-01T12:00:00Z', 'America/New_York')).toEqual(['2026-11-01', '2026-11-02T05:30:00.000Z']);
    expect(at('2026-10-31T12:00:00Z', 'America/New_York')).toEqual(['2026-10-31', '2026-11-01T04:30:00.000Z']);
  });
});
