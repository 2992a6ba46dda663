import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { UploadGone, type AnalyticsFiles } from '../analytics/ports.js';
import { BUCKETS } from '../buckets.js';
import { requireEnv } from '../config.js';
import { s3 } from './s3.js';

/** S3's answer to a part or completion of an upload completed or removed already, as the port names it. */
async function uploading<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchUpload') throw new UploadGone((error as Error).message);
    throw error;
  }
}

// Checked at cold start by the functions that export (analyticsExport in wiring/analytics.ts).
const bucket = () => requireEnv(BUCKETS.analytics.env);

/**
 * The analytics bucket's objects. HeadObject is authorised as s3:GetObject; without s3:ListBucket (not granted: the
 * export names its keys) S3 answers a missing key 403, not 404, so both read as absent: a grant that is really missing
 * fails the PutObject that follows, and the local IAM check holds the grants to these calls. A chain's link reads back
 * (GetObject) the file the link before it kept (keep: PutObject).
 */
export const analyticsFiles: AnalyticsFiles = {
  // CreateMultipartUpload, UploadPart and CompleteMultipartUpload are all authorised as s3:PutObject. A failed upload is
  // not aborted (that is s3:AbortMultipartUpload, not granted): the bucket's lifecycle removes its parts after a day.
  async begin(key) {
    const { UploadId } = await s3().send(
      new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: 'application/vnd.apache.parquet' }),
    );
    return UploadId!;
  },
  async part(key, { uploadId: UploadId, n: PartNumber, bytes: Body }) {
    const { ETag } = await uploading(s3().send(new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId, PartNumber, Body })));
    return ETag!;
  },
  async complete(key, UploadId, parts) {
    const Parts = parts.map(({ n, etag }) => ({ PartNumber: n, ETag: etag }));
    await uploading(s3().send(new CompleteMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId, MultipartUpload: { Parts } })));
  },
  async keep(key, text) {
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: text, ContentType: 'application/json' }));
  },
  async read(key) {
    const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return Body!.transformToString();
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
