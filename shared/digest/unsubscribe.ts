import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UserRecord } from '../access/ports.js';
import { brandOf } from '../brand/brand.js';
import { html } from '../html.js';
import { alertTranslator } from '../i18n/messages.js';
import { DEFAULT_LOCALE } from '../locale.js';
import type { Page } from '../surveys/answer-page.js';
import { layout, messagePage, type PageFrame } from '../surveys/page-html.js';
import type { Settings } from '../settings/settings.js';

/**
 * One-click unsubscribe from the digests (RFC 8058): each digest e-mail carries a link of its own user, signed and
 * naming no one: the tenant, and a 128-bit HMAC of the user's name under a key derived from the survey secret. A GET
 * asks to confirm (mail scanners open links); a POST, the page's button or the mail client's one-click, sets the user's
 * digest to off. It never expires: an old e-mail's link still stops the digests.
 */

/** The first byte names the format: never change or reuse it, links in sent e-mails decode by it. */
const FORMAT = 1;
const HEAD_BYTES = 5;
const REF_BYTES = 16;
/** 21 bytes: 28 URL-safe characters. */
export const DIGEST_TOKEN_SHAPE = /^[\w-]{28}$/;

const digestKey = (secret: string) => createHmac('sha256', secret).update('digest-unsubscribe/v1').digest();
const refOf = (tenantId: number, name: string, secret: string) =>
  createHmac('sha256', digestKey(secret)).update(`${tenantId}\n${name}`).digest().subarray(0, REF_BYTES);

/** The token of `name`'s unsubscribe link. */
export function digestUnsubscribeToken(tenantId: number, name: string, secret: string): string {
  const head = Buffer.alloc(HEAD_BYTES);
  head.writeUInt8(FORMAT, 0);
  head.writeUInt32BE(tenantId, 1);
  return Buffer.concat([head, refOf(tenantId, name, secret)]).toString('base64url');
}

/** The tenant a token names and the user of the tenant's it was made for; undefined for anything else. */
function userOfToken({
  token,
  users,
  tenantId,
  secret,
}: {
  token: string;
  users: readonly UserRecord[];
  tenantId: number;
  secret: string;
}): UserRecord | undefined {
  const ref = Buffer.from(token, 'base64url').subarray(HEAD_BYTES);
  return users.find((user) => timingSafeEqual(ref, refOf(tenantId, user.name, secret)));
}

/** The tenant of a well-formed token of this format (not yet checked against any user). */
function tenantOfToken(token: string): number | undefined {
  if (!DIGEST_TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.toString('base64url') !== token || bytes.readUInt8(0) !== FORMAT) return undefined;
  return bytes.readUInt32BE(1);
}

export interface DigestUnsubscribePorts {
  /** The tenant's users (one Query of their collection): the token names one by its HMAC, not its name. */
  users(tenantId: number): Promise<UserRecord[]>;
  settings(tenantId: number): Promise<Settings>;
  /** Sets the user's digest to off. */
  stop(tenantId: number, user: UserRecord): Promise<void>;
}

type Found = { tenantId: number; user: UserRecord; frame: PageFrame & { brand: { name: string; colour?: string } } };

async function found(ports: DigestUnsubscribePorts, token: string, secret: string): Promise<Found | undefined> {
  const tenantId = tenantOfToken(token);
  if (tenantId === undefined) return undefined;
  const user = userOfToken({ token, users: await ports.users(tenantId), tenantId, secret });
  if (!user) return undefined;
  const settings = await ports.settings(tenantId);
  const brand = brandOf(settings);
  return {
    tenantId,
    user,
    frame: { locale: settings.locale ?? DEFAULT_LOCALE, brand: { name: brand.name, ...(brand.colour ? { colour: brand.colour } : {}) } },
  };
}

const notFound = (locale: PageFrame['locale']): Page => {
  const t = alertTranslator(locale);
  return {
    status: 404,
    ...messagePage({ locale }, { title: t('digest.unsubscribeNotFoundTitle'), text: t('digest.unsubscribeNotFoundText') }),
  };
};

/** GET /d/{token}/unsubscribe: asks to confirm, in the tenant's language and brand. */
export async function showDigestUnsubscribe(
  ports: DigestUnsubscribePorts,
  { token, secret, locale }: { token: string; secret: string; locale: PageFrame['locale'] },
) {
  const read = await found(ports, token, secret);
  if (!read) return notFound(locale);
  const t = alertTranslator(read.frame.locale);
  const page: Page = {
    status: 200,
    ...layout(read.frame, {
      title: t('digest.unsubscribeTitle'),
      body: html`<h1>${t('digest.unsubscribeTitle')}</h1><p>${t('digest.unsubscribeText', { company: read.frame.brand.name })}</p>
<form method="post" action="unsubscribe"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${t('digest.unsubscribeConfirm')}</button></form>`,
    }),
  };
  return page;
}

/** POST /d/{token}/unsubscribe (the page's button, or a mail client's RFC 8058 one-click post): the digests stop. */
export async function digestUnsubscribe(
  ports: DigestUnsubscribePorts,
  { token, secret, locale }: { token: string; secret: string; locale: PageFrame['locale'] },
) {
  const read = await found(ports, token, secret);
  if (!read) return notFound(locale);
  await ports.stop(read.tenantId, read.user);
  const t = alertTranslator(read.frame.locale);
  const page: Page = {
    status: 200,
    ...messagePage(read.frame, {
      title: t('digest.unsubscribedTitle'),
      text: t('digest.unsubscribedText', { company: read.frame.brand.name }),
    }),
  };
  return page;
}
