import * as v from 'valibot';
import { phone } from '../customers/phone.js';
import { ValidationError, type FieldProblem } from '../errors.js';
import { localeOfRequest, translator, type CustomerKey } from '../i18n/messages.js';
import { DEFAULT_LOCALE } from '../locale.js';
import { email } from '../schema.js';
import { readForm, surveyView, type Answer } from '../surveys/answer-page.js';
import { page, told, type Page } from '../surveys/page.js';

import { HONEYPOT_FIELD, messagePage, surveyPage, type PageFrame } from '../surveys/page-html.js';
import { bucketOf, thanksOf } from '../surveys/questions.js';
import type { SurveyBrand } from '../surveys/compose.js';
import type { Settings } from '../settings/settings.js';
import { BUCKETS } from '../settings/scales.js';
import type { EntryAnswer, EntryPlace, QrPorts } from './ports.js';

/**
 * The walk-in entry path that a QR code's page and a kiosk share: who asks, the store and employee an entry answers,
 * its page opened in the browser's language, its empty form and thanks, and its one answer path.
 */

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
export async function openEntry<T extends EntryTarget>({
  code,
  settings,
  ports,
  languages,
  closed,
}: {
  /** The QR code or kiosk the entry is for. */
  code: T;
  settings: Settings;
  ports: Pick<QrPorts, 'brand' | 'place'>;
  languages: AskedLanguages;
  /** The words of the page a closed entry shows. */
  closed: CustomerKey;
}) {
  const journey = settings.journeys.find((j) => j.id === code.journeyId);
  const locale = localeOfRequest(languages, journey?.locale ?? settings.locale ?? DEFAULT_LOCALE);
  if (!journey) return told({ status: 404, frame: { locale }, title: 'notFound.title', text: 'notFound.text' });
  const [brand, place] = await Promise.all([
    ports.brand(code.tenantId, code.storeId),
    ports.place(code.tenantId, code.storeId, code.employeeId),
  ]);
  const frame: PageFrame & { brand: SurveyBrand } = { locale, brand };
  if (placeProblems({ store: code.storeId, employee: code.employeeId }, place).length)
    return told({ status: 410, frame, title: 'expired.title', text: closed });
  return { code, settings, journey, frame, t: translator(locale) };
}
export type OpenedEntry = Exclude<Awaited<ReturnType<typeof openEntry<EntryTarget>>>, Page>;

const empty = (): Answer => ({ score: undefined, classes: new Map(), comment: '' });

function form({
  opened,
  action,
  answer,
  contact,
  problems,
  kiosk = false,
}: {
  opened: OpenedEntry;
  action: string;
  answer: Answer;
  contact: { email: string; phone: string };
  problems: string[];
  kiosk?: boolean;
}) {
  return surveyPage({ ...surveyView(opened, { token: action, customerName: null, chosen: answer, problems }), entry: contact, kiosk });
}

/** The thanks of an entry's answer, in the words of the bucket its score fell in (`refresh`: back to the start then). */
export function entryThanks(opened: OpenedEntry, thanks: string, refresh?: { seconds: number; url: string }): Page {
  const bucket = BUCKETS.find((b) => b === thanks);
  const { journey, frame, t } = opened;
  return page(
    200,
    messagePage(frame, {
      title: t('thanks.title'),
      text: thanksOf({ journey, bucket, company: frame.brand.name, locale: frame.locale, t }),
      refresh,
    }),
  );
}

/** An entry's empty form (it never shows an answer), posting to `action`. */
export const entryForm = (opened: OpenedEntry, action: string, kiosk = false) =>
  page(200, form({ opened, action, answer: empty(), contact: { email: '', phone: '' }, problems: [], kiosk }));

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
export async function answerEntry({
  opened,
  action,
  posted,
  how,
}: {
  opened: OpenedEntry;
  action: string;
  posted: URLSearchParams;
  how: EntryAnswering;
}): Promise<Page> {
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
    return page(400, form({ opened, action, answer, contact, problems, kiosk: how.source === 'kiosk' }));

  const thanks = { location: `${action}?thanks=${bucketOf(journey.indicator, answer.score)}` };
  // A bot filled the field people never see: thanked as anyone, recorded nowhere.
  if (extras.get(HONEYPOT_FIELD)) return page(303, messagePage(frame, { title: t('thanks.title'), text: t('thanks.title') }), thanks);

  const refused = await how.count();
  if (refused) return { ...told({ status: 429, frame, title: 'qr.tooMany.title', text: refused.words }), retryAfter: refused.retryAfter };

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
    if (error instanceof ValidationError) return told({ status: 410, frame, title: 'expired.title', text: how.closed });
    throw error;
  }
  return page(303, messagePage(frame, { title: t('thanks.title'), text: t('thanks.title') }), {
    ...thanks,
    ...(how.cookies ? { cookies: how.cookies } : {}),
  });
}
