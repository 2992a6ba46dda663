import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { acknowledgeAnalyticsBucket } from './acknowledgments.js';

/** The longest retention a tenant may set (PrivacyConfig.retentionDays): the lifecycle's backstop past every tenant's own. */
const MAX_RETENTION_DAYS = 3650;

/**
 * The analytics bucket (shared/analytics/): private, TLS only, encrypted, owned by the account, retained like the
 * table. Each tenant's days are deleted past its own retention by the export (expireDays); the lifecycle removes what
 * is older than the longest retention any tenant may set.
 */
export function analyticsBucket(scope: Construct): Bucket {
  const bucket = new Bucket(scope, 'AnalyticsBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    versioned: false,
    encryption: BucketEncryption.S3_MANAGED,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: 'PastAnyRetention', expiration: Duration.days(MAX_RETENTION_DAYS + 1) }],
  });
  acknowledgeAnalyticsBucket(bucket);
  return bucket;
}
