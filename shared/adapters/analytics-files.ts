import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { AnalyticsFiles } from '../analytics/ports.js';
import { BUCKETS } from '../buckets.js';
import { requireEnv } from '../config.js';
import { s3 } from './s3.js';

// Checked at cold start by the functions that export (analyticsExport in wiring/analytics.ts).
const bucket = () => requireEnv(BUCKETS.analytics.env);

/**
 * The analytics bucket's objects. HeadObject is authorised as s3:GetObject; without s3:ListBucket (not granted: the
 * export names its keys) S3 answers a missing key 403, not 404, so both read as absent: a grant that is really missing
 * fails the PutObject that follows, and the local IAM check holds the grants to these calls.
 */
export const analyticsFiles: AnalyticsFiles = {
  // CreateMultipartUpload, UploadPart and CompleteMultipartUpload are all authorised as s3:PutObject. A failed upload is
  // not aborted (that is s3:AbortMultipartUpload, not granted): the bucket's lifecycle removes its parts after a day.
  async upload(key, write) {
    const { UploadId } = await s3().send(
      new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: 'application/vnd.apache.parquet' }),
    );
    const parts: { ETag: string; PartNumber: number }[] = [];
    const result = await write(async (body) => {
      const PartNumber = parts.length + 1;
      const { ETag } = await s3().send(new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId, PartNumber, Body: body }));
      parts.push({ ETag: ETag!, PartNumber });
    });
    await s3().send(new CompleteMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId, MultipartUpload: { Parts: parts } }));
    return result;
  },
  async exists(key) {
    try {
      await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
      return true;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || status === 403) return false;
      throw error;
    }
  },
  async remove(key) {
    await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
  },
};
