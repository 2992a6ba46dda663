import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { DATASET_IDS, DATASETS, datasetPrefix, type ColumnType } from '../shared/analytics/datasets.js';
import { ENV } from '../shared/config.js';
import { LOCAL_ANALYTICS_BUCKET, LOCAL_CREDENTIALS, LOCAL_REGION } from './local/services.js';

// The SDK warns that its 2027 releases need Node 22; this machine's Node 20 is supported until then.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HELP = `Usage: npm run analytics -- "SQL"

Runs SQL with DuckDB over the analytics export's Parquet files in the local stack's bucket (${ENV.analyticsBucket},
default ${LOCAL_ANALYTICS_BUCKET}, at AWS_ENDPOINT_URL_S3, default http://127.0.0.1:$S3_PORT or 8007), read through
the S3 API into a temporary directory, as views named as Athena's tables: ${DATASET_IDS.join(', ')}. The partition
columns tenant and date come from the objects' keys, as in Athena. Prints the rows as JSON lines.`;

/** DuckDB's type of each column type, for a dataset with no file yet (an empty view of the same columns). */
const DUCKDB_TYPES: Record<ColumnType, string> = {
  int: 'INTEGER',
  bigint: 'BIGINT',
  string: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  strings: 'VARCHAR[]',
};

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

/** The rows of `sql` over the bucket's datasets, as plain objects (dates and big integers as strings). */
export async function query(sql: string): Promise<Record<string, unknown>[]> {
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
      const files = await download(client, bucket, datasetPrefix(dataset), directory);
      const path = join(directory, dataset, '*', '*', '*.parquet').replaceAll("'", "''");
      const empty = DATASETS[dataset].map((c) => `CAST(NULL AS ${DUCKDB_TYPES[c.type]}) AS ${c.name}`).join(', ');
      await connection.run(
        files
          ? `CREATE VIEW ${dataset} AS SELECT * FROM read_parquet('${path}', hive_partitioning = true, union_by_name = true)`
          : `CREATE VIEW ${dataset} AS SELECT ${empty}, CAST(NULL AS BIGINT) AS tenant, CAST(NULL AS DATE) AS date LIMIT 0`,
      );
    }
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    instance.closeSync();
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sql = process.argv.slice(2).join(' ').trim();
  if (!sql || sql === '--help') console.log(HELP);
  else
    try {
      for (const row of await query(sql)) console.log(JSON.stringify(row));
    } catch (error) {
      console.error(`analytics: ${(error as Error).message}`);
      process.exit(1);
    }
}
