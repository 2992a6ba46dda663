import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { type ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ENV } from '../../shared/config.js';
import { acknowledgeStackFindings } from '../constructs/acknowledgments.js';
import { analyticsBucket, analyticsCatalog } from '../constructs/analytics.js';
import { exportBucket } from '../constructs/exports.js';
import { logoBucket } from '../constructs/logos.js';
import { Managers } from '../constructs/managers.js';
import { Storage } from '../constructs/storage.js';
import type { SecretId } from '../grants.js';

/** The table and the secrets: retained on deletion, deployed once and rarely changed. */
export class SurveyDataStack extends Stack {
  readonly table: Table;
  readonly secrets: Record<SecretId, Secret>;
  readonly managers: Managers;
  /** The tenants' logos (shared/brand/logo.ts): private, objects named by their content's hash. */
  readonly logoBucket: Bucket;
  /** The tenants' analytics days (shared/analytics/): private, a prefix per tenant. */
  readonly analyticsBucket: Bucket;
  /** The workspace's answer exports (shared/answers/export.ts): private, each file expired after a day. */
  readonly exportBucket: Bucket;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    ({ table: this.table, secrets: this.secrets } = new Storage(this));
    this.logoBucket = logoBucket(this);
    new CfnOutput(this, 'LogoBucketName', {
      value: this.logoBucket.bucketName,
      exportName: this.logoBucketNameExport,
      description: `The tenants' logos: the admin command uploads a tenant file's logo here (${ENV.logoBucket}=<this>)`,
    });
    this.exportBucket = exportBucket(this);
    new CfnOutput(this, 'ExportBucketName', {
      value: this.exportBucket.bucketName,
      exportName: this.exportBucketNameExport,
      description: `The workspace's answer exports, each file expired after a day (${ENV.exportBucket}=<this>)`,
    });
    this.analyticsBucket = analyticsBucket(this);
    new CfnOutput(this, 'AnalyticsBucketName', {
      value: this.analyticsBucket.bucketName,
      exportName: this.analyticsBucketNameExport,
      description: `The analytics export's Parquet files (docs/analytics.md): the admin command's export writes here (${ENV.analyticsBucket}=<this>)`,
    });
    const { database, workGroup, analystPolicy } = analyticsCatalog(this, this.analyticsBucket);
    new CfnOutput(this, 'AnalyticsWorkGroupName', {
      value: workGroup.ref,
      description: `The Athena workgroup of the analytics export's tables (Glue database ${database.ref}; docs/analytics.md)`,
    });
    new CfnOutput(this, 'AnalystPolicyArn', {
      value: analystPolicy.managedPolicyArn,
      description: "Attach to a tenant's analysts' role or users, tagged tenant=<its id>: Athena over that tenant's days only",
    });
    this.managers = new Managers(this);
    new CfnOutput(this, 'UserPoolId', {
      value: this.managers.userPool.userPoolId,
      description: 'npm run admin -- create-user needs it (USER_POOL_ID)',
    });
    acknowledgeStackFindings(
      this,
      this.tableArnExport,
      this.logoBucketNameExport,
      this.analyticsBucketNameExport,
      this.exportBucketNameExport,
    );
    // Exported by name: the service's roles name `<this ARN>/index/*`, whose finding cdk-nag names by this export.
    new CfnOutput(this, 'TableName', { value: this.table.tableName, exportName: this.tableNameExport });
    new CfnOutput(this, 'TableArn', { value: this.table.tableArn, exportName: this.tableArnExport });
  }

  get tableNameExport(): string {
    return `${this.stackName}-TableName`;
  }
  get tableArnExport(): string {
    return `${this.stackName}-TableArn`;
  }
  get analyticsBucketNameExport(): string {
    return `${this.stackName}-AnalyticsBucketName`;
  }

  /** The analytics bucket, as the stack `scope` imports it. */
  importAnalyticsBucket(scope: Construct): IBucket {
    return Bucket.fromBucketName(scope, 'AnalyticsBucket', Fn.importValue(this.analyticsBucketNameExport));
  }
  get logoBucketNameExport(): string {
    return `${this.stackName}-LogoBucketName`;
  }

  /** The logo bucket, as the stack `scope` imports it (from this retained stack's exports). */
  importLogoBucket(scope: Construct): IBucket {
    return Bucket.fromBucketName(scope, 'LogoBucket', Fn.importValue(this.logoBucketNameExport));
  }

  get exportBucketNameExport(): string {
    return `${this.stackName}-ExportBucketName`;
  }

  /** The export bucket, as the stack `scope` imports it. */
  importExportBucket(scope: Construct): IBucket {
    return Bucket.fromBucketName(scope, 'ExportBucket', Fn.importValue(this.exportBucketNameExport));
  }

  /** The table, as the stack `scope` imports it (from this retained stack's exports). */
  importTable(scope: Construct): ITable {
    // Its name is read from the ARN (CDK takes one or the other).
    return Table.fromTableAttributes(scope, 'Table', { tableArn: Fn.importValue(this.tableArnExport) });
  }
}
