import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ANSWER_EXPORT } from '../../shared/answers/export.js';
import { BUCKETS } from '../../shared/buckets.js';
import { acknowledgeLogoBucket } from './acknowledgments.js';

/**
 * The tenants' logos (shared/brand/logo.ts): private (every public access blocked), TLS only, no versions (an
 * object's name is its content's hash: it is never overwritten with other bytes), owned by the account (no ACLs).
 * Retained like the table: tenant files name it. Built into `scope`, the data stack (see infra/stack.ts on why a part
 * keeps its stack's scope). Its export area (shared/buckets.ts) holds the workspace's answer exports: expired by the
 * lifecycle a day after they are written (S3 removes them within the next day), with the parts of an upload that
 * failed, so that an erased customer's answers do not outlive two days in a file.
 */
export function logoBucket(scope: Construct): Bucket {
  const bucket = new Bucket(scope, 'LogoBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    versioned: false,
    encryption: BucketEncryption.S3_MANAGED,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      {
        id: 'AnswerExports',
        prefix: BUCKETS.exports.prefix,
        expiration: Duration.days(ANSWER_EXPORT.fileDays),
        abortIncompleteMultipartUploadAfter: Duration.days(1),
      },
    ],
  });
  acknowledgeLogoBucket(bucket);
  return bucket;
}
