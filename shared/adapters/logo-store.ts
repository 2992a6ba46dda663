import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { configured, ENV } from '../config.js';
import { LOGO_CACHE_CONTROL, type LogoStore } from '../brand/logo.js';

/** Logos are objects under this prefix of the logo bucket. */
const PREFIX = 'logos/';

const bucket = configured(ENV.logoBucket);
let client: S3Client | undefined;
// The local S3-compatible server answers on one host: path-style URLs (bucket in the path), as the SDK's endpoint
// variable says; on AWS the SDK's virtual-hosted default.
const s3 = () => (client ??= new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) }));

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
