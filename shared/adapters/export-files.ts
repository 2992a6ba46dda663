import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ANSWER_EXPORT, type ExportFiles } from '../answers/export.js';
import { BUCKETS } from '../buckets.js';
import { requireEnv } from '../config.js';
import { s3 } from './s3.js';

const { env, prefix } = BUCKETS.exports;
// Checked at cold start by the functions that write or link files (answerExportFiles in wiring/answers.ts).
const bucket = () => requireEnv(env);
const keyOf = (tenantId: number, id: string, run: string) => `${prefix}${tenantId}/${id}/${run}.csv`;

/**
 * The export files in the export bucket (its own), written by a multipart upload as the rows come: at most
 * `queueSize` parts of `partSize` bytes are held in memory, whatever the file's size. A failed upload leaves its parts
 * (an abort would need a grant of its own): the bucket's lifecycle removes incomplete uploads after a day.
 */
export const exportFiles: ExportFiles = {
  async write(tenantId, { id, run }, chunks) {
    async function* bytes() {
      for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
    }
    await new Upload({
      client: s3(),
      params: {
        Bucket: bucket(),
        Key: keyOf(tenantId, id, run),
        Body: Readable.from(bytes()),
        ContentType: 'text/csv; charset=utf-8',
      },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: true,
    }).done();
  },
  link(tenantId, { id, run }, name) {
    return getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: bucket(),
        Key: keyOf(tenantId, id, run),
        ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
      }),
      { expiresIn: ANSWER_EXPORT.redirectSeconds },
    );
  },
};
