import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance, DuckDBTypeId, type DuckDBResultReader } from '@duckdb/node-api';
import { DATASET_IDS, DATASETS, datasetPrefix, tenantPrefix, type ColumnType } from '../shared/analytics/datasets.js';
import {
  SAVED_QUERIES,
  savedQueryOfFile,
  savedQuerySql,
  savedQueryValues,
  type SavedQueryId,
  type SavedQueryParam,
} from '../shared/analytics/queries.js';
import { ENV } from '../shared/config.js';
import { LOCAL_ANALYTICS_BUCKET, LOCAL_CREDENTIALS, LOCAL_REGION } from './local/services.js';

// The SDK warns that its 2027 releases need Node 22; this machine's Node 20 is supported until then.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const savedList = Object.values(SAVED_QUERIES)
  .map(
    (saved) =>
      `  ${saved.file}${(saved.params as readonly SavedQueryParam[]).includes('region') ? ' [--region ID]' : ''}\n      ${saved.description}`,
  )
  .join('\n');

const HELP = `Usage: npm run analytics -- --tenant ID --query NAME [--region ID]
       npm run analytics -- --tenant ID "SQL"

Runs a saved query (by its name, with its parameters), or SQL, with DuckDB over one tenant's days of the analytics
export: only that tenant's Parquet files are read from the local stack's bucket (${ENV.analyticsBucket}, default
${LOCAL_ANALYTICS_BUCKET}, at AWS_ENDPOINT_URL_S3, default http://127.0.0.1:$S3_PORT or 8007), loaded into tables named
as Athena's (${DATASET_IDS.join(', ')}; the partition columns tenant and date come from the objects' keys), and then
DuckDB's access to files and the network is switched off and its configuration locked: the SQL reads those tables
and nothing else. Prints the rows as JSON lines (counts as numbers).

Saved queries (shared/analytics/queries/):
${savedList}`;

/** DuckDB's type of each column type, for a dataset with no file yet (an empty table of the same columns). */
const DUCKDB_TYPES: Record<ColumnType, string> = {
  int: 'INTEGER',
  bigint: 'BIGINT',
  string: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  strings: 'VARCHAR[]',
};

/** DuckDB's integer types that JSON gives as strings (beyond 32 bits): a count, a sum. */
const WIDE_INTEGERS = new Set([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);

/** Every object of the bucket under `prefix`, written under `directory` at its key. */
async function download(client: S3Client, bucket: string, prefix: string, directory: string): Promise<number> {
  let files = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const { Key } of page.Contents ?? []) {
      if (!Key?.endsWith('.parquet')) continue;
      const body = await (await client.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToByteArray();
      mkdirSync(dirname(join(directory, Key)), { recursive: true });
      writeFileSync(join(directory, Key), body);
      files++;
    }
    token = page.NextContinuationToken;
  } while (token);
  return files;
}

/** The rows as plain objects: dates as strings, integers as numbers (a string only past 2^53). */
function rowsOf(reader: DuckDBResultReader): Record<string, unknown>[] {
  const wide = reader.columnNames().filter((_, i) => WIDE_INTEGERS.has(reader.columnTypes()[i]!.typeId));
  return (reader.getRowObjectsJson() as Record<string, unknown>[]).map((row) => {
    for (const name of wide) {
      const value = row[name];
      if (typeof value === 'string' && Number.isSafeInteger(Number(value))) row[name] = Number(value);
    }
    return row;
  });
}

/**
 * The rows of `sql` (its `?` bound to `values`, in order) over one tenant's datasets. Only the tenant's objects are
 * read; once loaded, DuckDB may read or write no file and reach no network, and the SQL may not change that.
 */
export async function query(tenantId: number, sql: string, values: (string | number | null)[] = []): Promise<Record<string, unknown>[]> {
  const client = new S3Client({
    region: process.env.AWS_REGION ?? LOCAL_REGION,
    endpoint: process.env.AWS_ENDPOINT_URL_S3 ?? `http://127.0.0.1:${process.env.S3_PORT ?? 8007}`,
    forcePathStyle: true,
    credentials: LOCAL_CREDENTIALS,
  });
  const bucket = process.env[ENV.analyticsBucket] ?? LOCAL_ANALYTICS_BUCKET;
  const directory = mkdtempSync(join(tmpdir(), 'survey-analytics-'));
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const connection = await instance.connect();
    for (const dataset of DATASET_IDS) {
      const prefix = `${datasetPrefix(dataset)}${tenantPrefix(tenantId)}`;
      const files = await download(client, bucket, prefix, directory);
      const path = join(directory, prefix, '*', '*.parquet').replaceAll("'", "''");
      const empty = DATASETS[dataset].map((c) => `CAST(NULL AS ${DUCKDB_TYPES[c.type]}) AS ${c.name}`).join(', ');
      await connection.run(
        files
          ? `CREATE TABLE ${dataset} AS SELECT * FROM read_parquet('${path}', hive_partitioning = true, union_by_name = true)`
          : `CREATE TABLE ${dataset} AS SELECT ${empty}, CAST(NULL AS BIGINT) AS tenant, CAST(NULL AS DATE) AS date LIMIT 0`,
      );
    }
    await connection.run('SET enable_external_access = false');
    await connection.run('SET lock_configuration = true');
    return rowsOf(await connection.runAndReadAll(sql, values));
  } finally {
    instance.closeSync();
    client.destroy();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A saved query's rows for one tenant, with its other parameters (`region`: one region's stores only). */
export const savedQuery = (tenantId: number, id: SavedQueryId, given: { region?: number } = {}) =>
  query(tenantId, savedQuerySql(id), savedQueryValues(id, tenantId, given));

class UsageError extends Error {}

const positive = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer.`);
  return Number(value);
};

async function run(argv: string[]): Promise<Record<string, unknown>[] | undefined> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tenant: { type: 'string' }, query: { type: 'string' }, region: { type: 'string' }, help: { type: 'boolean' } },
  });
  const sql = positionals.join(' ').trim();
  if (values.help || (!sql && !values.query)) return void console.log(HELP);
  const tenantId = positive(values.tenant, 'tenant');
  if (!tenantId) throw new UsageError('--tenant ID is required: a query reads one tenant’s days.');
  if (values.query === undefined) {
    if (values.region !== undefined) throw new UsageError('--region goes with a saved query (--query NAME); write it into your SQL.');
    return query(tenantId, sql);
  }
  if (sql) throw new UsageError('give --query NAME or SQL, not both.');
  const id = savedQueryOfFile(values.query);
  if (!id)
    throw new UsageError(
      `no saved query "${values.query}": ${Object.values(SAVED_QUERIES)
        .map((saved) => saved.file)
        .join(', ')}.`,
    );
  const region = positive(values.region, 'region');
  if (region !== undefined && !(SAVED_QUERIES[id].params as readonly SavedQueryParam[]).includes('region'))
    throw new UsageError(`${values.query} takes no --region.`);
  return savedQuery(tenantId, id, { region });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    for (const row of (await run(process.argv.slice(2))) ?? []) console.log(JSON.stringify(row));
  } catch (error) {
    console.error(`analytics: ${(error as Error).message}`);
    process.exit(1);
  }
}
