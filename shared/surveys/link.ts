import { createHmac, timingSafeEqual } from 'node:crypto';
import { channelOfLinkCode, linkCodeOf, type Channel } from '../channels.js';
import { surveyPagePath } from './paths.js';

/**
 * The token of a survey link: the credential of the survey page, so it is unguessable, bound to one tenant,
 * transaction, attempt and channel, expiring, and it carries no personal data. It is those ids and the expiry in
 * 17 bytes (the channel as its record's never-reused `linkCode`, `shared/channels.ts`), then a 128-bit HMAC-SHA256 tag under the deployment's survey secret: 44 URL-safe characters, short
 * enough for an SMS. A token that fails its tag is unknown; one past its expiry is expired; nothing is stored
 * to check either.
 */
export interface SurveyLink {
  /**
   * Which survey of the transaction the link opens: its first survey, or the recovery survey sent when a case about
   * its answer was resolved (`shared/recovery/`). Absent means `survey`: links signed before kinds existed read so.
   */
  kind?: LinkKind;
  tenantId: number;
  transactionId: number;
  attemptId: number;
  channel: Channel;
  /** Epoch seconds after which the link answers 410. */
  expiresAt: number;
}

/**
 * The first byte names the link's format and kind: 1 a survey link (every link sent before recovery surveys
 * existed), 2 a recovery survey's link. NEVER change or reuse one: links already sent decode by it.
 */
const KIND_BYTES = { survey: 1, recovery: 2 } as const;
export type LinkKind = keyof typeof KIND_BYTES;
const KIND_OF_BYTE = new Map(Object.entries(KIND_BYTES).map(([kind, byte]) => [byte as number, kind as LinkKind]));
const PAYLOAD_BYTES = 17;
const TAG_BYTES = 16;
export const SURVEY_TOKEN_LENGTH = Math.ceil(((PAYLOAD_BYTES + TAG_BYTES) * 4) / 3);
export const SURVEY_TOKEN_SHAPE = /^[\w-]{44}$/;

/** The key that signs links, derived from the survey secret so that the secret's other uses never share it. */
const linkKey = (secret: string) => createHmac('sha256', secret).update('survey-link/v1').digest();

const tagOf = (payload: Buffer, secret: string) => createHmac('sha256', linkKey(secret)).update(payload).digest().subarray(0, TAG_BYTES);

export function signSurveyLink(link: SurveyLink, secret: string): string {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(KIND_BYTES[link.kind ?? 'survey'], 0);
  payload.writeUInt32BE(link.tenantId, 1);
  payload.writeUIntBE(link.transactionId, 5, 6);
  payload.writeUInt8(link.attemptId, 11);
  payload.writeUInt8(linkCodeOf(link.channel), 12);
  payload.writeUInt32BE(link.expiresAt, 13);
  return Buffer.concat([payload, tagOf(payload, secret)]).toString('base64url');
}

export type LinkCheck = { status: 'valid'; link: SurveyLink } | { status: 'expired'; link: SurveyLink } | { status: 'unknown' };

/** What a token names, if this deployment signed it, and whether it is still valid at `now`. */
export function readSurveyLink(token: string, secret: string, now: Date): LinkCheck {
  if (!SURVEY_TOKEN_SHAPE.test(token)) return { status: 'unknown' };
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== PAYLOAD_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return { status: 'unknown' };
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), tagOf(payload, secret))) return { status: 'unknown' };
  const kind = KIND_OF_BYTE.get(payload.readUInt8(0));
  if (!kind) return { status: 'unknown' };
  const channel = channelOfLinkCode(payload.readUInt8(12));
  if (!channel) return { status: 'unknown' };
  const link: SurveyLink = {
    ...(kind === 'survey' ? {} : { kind }),
    tenantId: payload.readUInt32BE(1),
    transactionId: payload.readUIntBE(5, 6),
    attemptId: payload.readUInt8(11),
    channel,
    expiresAt: payload.readUInt32BE(13),
  };
  return { status: link.expiresAt * 1000 > now.getTime() ? 'valid' : 'expired', link };
}

/** The survey page of a link, under the public API's base URL. */
export const surveyUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}${surveyPagePath(token)}`;
