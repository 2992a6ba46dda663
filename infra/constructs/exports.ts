import { Duration } from 'aws-cdk-lib';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ANSWER_EXPORT } from '../../shared/answers/export.js';
import { acknowledgeExportBucket } from './acknowledgments.js';
import { privateBucket } from './private-bucket.js';

/**
 * The workspace's answer exports (shared/answers/export.ts): private (every public access blocked), TLS only, no
 * versions, owned by the account (no ACLs), encrypted. Each file is expired by the lifecycle a day after it is written
 * (S3 removes it within the next day), with the parts of an upload that failed, so that an erased customer's answers
 * do not outlive two days in a file. Retained like the data stack's other buckets (emptied by its lifecycle within two
 * days). Built into `scope`, the data stack.
 */
export function exportBucket(scope: Construct): Bucket {
  const bucket = privateBucket(scope, 'ExportBucket', [
    { id: 'AnswerExports', expiration: Duration.days(ANSWER_EXPORT.fileDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
  ]);
  acknowledgeExportBucket(bucket);
  return bucket;
}
