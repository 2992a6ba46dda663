import { localeOfRequest } from '../i18n/messages.js';
import { DEFAULT_LOCALE } from '../locale.js';
import { isPage, told, type Page } from '../surveys/page.js';

import { type PageFrame } from '../surveys/page-html.js';
import type { QrPorts } from './ports.js';
import { qrTokenHash, readQrCode } from './qr-token.js';

import { answeredCookie, answeredRecently } from './answered-cookie.js';
import { answerEntry, entryForm, entryThanks, openEntry, secondsUntil, type AskedLanguages, type EntryRequest } from './entry.js';
import { generationOf } from './qr-admin.js';
import { addressHash } from './rate-window.js';

/**
 * A store's QR code: a signed, printed entry to the survey page of a journey, whose answers become transactions of
 * source `qr` on that store and employee. A QR is public, so its answers are bounded: one per browser and code every
 * 12 hours (a sealed cookie), `QR_ANSWER_LIMIT` per code and address and window (429 past it), and a field people
 * never see that a simple bot fills (its post is thanked and dropped).
 */
export const QR_ANSWER_LIMIT = { answers: 20, windowSeconds: 3600 } as const;
async function open({ token, ports, secret, languages }: { token: string; ports: QrReads; secret: string; languages: AskedLanguages }) {
  const code = readQrCode(token, secret);
  if (!code) return told({ status: 404, frame: { locale: localeOfRequest(languages) }, title: 'notFound.title', text: 'notFound.text' });
  const settings = await ports.settings(code.tenantId);
  if (code.generation !== generationOf(settings))
    return told({
      status: 410,
      frame: { locale: localeOfRequest(languages, settings.locale ?? DEFAULT_LOCALE) },
      title: 'expired.title',
      text: 'qr.retired.text',
    });
  return openEntry({ code, settings, ports, languages, closed: 'qr.closed.text' });
}
/** What a QR page reads (GET records nothing). */
export type QrReads = Pick<QrPorts, 'settings' | 'brand' | 'place'>;

/**
 * GET /q/{token}: the journey's survey page, empty (it never shows an answer); `thanks` (a bucket) after an answer;
 * to a browser that answered this code in the last 12 hours, the page that says so (409) instead of the form.
 */
export async function showQrPage({
  token,
  query,
  ports,
  secret,
  languages,
  cookies = [],
  now = new Date(),
}: {
  token: string;
  query: { thanks?: string | undefined };
  ports: QrReads;
  secret: string;
  languages: AskedLanguages;
  cookies?: readonly string[];
  now?: Date;
}): Promise<Page> {
  const opened = await open({ token, ports, secret, languages });
  if (isPage(opened)) return opened;
  if (query.thanks !== undefined) return entryThanks(opened, query.thanks);
  if (answeredRecently({ secret, tokenHash: qrTokenHash(token), cookies, now })) return answeredPage(opened.frame);
  return entryForm(opened, token);
}

const answeredPage = (frame: PageFrame) =>
  told({ status: 409, frame, title: 'qr.answeredRecently.title', text: 'qr.answeredRecently.text' });

/** POST /q/{token}: records the answer as a transaction of source `qr`, within the code's bounds. */
export async function submitQrPage({
  token,
  posted,
  ports,
  secret,
  languages,
  request,
  now = new Date(),
}: {
  token: string;
  posted: URLSearchParams;
  ports: QrPorts;
  secret: string;
  languages: AskedLanguages;
  request: EntryRequest;
  now?: Date;
}): Promise<Page> {
  const opened = await open({ token, ports, secret, languages });
  if (isPage(opened)) return opened;
  const { code, frame } = opened;
  const tokenHash = qrTokenHash(token);
  if (answeredRecently({ secret, tokenHash, cookies: request.cookies, now })) return answeredPage(frame);

  const window = Math.floor(now.getTime() / 1000 / QR_ANSWER_LIMIT.windowSeconds);
  const limit = {
    tenantId: code.tenantId,
    tokenHash,
    addressHash: addressHash(code.tenantId, request.address),
    window,
    endsAt: (window + 1) * QR_ANSWER_LIMIT.windowSeconds * 1000,
  };
  return answerEntry({
    opened,
    action: token,
    posted,
    how: {
      source: 'qr',
      closed: 'qr.closed.text',
      count: async () =>
        (await ports.limits.countAnswer(limit, QR_ANSWER_LIMIT.answers))
          ? undefined
          : { words: 'qr.tooMany.text', retryAfter: secondsUntil(limit.endsAt, now) },
      record: ports.record,
      cookies: [answeredCookie(secret, tokenHash, now)],
    },
  });
}
