import { ENV, type EnvName } from './config.js';

/**
 * The service's object stores, a bucket each (its purpose, its lifecycle), each granted on its own to the functions
 * that use it, so that a function given one reaches no other's objects. Locally the S3-compatible server's buckets,
 * on AWS the data stack's.
 */
export const BUCKETS = {
  /** The tenants' logos, by their content's hash (shared/brand/logo.ts). */
  logos: { env: ENV.logoBucket, prefix: 'logos/' },
  /** The workspace's answer exports (shared/answers/export.ts): a bucket of their own, whose lifecycle expires them after a day. */
  exports: { env: ENV.exportBucket, prefix: '' },
  /** The analytics export's Parquet files (shared/analytics/): a bucket of their own, which the tenant's analysts read. */
  analytics: { env: ENV.analyticsBucket, prefix: '' },
} as const satisfies Record<string, { env: EnvName; prefix: string }>;
export type BucketId = keyof typeof BUCKETS;
