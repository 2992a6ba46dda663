import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import type { AuditActor, AuditLog } from '../audit/log.js';
import { phone } from '../customers/phone.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { translator, type CustomerKey } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { email } from '../schema.js';
import { sealer } from '../sealed.js';
import { readForm, surveyView, type Answer, type Page } from '../surveys/answer-page.js';
import { HONEYPOT_FIELD, messagePage, surveyPage, type PageFrame } from '../surveys/page-html.js';
import { bucketOf, thanksOf } from '../surveys/questions.js';
import type { SurveyBrand } from '../surveys/compose.js';
import type { Settings } from '../tenants/config-schema.js';
import { BUCKETS } from '../tenants/scales.js';
import { qrPagePath } from './paths.js';
import type { EntryAnswer, QrPorts, QrStore } from './ports.js';
import { qrTokenHash, readQrCode, signQrCode } from './token.js';

/**
 * A store's QR code: a signed, printed entry to the survey page of a journey, whose answers become transactions of
 * source `qr` on that store and employee. A QR is public, so its answers are bounded: one per browser and code every
 * 12 hours (a sealed cookie), `QR_ANSWER_LIMIT` per code and address and window (429 past it), and a field people
 * never see that a simple bot fills (its post is thanked and dropped).
 */
export const QR_ANSWER_LIMIT = { answers: 20, windowSeconds: 3600 } as const;
/** How long a browser's answer to one code holds it from answering that code again. */
export const ANSWERED_HOURS = 12;
const CONTACT_FIELDS = ['email', 'phone'] as const;

/** The generation a tenant's codes are signed under now. */
const generationOf = (settings: { qrGeneration?: number | undefined }) => settings.qrGeneration ?? 1;

// ---- The admin's side ----------------------------------------------------------------------------------------------

export interface QrTarget {
  store: number;
  journey: string;
  employee?: number | undefined;
}

/** The URL a store's QR code opens (GET /public/admin/qr): its store must exist and its journey be the tenant's. */
export async function qrUrl(
  tenantId: number,
  target: QrTarget,
  ports: Pick<QrPorts, 'settings'> & { storeExists(tenantId: number, id: number): Promise<boolean> },
  secret: string,
  baseUrl: string,
): Promise<string> {
  const [settings, exists] = await Promise.all([ports.settings(tenantId), ports.storeExists(tenantId, target.store)]);
  const journey = settings.journeys.find((j) => j.slug === target.journey);
  if (!journey) throw new ValidationError('Unknown journey.', [{ path: 'journey', message: 'is not a journey of this tenant' }]);
  if (!exists) throw new NotFoundError(`Store ${target.store} not found.`);
  const token = signQrCode(
    { tenantId, storeId: target.store, journeyId: journey.id, employeeId: target.employee, generation: generationOf(settings) },
    secret,
  );
  return `${baseUrl.replace(/\/+$/, '')}${qrPagePath(token)}`;
}

/** POST /public/admin/qr/rotate: every code printed so far answers 410; audited as the generation it moved from and to. */
export async function rotateQrCodes(
  tenantId: number,
  actor: AuditActor,
  ports: { store: Pick<QrStore, 'rotateGeneration'>; audit: AuditLog },
  now = new Date(),
): Promise<number> {
  const generation = await ports.store.rotateGeneration(tenantId);
  await ports.audit.record(tenantId, {
    id: randomBytes(6).toString('hex'),
    at: now.toISOString(),
    actor,
    action: 'qr.rotate',
    changes: [{ path: 'qr.generation', old: generation - 1, new: generation }],
  });
  return generation;
}

// ---- The customer's side -------------------------------------------------------------------------------------------

/** Who is asking: the browser's cookies (name=value) and address. */
export interface EntryRequest {
  cookies: readonly string[];
  address: string;
}

const page = (status: number, rendered: { html: string; policy: string }, extra: Partial<Page> = {}): Page => ({
  status,
  ...rendered,
  ...extra,
});
export const told = (status: number, frame: PageFrame, title: CustomerKey, text: CustomerKey) => {
  const t = translator(frame.locale);
  return page(status, messagePage(frame, t(title), t(text, { company: frame.brand?.name ?? '' })));
};

/** What an entry (a QR code, a kiosk) answers: a journey of a store, and the employee or the store's default. */
export interface EntryTarget {
  tenantId: number;
  storeId: number;
  journeyId: number;
  employeeId?: number | undefined;
}

/** The journey's page of an entry, in the browser's language and the store's brand; 404 when the journey is gone. */
export async function openEntry<T extends EntryTarget>(code: T, settings: Settings, ports: Pick<QrPorts, 'brand'>, locale: Locale) {
  const journey = settings.journeys.find((j) => j.id === code.journeyId);
  if (!journey) return told(404, { locale }, 'notFound.title', 'notFound.text');
  const frame: PageFrame & { brand: SurveyBrand } = { locale, brand: await ports.brand(code.tenantId, code.storeId) };
  return { code, settings, journey, frame, t: translator(locale) };
}
export type OpenedEntry = Exclude<Awaited<ReturnType<typeof openEntry<EntryTarget>>>, Page>;
export const isPage = (value: object): value is Page => 'html' in value;

async function open(token: string, ports: Pick<QrPorts, 'settings' | 'brand'>, secret: string, locale: Locale) {
  const code = readQrCode(token, secret);
  if (!code) return told(404, { locale }, 'notFound.title', 'notFound.text');
  const settings = await ports.settings(code.tenantId);
  if (code.generation !== generationOf(settings)) return told(410, { locale }, 'expired.title', 'qr.retired.text');
  return openEntry(code, settings, ports, locale);
}
const empty = (): Answer => ({ score: undefined, classes: new Map(), comment: '' });

function form(
  opened: OpenedEntry,
  action: string,
  answer: Answer,
  contact: { email: string; phone: string },
  problems: string[],
  kiosk = false,
) {
  return surveyPage({ ...surveyView(opened, action, null, answer, problems), entry: contact, kiosk });
}

/** The thanks of an entry's answer, in the words of the bucket its score fell in (`refresh`: back to the start then). */
export function entryThanks(opened: OpenedEntry, thanks: string, refresh?: { seconds: number; url: string }): Page {
  const bucket = BUCKETS.find((b) => b === thanks);
  const { journey, frame, t } = opened;
  return page(200, messagePage(frame, t('thanks.title'), thanksOf(journey, bucket, frame.brand.name, frame.locale, t), refresh));
}

/** An entry's empty form (it never shows an answer), posting to `action`. */
export const entryForm = (opened: OpenedEntry, action: string, kiosk = false) =>
  page(200, form(opened, action, empty(), { email: '', phone: '' }, [], kiosk));

/** GET /q/{token}: the journey's survey page, empty (it never shows an answer); `thanks` (a bucket) after an answer. */
export async function showQrPage(
  token: string,
  query: { thanks?: string | undefined },
  ports: Pick<QrPorts, 'settings' | 'brand'>,
  secret: string,
  locale: Locale,
): Promise<Page> {
  const opened = await open(token, ports, secret, locale);
  if (isPage(opened)) return opened;
  if (query.thanks !== undefined) return entryThanks(opened, query.thanks);
  return entryForm(opened, token);
}

/** The cookie that marks a browser's answer to one code: sealed (neither made up nor moved to another code). */
const answeredCookieName = (tokenHash: string) => `qa_${tokenHash}`;

function answeredRecently(secret: string, tokenHash: string, cookies: readonly string[], now: Date): boolean {
  const name = `${answeredCookieName(tokenHash)}=`;
  const value = cookies.find((c) => c.startsWith(name))?.slice(name.length);
  const opened = value ? sealer(() => secret, 'qr-answered').open(value, tokenHash) : undefined;
  return typeof opened === 'number' && opened > now.getTime();
}

function answeredCookie(secret: string, tokenHash: string, now: Date): string {
  const seconds = ANSWERED_HOURS * 3600;
  const value = sealer(() => secret, 'qr-answered').seal(now.getTime() + seconds * 1000, tokenHash);
  // No Path: the default is the page's own directory (`/q` under any stage).
  return `${answeredCookieName(tokenHash)}=${value}; Max-Age=${seconds}; HttpOnly; Secure; SameSite=Lax`;
}

const addressHash = (tenantId: number, address: string) =>
  createHash('sha256').update(`${tenantId}\u0000${address}`).digest('base64url').slice(0, 22);

/** POST /q/{token}: records the answer as a transaction of source `qr`, within the code's bounds. */
export async function submitQrPage(
  token: string,
  posted: URLSearchParams,
  ports: QrPorts,
  secret: string,
  locale: Locale,
  request: EntryRequest,
  now = new Date(),
): Promise<Page> {
  const opened = await open(token, ports, secret, locale);
  if (isPage(opened)) return opened;
  const { code, frame } = opened;
  const tokenHash = qrTokenHash(token);
  if (answeredRecently(secret, tokenHash, request.cookies, now))
    return told(409, frame, 'qr.answeredRecently.title', 'qr.answeredRecently.text');

  const window = Math.floor(now.getTime() / 1000 / QR_ANSWER_LIMIT.windowSeconds);
  const limit = {
    tenantId: code.tenantId,
    tokenHash,
    addressHash: addressHash(code.tenantId, request.address),
    window,
    endsAt: (window + 1) * QR_ANSWER_LIMIT.windowSeconds * 1000,
  };
  return answerEntry(opened, token, posted, {
    source: 'qr',
    count: async () => ((await ports.limits.countAnswer(limit, QR_ANSWER_LIMIT.answers)) ? undefined : 'qr.tooMany.text'),
    record: ports.record,
    cookies: [answeredCookie(secret, tokenHash, now)],
  });
}

/** How an entry's answer is bounded and recorded. */
export interface EntryAnswering {
  source: EntryAnswer['source'];
  /** Counts the answer against the entry's bounds: past one, the words that say which (429, nothing recorded). */
  count: () => Promise<CustomerKey | undefined>;
  record: QrPorts['record'];
  /** Set with the 303 of a recorded answer. */
  cookies?: string[];
}

/**
 * The one answer path of an entry (a QR code's page, a kiosk's): the form read and checked, the field people never see,
 * the entry's bound, then a transaction of the entry's source through the walk-in answer path; 303 to the thanks at
 * `action?thanks=<bucket>`.
 */
export async function answerEntry(opened: OpenedEntry, action: string, posted: URLSearchParams, how: EntryAnswering): Promise<Page> {
  const { code, journey, frame, t } = opened;
  const { answer, problems, extras } = readForm(posted, opened, [...CONTACT_FIELDS, HONEYPOT_FIELD]);
  const contact = { email: extras.get('email') ?? '', phone: extras.get('phone') ?? '' };
  const checked: { email?: string; phone?: string } = {};
  if (contact.email) {
    const parsed = v.safeParse(email, contact.email);
    if (parsed.success) checked.email = parsed.output;
    else problems.push(t('qr.problem.email'));
  }
  if (contact.phone) {
    const parsed = v.safeParse(phone, contact.phone);
    if (parsed.success) checked.phone = parsed.output;
    else problems.push(t('qr.problem.phone'));
  }
  if (problems.length || answer.score === undefined)
    return page(400, form(opened, action, answer, contact, problems, how.source === 'kiosk'));

  const thanks = { location: `${action}?thanks=${bucketOf(journey.indicator, answer.score)}` };
  // A bot filled the field people never see: thanked as anyone, recorded nowhere.
  if (extras.get(HONEYPOT_FIELD)) return page(303, messagePage(frame, t('thanks.title'), t('thanks.title')), thanks);

  const refused = await how.count();
  if (refused) return told(429, frame, 'qr.tooMany.title', refused);

  await how.record(code.tenantId, {
    source: how.source,
    storeId: code.storeId,
    employeeId: code.employeeId,
    journeyId: code.journeyId,
    score: answer.score,
    classes: [...answer.classes].map(([classId, score]) => ({ classId, score })),
    comment: answer.comment || null,
    contact: checked,
    locale: frame.locale,
  });
  return page(303, messagePage(frame, t('thanks.title'), t('thanks.title')), {
    ...thanks,
    ...(how.cookies ? { cookies: how.cookies } : {}),
  });
}
