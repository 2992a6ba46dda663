import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { acknowledgeLogoBucket } from './acknowledgments.js';
import { privateBucket } from './private-bucket.js';

/**
 * The tenants' logos (shared/brand/logo.ts): private (every public access blocked), TLS only, no versions (an
 * object's name is its content's hash: it is never overwritten with other bytes), owned by the account (no ACLs).
 * Retained like the table: tenant files name it. Built into `scope`, the data stack (see infra/stack.ts on why a part
 * keeps its stack's scope). Logos only: the answer exports have a bucket of their own (./exports.ts).
 */
export function logoBucket(scope: Construct): Bucket {
  const bucket = privateBucket(scope, 'LogoBucket');
  acknowledgeLogoBucket(bucket);
  return bucket;
}
