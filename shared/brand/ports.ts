import * as v from 'valibot';
import { LogoObject } from './logo.js';

/** The brand as stored and read: the display name resolved, the logo as its content-addressed object. */
export const BrandSettings = v.object({
  name: v.string(),
  colour: v.optional(v.string()),
  logo: v.optional(v.object(LogoObject.entries)),
  senderName: v.optional(v.string()),
});
export type BrandSettings = v.InferOutput<typeof BrandSettings>;

/** Where a tenant's brand and the logos it uploaded are kept: the tenant repository implements it. */
export interface BrandRepository {
  putBrand(tenantId: number, brand: BrandSettings): Promise<void>;
  /** Records that the tenant uploaded this logo object, so that its brand may name it (logo.ts, LogoUploads). */
  recordLogo(tenantId: number, logo: LogoObject, atMost?: number): Promise<'recorded' | 'exists' | 'full'>;
  /** A logo the tenant uploaded, by its object name; undefined for one it did not. */
  findLogo(tenantId: number, file: string): Promise<LogoObject | undefined>;
}
