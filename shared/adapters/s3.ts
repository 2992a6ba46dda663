import { S3Client } from '@aws-sdk/client-s3';

let client: S3Client | undefined;
/**
 * The one S3 client of the process. The local S3-compatible server answers on one host: path-style URLs (bucket in
 * the path), as the SDK's endpoint variable says; on AWS the SDK's virtual-hosted default.
 */
export const s3 = (): S3Client => (client ??= new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) }));
