import { Duration, Stack } from 'aws-cdk-lib';
import { CfnNamedQuery, CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Bucket, CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { DATASET_IDS, datasetPrefix, glueColumnsOf, LINKS_PREFIX, PARTITIONS, type DatasetId } from '../../shared/analytics/datasets.js';
import { SAVED_QUERIES, savedQuerySql, type SavedQueryId } from '../../shared/analytics/queries.js';
import { acknowledgeAnalystPolicy, acknowledgeAnalyticsBucket, acknowledgeAthenaResultsBucket } from './acknowledgments.js';
import { privateBucket } from './private-bucket.js';

/** The longest retention a tenant may set (PrivacyConfig.retentionDays): the lifecycle's backstop past every tenant's own. */
const MAX_RETENTION_DAYS = 3650;

/**
 * The analytics bucket (shared/analytics/): private, TLS only, encrypted, owned by the account, retained like the
 * table. Each tenant's days are deleted past its own retention by the export (expireDays); the lifecycle removes what
 * is older than the longest retention any tenant may set.
 */
export function analyticsBucket(scope: Construct): Bucket {
  const bucket = privateBucket(scope, 'AnalyticsBucket', [
    { id: 'PastAnyRetention', expiration: Duration.days(MAX_RETENTION_DAYS + 1) },
    // A day written in parts that failed half-way is never completed (the export may not abort it): its parts go.
    { id: 'IncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    // The file a chain's link kept for the next one (datasets.ts linkKeyOf), left by a chain that died.
    { id: 'ChainLinks', prefix: LINKS_PREFIX, expiration: Duration.days(2) },
  ]);
  acknowledgeAnalyticsBucket(bucket);
  return bucket;
}

/** Athena's projection of the `date` partition: every day from this one to tomorrow (a tenant east of UTC is ahead). */
export const PROJECTED_DAYS = '2020-01-01,NOW+1DAYS';
/**
 * The most a query of the workgroup may scan: 10 GB, $0.05 at Athena's $5 per TB. A month of a 10-million-a-day
 * tenant's answers is ~90 million rows; a saved query reads three or four of their columns, about 1 GB of Parquet.
 */
export const BYTES_SCANNED_PER_QUERY = 10 * 1024 ** 3;
/** Query results are kept this long in the results bucket (the console shows them again; the history keeps 45 days). */
const RESULT_DAYS = 7;

const PARQUET = {
  inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
  serdeInfo: { serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
};

/** A dataset's Glue table: its columns from datasets.ts, its partitions projected from the keys (no crawler, no partition to add). */
export const glueTableInput = (dataset: DatasetId, bucketName: string): CfnTable.TableInputProperty => {
  const location = `s3://${bucketName}/${datasetPrefix(dataset)}`;
  return {
    name: dataset,
    tableType: 'EXTERNAL_TABLE',
    partitionKeys: PARTITIONS.map((p) => ({ name: p.name, type: p.type, comment: p.about })),
    parameters: {
      classification: 'parquet',
      'projection.enabled': 'true',
      'projection.tenant.type': 'injected',
      'projection.date.type': 'date',
      'projection.date.format': 'yyyy-MM-dd',
      'projection.date.range': PROJECTED_DAYS,
      'projection.date.interval': '1',
      'projection.date.interval.unit': 'DAYS',
      // The keys objectKeyOf writes: `<dataset>/tenant=<id>/date=<day>/`.
      'storage.location.template': `${location}tenant=\${tenant}/date=\${date}/`,
    },
    storageDescriptor: { columns: glueColumnsOf(dataset), location, ...PARQUET },
  };
};

/**
 * What an analyst queries the analytics bucket with: a Glue database with a table per dataset, an Athena workgroup that
 * enforces its own settings (results encrypted in a bucket of their own, a byte limit per query), and the saved
 * queries (shared/analytics/queries/, the SQL the DuckDB test runs) as named queries of that workgroup.
 */
export function analyticsCatalog(
  scope: Construct,
  bucket: IBucket,
): { database: CfnDatabase; workGroup: CfnWorkGroup; analystPolicy: ManagedPolicy } {
  const stack = Stack.of(scope);
  const database = new CfnDatabase(scope, 'AnalyticsDatabase', {
    catalogId: stack.account,
    databaseInput: {
      // Glue and Athena names: lower case, digits and underscores.
      name: `${stack.stackName.toLowerCase().replace(/[^a-z0-9]/g, '_')}_analytics`,
      description: "The survey service's analytics export (docs/analytics.md): a table per dataset, a prefix per tenant",
    },
  });
  for (const dataset of DATASET_IDS) {
    new CfnTable(scope, `Analytics${dataset[0]!.toUpperCase()}${dataset.slice(1)}Table`, {
      catalogId: stack.account,
      databaseName: database.ref,
      tableInput: glueTableInput(dataset, bucket.bucketName),
    });
  }
  const results = privateBucket(scope, 'AthenaResultsBucket', [{ id: 'QueryResults', expiration: Duration.days(RESULT_DAYS) }]);
  acknowledgeAthenaResultsBucket(results);
  const workGroup = new CfnWorkGroup(scope, 'AnalyticsWorkGroup', {
    name: `${stack.stackName}-analytics`,
    description: "The tenants' analysts' queries of the analytics export",
    workGroupConfiguration: {
      enforceWorkGroupConfiguration: true,
      publishCloudWatchMetricsEnabled: true,
      bytesScannedCutoffPerQuery: BYTES_SCANNED_PER_QUERY,
      engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
      resultConfiguration: {
        outputLocation: `s3://${results.bucketName}/`,
        encryptionConfiguration: { encryptionOption: 'SSE_S3' },
      },
    },
  });
  for (const [id, saved] of Object.entries(SAVED_QUERIES) as [SavedQueryId, (typeof SAVED_QUERIES)[SavedQueryId]][])
    new CfnNamedQuery(scope, `Query${id[0]!.toUpperCase()}${id.slice(1)}`, {
      name: saved.file,
      description: saved.description,
      database: database.ref,
      workGroup: workGroup.ref,
      queryString: savedQuerySql(id),
    });
  const analystPolicy = analystManagedPolicy(scope, { bucket, results, database, workGroup });
  return { database, workGroup, analystPolicy };
}

/** The tenant an analyst's role or user is tagged with (`tenant` = its id): IAM resolves it per request. */
export const ANALYST_TENANT = '${aws:PrincipalTag/tenant}';

/**
 * One tenant's analysts, as a managed policy to attach to their role or users, each tagged `tenant` = the tenant's id:
 * Athena in the analytics workgroup only (its saved queries, no list of others' queries), the catalogue read only,
 * the analytics bucket's objects under the tenant's prefix of each dataset only (Athena reads them with the analyst's
 * own credentials: a query naming another tenant fails with Access Denied), and the workgroup's results. Without the
 * tag, the S3 statements match nothing.
 */
function analystManagedPolicy(
  scope: Construct,
  { bucket, results, database, workGroup }: { bucket: IBucket; results: IBucket; database: CfnDatabase; workGroup: CfnWorkGroup },
): ManagedPolicy {
  const stack = Stack.of(scope);
  const glue = (resource: string) => stack.formatArn({ service: 'glue', resource, resourceName: undefined });
  const prefixes = DATASET_IDS.map((dataset) => `${datasetPrefix(dataset)}tenant=${ANALYST_TENANT}/`);
  const policy = new ManagedPolicy(scope, 'AnalystPolicy', {
    description: "One tenant's analysts (role or user tagged tenant=<id>): Athena's analytics workgroup, that tenant's days",
    statements: [
      new PolicyStatement({
        sid: 'AthenaWorkGroup',
        actions: [
          'athena:StartQueryExecution',
          'athena:GetQueryExecution',
          'athena:GetQueryResults',
          'athena:StopQueryExecution',
          'athena:GetWorkGroup',
          'athena:ListNamedQueries',
          'athena:GetNamedQuery',
          'athena:BatchGetNamedQuery',
        ],
        resources: [stack.formatArn({ service: 'athena', resource: 'workgroup', resourceName: workGroup.ref })],
      }),
      new PolicyStatement({
        sid: 'GlueCatalogRead',
        actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetTables', 'glue:GetPartitions'],
        resources: [glue('catalog'), glue(`database/${database.ref}`), glue(`table/${database.ref}/*`)],
      }),
      new PolicyStatement({
        sid: 'TenantDays',
        actions: ['s3:GetObject'],
        resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
      }),
      new PolicyStatement({
        sid: 'TenantDaysList',
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': prefixes.map((prefix) => `${prefix}*`) } },
      }),
      new PolicyStatement({
        sid: 'QueryResults',
        actions: ['s3:GetBucketLocation', 's3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        resources: [results.bucketArn, results.arnForObjects('*')],
      }),
    ],
  });
  const logicalId = (construct: IBucket) => stack.getLogicalId(construct.node.defaultChild as CfnBucket);
  acknowledgeAnalystPolicy(policy, DATASET_IDS, logicalId(bucket), logicalId(results));
  return policy;
}
