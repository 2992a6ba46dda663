import { ENV, type EnvName } from './config.js';

/**
 * The service's object stores: areas (prefixes) of its one bucket, each granted on its own, so that a function given
 * one reaches no other's objects. Locally the S3-compatible server's bucket, on AWS the data stack's.
 */
export const BUCKETS = {
  /** The tenants' logos, by their content's hash (shared/brand/logo.ts). */
  logos: { env: ENV.logoBucket, prefix: 'logos/' },
  /** The workspace's answer exports (shared/answers/export.ts): expired by the bucket's lifecycle after a day. */
  exports: { env: ENV.logoBucket, prefix: 'exports/' },
  /** The analytics export's Parquet files (shared/analytics/): a bucket of their own, which the tenant's analysts read. */
  analytics: { env: ENV.analyticsBucket, prefix: '' },
} as const satisfies Record<string, { env: EnvName; prefix: string }>;
export type BucketId = keyof typeof BUCKETS;
