import { createHash, randomBytes } from 'node:crypto';
import type { AuditActor, AuditLog } from '../audit/log.js';
import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import { imageProblem } from './logo-image.js';

/**
 * A tenant's logo: checked by its bytes, stored once under a name made of its SHA-256 (so the same bytes are one object
 * and a new logo is a new URL, cacheable for ever), served by the public API. SVG is refused: it is a document that can
 * carry scripts and external references, and sanitising it safely is a library's whole job; a raster logo of 200 KB
 * covers a page header and an e-mail.
 */

/** At most this many bytes: a logo shows at most about 240 x 80 CSS pixels, 480 x 160 on a dense screen. */
export const MAX_LOGO_BYTES = 200 * 1024;

/**
 * The types accepted, each known by its leading bytes (the file's name and claimed type are not trusted), then decoded
 * in full (logo-image.ts).
 */
export const LOGO_TYPES = [
  {
    contentType: 'image/png',
    extension: 'png',
    matches: (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { contentType: 'image/jpeg', extension: 'jpg', matches: (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    contentType: 'image/webp',
    extension: 'webp',
    matches: (b: Uint8Array) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  },
] as const;

/** The media types of the logos accepted. */
export const LOGO_CONTENT_TYPES = LOGO_TYPES.map((type) => type.contentType);

/**
 * Served as they are for a year, by anyone: the name is the content's hash, so a new logo is a new object and an
 * old URL never changes meaning (RFC 8246 `immutable`: browsers skip revalidation).
 */
export const LOGO_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A logo's object name: `<sha-256 in hex>.<extension>`; the only names the logo route serves. */
export const LOGO_FILE = /^[0-9a-f]{64}\.(png|jpg|webp)$/;

/** A stored logo: its content-addressed object name (`<sha-256>.<ext>`, shared/brand/logo.ts) and its type. */
export const LogoObject = v.strictObject({
  file: v.pipe(v.string('must be a string'), v.regex(LOGO_FILE, 'must be a logo object name: 64 hex digits and .png, .jpg or .webp')),
  contentType: v.picklist(LOGO_CONTENT_TYPES, `must be one of ${LOGO_CONTENT_TYPES.join(', ')}`),
});
export type LogoObject = v.InferOutput<typeof LogoObject>;

/** A logo refused, with what was wrong and what is accepted. */
export class LogoError extends ValidationError {
  /** `path`: the field that held the logo (the tenant file's `brand.logo`, an upload's `body`). */
  constructor(problem: string, path = 'brand.logo') {
    super(`The logo ${problem}.`, [{ path, message: problem }]);
  }
}

/** Where logos are kept (shared/adapters/logo-store.ts: an S3 bucket). */
export interface LogoStore {
  put(file: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Undefined when no such object exists. */
  get(file: string): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
}

/** The object a logo's bytes become, or a LogoError naming why they cannot be one. */
export function logoObjectOf(bytes: Uint8Array, path?: string): LogoObject {
  if (bytes.byteLength === 0) throw new LogoError('is empty', path);
  if (bytes.byteLength > MAX_LOGO_BYTES)
    throw new LogoError(`is ${Math.ceil(bytes.byteLength / 1024)} KB; at most ${MAX_LOGO_BYTES / 1024} KB is accepted`, path);
  const type = LOGO_TYPES.find((candidate) => candidate.matches(bytes));
  if (!type) {
    const head = ascii(bytes, 0, Math.min(bytes.byteLength, 512)).trimStart().toLowerCase();
    const svg = head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
    throw new LogoError(
      svg
        ? 'is an SVG, which is refused (it can carry scripts); export it as PNG or WebP'
        : 'is not a PNG, JPEG or WebP image (judged by its content, not its name)',
      path,
    );
  }
  const problem = imageProblem(bytes, type.extension);
  if (problem) throw new LogoError(problem, path);
  return { file: `${createHash('sha256').update(bytes).digest('hex')}.${type.extension}`, contentType: type.contentType };
}

/** Checks a logo and stores it; the brand then names the object. Storing the same bytes again is harmless. */
export async function storeLogo(bytes: Uint8Array, store: LogoStore, path?: string): Promise<LogoObject> {
  const object = logoObjectOf(bytes, path);
  await store.put(object.file, bytes, object.contentType);
  return object;
}

/**
 * The most logos a tenant may upload. Counted, never freed by a replacement: a logo is an object named by its bytes,
 * which another tenant may have uploaded too, and an e-mail sent with a brand's earlier logo shows it for as long as it
 * is kept; so a replacement deletes nothing, and the count bounds what a tenant can make the bucket hold (20 x 200 KB).
 */
export const MAX_LOGOS = 20;

/** Where a tenant's uploads are recorded and counted (the tenant repository). */
export interface LogoUploads {
  /** `exists` when this logo was recorded already; `full` when the tenant recorded `atMost` logos already. */
  recordLogo(tenantId: number, logo: LogoObject, atMost: number): Promise<'recorded' | 'exists' | 'full'>;
}

/** A logo sent by a tenant's admin: its bytes, who sent it, and when (now unless given). */
export interface SentLogo {
  bytes: Uint8Array;
  actor: AuditActor;
  now?: Date;
}

/**
 * A tenant's logos through the admin API: an upload is checked by its bytes, stored, and recorded as the tenant's, so
 * that its brand may name it (shared/tenants/service.ts `replaceConfig`). The first upload of a logo is written to the
 * audit log; the same bytes again answer the same object and record nothing new.
 */
export function tenantLogos(store: LogoStore, uploads: LogoUploads, audit: AuditLog) {
  async function uploadLogo(tenantId: number, { bytes, actor, now = new Date() }: SentLogo): Promise<LogoObject> {
    const logo = logoObjectOf(bytes, 'body');
    // Counted before it is stored: a tenant at its quota puts nothing in the bucket (a retry of an upload whose
    // store failed finds it recorded, and stores it).
    const recorded = await uploads.recordLogo(tenantId, logo, MAX_LOGOS);
    if (recorded === 'full')
      throw new LogoError(`cannot be stored: this tenant has uploaded ${MAX_LOGOS} logos, the most it may; use one of them`, 'body');
    await store.put(logo.file, bytes, logo.contentType);
    if (recorded === 'recorded') {
      const change = { path: `logos[file=${logo.file}]`, old: null, new: { contentType: logo.contentType, bytes: bytes.byteLength } };
      await audit.record(tenantId, {
        id: randomBytes(6).toString('hex'),
        at: now.toISOString(),
        actor,
        action: 'logo.upload',
        changes: [change],
      });
    }
    return logo;
  }
  return { uploadLogo };
}

/** A logo to serve, by its object name; NotFound-free: undefined for a name that is not a logo's or is not stored. */
export async function readLogo(file: string, store: LogoStore): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  return LOGO_FILE.test(file) ? store.get(file) : undefined;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
