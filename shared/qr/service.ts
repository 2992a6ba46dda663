import { createHash, randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import * as v from 'valibot';
import type { AuditActor, AuditLog } from '../audit/log.js';
import { phone } from '../customers/phone.js';
import { NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { localeOfRequest, translator, type CustomerKey } from '../i18n/messages.js';
import { DEFAULT_LOCALE } from '../locale.js';
import { email } from '../schema.js';
import { sealer } from '../sealed.js';
import { readForm, surveyView, type Answer, type Page } from '../surveys/answer-page.js';
import { HONEYPOT_FIELD, messagePage, surveyPage, type PageFrame } from '../surveys/page-html.js';
import { bucketOf, thanksOf } from '../surveys/questions.js';
import type { SurveyBrand } from '../surveys/compose.js';
import type { Settings } from '../settings/settings.js';
import { BUCKETS } from '../settings/scales.js';
import { qrPagePath } from './paths.js';
import type { EntryAnswer, EntryPlace, QrPorts, QrStore } from './ports.js';
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

/**
 * Why an entry's store and employee take no answers (none: they do): a store that is gone or inactive, an employee who
 * is gone, inactive or does not work at the store. The same rule refuses a new code or kiosk and closes one made before.
 */
export function placeProblems(target: { store: number; employee?: number | undefined }, place: EntryPlace): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!place.store) problems.push({ path: 'store', message: 'is not a store of this tenant' });
  else if (place.store.status !== 'active') problems.push({ path: 'store', message: `store ${target.store} is inactive` });
  if (target.employee === undefined) return problems;
  const employee = place.employee;
  if (!employee) problems.push({ path: 'employee', message: `employee ${target.employee} does not exist` });
  else if (employee.status !== 'active') problems.push({ path: 'employee', message: `employee ${target.employee} is inactive` });
  else if (!employee.stores.includes(target.store))
    problems.push({ path: 'employee', message: `employee ${target.employee} does not work at store ${target.store}` });
  return problems;
}

/** The generation a tenant's codes are signed under now. */
const generationOf = (settings: { qrGeneration?: number | undefined }) => settings.qrGeneration ?? 1;

// ---- The admin's side ----------------------------------------------------------------------------------------------

export interface QrTarget {
  store: number;
  journey: string;
  employee?: number | undefined;
}

/**
 * The URL a store's QR code opens (GET /public/admin/qr): its store must exist (404) and be active, its journey be the
 * tenant's, and its employee, if any, work at the store (422 naming what is wrong).
 */
export async function qrUrl(
  tenantId: number,
  target: QrTarget,
  ports: Pick<QrPorts, 'settings' | 'place'>,
  secret: string,
  baseUrl: string,
): Promise<string> {
  const [settings, place] = await Promise.all([ports.settings(tenantId), ports.place(tenantId, target.store, target.employee)]);
  const journey = settings.journeys.find((j) => j.slug === target.journey);
  if (!journey) throw new ValidationError('Unknown journey.', [{ path: 'journey', message: 'is not a journey of this tenant' }]);
  if (!place.store) throw new NotFoundError(`Store ${target.store} not found.`);
  const problems = placeProblems(target, place);
  if (problems.length) throw new ValidationError('The store or the employee takes no answers.', problems);
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

/**
 * The languages the browser asks for (its Accept-Language): a page before the tenant is known is in the first of them
 * the service has (else DEFAULT_LOCALE), an entry's page in the first of them, else its journey's or tenant's language.
 */
export type AskedLanguages = string | undefined;

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

/**
 * The journey's page of an entry, in the browser's language (else the journey's or the tenant's) and the store's
 * brand; 404 when the journey is gone, 410 with `closed` (a page saying it is no longer in use) when its store is gone
 * or inactive or its employee no longer works there.
 */
export async function openEntry<T extends EntryTarget>(
  code: T,
  settings: Settings,
  ports: Pick<QrPorts, 'brand' | 'place'>,
  languages: AskedLanguages,
  closed: CustomerKey,
) {
  const journey = settings.journeys.find((j) => j.id === code.journeyId);
  const locale = localeOfRequest(languages, journey?.locale ?? settings.locale ?? DEFAULT_LOCALE);
  if (!journey) return told(404, { locale }, 'notFound.title', 'notFound.text');
  const [brand, place] = await Promise.all([
    ports.brand(code.tenantId, code.storeId),
    ports.place(code.tenantId, code.storeId, code.employeeId),
  ]);
  const frame: PageFrame & { brand: SurveyBrand } = { locale, brand };
  if (placeProblems({ store: code.storeId, employee: code.employeeId }, place).length) return told(410, frame, 'expired.title', closed);
  return { code, settings, journey, frame, t: translator(locale) };
}
export type OpenedEntry = Exclude<Awaited<ReturnType<typeof openEntry<EntryTarget>>>, Page>;
export const isPage = (value: object): value is Page => 'html' in value;

async function open(token: string, ports: QrReads, secret: string, languages: AskedLanguages) {
  const code = readQrCode(token, secret);
  if (!code) return told(404, { locale: localeOfRequest(languages) }, 'notFound.title', 'notFound.text');
  const settings = await ports.settings(code.tenantId);
  if (code.generation !== generationOf(settings))
    return told(410, { locale: localeOfRequest(languages, settings.locale ?? DEFAULT_LOCALE) }, 'expired.title', 'qr.retired.text');
  return openEntry(code, settings, ports, languages, 'qr.closed.text');
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

/** What a QR page reads (GET records nothing). */
export type QrReads = Pick<QrPorts, 'settings' | 'brand' | 'place'>;

/**
 * GET /q/{token}: the journey's survey page, empty (it never shows an answer); `thanks` (a bucket) after an answer;
 * to a browser that answered this code in the last 12 hours, the page that says so (409) instead of the form.
 */
export async function showQrPage(
  token: string,
  query: { thanks?: string | undefined },
  ports: QrReads,
  secret: string,
  languages: AskedLanguages,
  cookies: readonly string[] = [],
  now = new Date(),
): Promise<Page> {
  const opened = await open(token, ports, secret, languages);
  if (isPage(opened)) return opened;
  if (query.thanks !== undefined) return entryThanks(opened, query.thanks);
  if (answeredRecently(secret, qrTokenHash(token), cookies, now)) return answeredPage(opened.frame);
  return entryForm(opened, token);
}

const answeredPage = (frame: PageFrame) => told(409, frame, 'qr.answeredRecently.title', 'qr.answeredRecently.text');

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

/**
 * What the per-address bound counts of an address: an IPv4 address whole, an IPv6 address by its /64 (one subscriber's
 * network, where a device picks any of 2^64 addresses); an IPv4-mapped IPv6 address as its IPv4 one.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

const addressHash = (tenantId: number, address: string) =>
  createHash('sha256')
    .update(`${tenantId}\u0000${addressNetwork(address)}`)
    .digest('base64url')
    .slice(0, 22);

/** POST /q/{token}: records the answer as a transaction of source `qr`, within the code's bounds. */
export async function submitQrPage(
  token: string,
  posted: URLSearchParams,
  ports: QrPorts,
  secret: string,
  languages: AskedLanguages,
  request: EntryRequest,
  now = new Date(),
): Promise<Page> {
  const opened = await open(token, ports, secret, languages);
  if (isPage(opened)) return opened;
  const { code, frame } = opened;
  const tokenHash = qrTokenHash(token);
  if (answeredRecently(secret, tokenHash, request.cookies, now)) return answeredPage(frame);

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
    closed: 'qr.closed.text',
    count: async () =>
      (await ports.limits.countAnswer(limit, QR_ANSWER_LIMIT.answers))
        ? undefined
        : { words: 'qr.tooMany.text', retryAfter: secondsUntil(limit.endsAt, now) },
    record: ports.record,
    cookies: [answeredCookie(secret, tokenHash, now)],
  });
}

/** The whole seconds from `now` to `at` (epoch ms), at least 1: a 429's Retry-After. */
export const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000));

/** How an entry's answer is bounded and recorded. */
export interface EntryAnswering {
  source: EntryAnswer['source'];
  /** The words of the page that says the entry is no longer in use (its store refused by the transaction rules). */
  closed: CustomerKey;
  /**
   * Counts the answer against the entry's bounds: past one, the words that say which and the seconds until it allows
   * another (429 with Retry-After, nothing recorded).
   */
  count: () => Promise<{ words: CustomerKey; retryAfter: number } | undefined>;
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
  if (refused) return { ...told(429, frame, 'qr.tooMany.title', refused.words), retryAfter: refused.retryAfter };

  try {
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
  } catch (error) {
    // The transaction rules refused it (its store deactivated since the page was opened): nothing was recorded.
    if (error instanceof ValidationError) return told(410, frame, 'expired.title', how.closed);
    throw error;
  }
  return page(303, messagePage(frame, t('thanks.title'), t('thanks.title')), {
    ...thanks,
    ...(how.cookies ? { cookies: how.cookies } : {}),
  });
}
