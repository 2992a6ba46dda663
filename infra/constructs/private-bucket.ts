import { RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type LifecycleRule, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * A private bucket, as every bucket of the data stack is: every public access blocked, TLS only, no versions, owned by
 * the account (no ACLs), encrypted with S3's keys, retained like the table. Only its lifecycle is its own.
 */
export function privateBucket(scope: Construct, id: string, lifecycleRules?: LifecycleRule[]): Bucket {
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    versioned: false,
    encryption: BucketEncryption.S3_MANAGED,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(lifecycleRules ? { lifecycleRules } : {}),
  });
}
