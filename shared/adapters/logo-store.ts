import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { BUCKETS } from '../buckets.js';
import { configured } from '../config.js';
import { LOGO_CACHE_CONTROL, type LogoStore } from '../brand/logo.js';
import { s3 } from './s3.js';

const { env, prefix: PREFIX } = BUCKETS.logos;
const bucket = configured(env);

/** The tenants' logos in the logo bucket (private; the CDK stack blocks public access and requires TLS). */
export const logoStore: LogoStore = {
  async put(file, bytes, contentType) {
    await s3().send(
      new PutObjectCommand({
        Bucket: bucket(),
        Key: `${PREFIX}${file}`,
        Body: bytes,
        ContentType: contentType,
        CacheControl: LOGO_CACHE_CONTROL,
      }),
    );
  },
  async get(file) {
    try {
      const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: `${PREFIX}${file}` }));
      return { bytes: await out.Body!.transformToByteArray(), contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  },
};
