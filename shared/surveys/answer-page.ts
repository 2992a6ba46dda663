import { ConcurrentEditError, GoneError, NotFoundError, ValidationError } from '../errors.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import { isSupported, INDICATORS, type Indicator } from '../settings/scales.js';
import { DEFAULT_LOCALE, type Locale } from '../locale.js';
import { translator, type CustomerKey, type Translate } from '../i18n/messages.js';
import { firstName, type SurveyBrand } from './compose.js';
import { readSurveyLink, type SurveyLink } from './link.js';
import {
  MAX_COMMENT_LENGTH,
  messagePage,
  recoveryPage,
  surveyPage,
  unsubscribePage,
  type PageFrame,
  type ScaleQuestion,
  type SurveyPageView,
} from './page-html.js';
import { isPage, page, told, type Page } from './page.js';
import { bucketOf, bucketsOf, classQuestionOf, followUpOf, questionOf, thanksOf } from './questions.js';
import type { SurveyBody } from './answer-schema.js';
import { textProblem } from '../text.js';
import type { TransactionRecord } from '../transaction-record.js';

/**
 * The survey page behind a link: what GET shows and what POST records, in the survey's language and with the
 * tenant's brand. Every answer is an HTML page with a status: 200 the form (or thanks, once answered), 303 after a
 * recorded answer, 400 an invalid form shown again with its problems, 404 an unknown or tampered link, 409 an
 * attempt answered already, 410 an expired link. A page with no survey behind it speaks the browser's language.
 */

export interface PageTransaction {
  id: number;
  journeyId: number;
  journeySlug: string;
  storeId: number;
  customerId: number;
  customerName: string | null;
  attemptId: number | null;
  status: string;
  /** Its customer was erased: the survey is closed. */
  erased: boolean;
  /** The survey's language, chosen when the transaction was registered. */
  locale: Locale;
  /** The main score once answered. */
  score: number | null;
  /** Its recovery survey, once asked: its status, and the customer's answer once given. */
  recovery?: { status: string; recovered: boolean | null } | undefined;
  /**
   * The record it was read from, when the reads have one: the answer and the recovery use it instead of reading again.
   * A function, so that the customer's contacts it holds are never in what a log line or `JSON.stringify` of this
   * page's transaction writes (both leave functions out).
   */
  record?: (() => TransactionRecord) | undefined;
}

/** What a page reads of a transaction's record (`id`: the transaction's). */
export function pageTransactionOf(id: number, record: TransactionRecord): PageTransaction {
  const { transaction } = record;
  return {
    id,
    journeyId: transaction.journey_id,
    journeySlug: record.journeySlug,
    storeId: transaction.store_id,
    customerId: transaction.customer_id,
    customerName: record.customerName,
    attemptId: transaction.survey.attempt_id,
    status: transaction.survey.status,
    erased: record.erased,
    locale: record.locale ?? DEFAULT_LOCALE,
    score: transaction.rating?.score ?? null,
    recovery: record.recovery ? { status: record.recovery.status, recovered: record.recovery.recovered ?? null } : undefined,
    record: () => record,
  };
}

/** What every page reads: a page that only shows (GET) needs nothing else, and its function bundles nothing else. */
export interface PageReads {
  transaction(tenantId: number, id: number): Promise<PageTransaction | undefined>;
  settings(tenantId: number): Promise<Settings>;
  /** What the pages show of the tenant (its name, colour and logo) for a survey of this store. */
  brand(tenantId: number, storeId: number): Promise<SurveyBrand>;
}

export interface PagePorts extends PageReads {
  /**
   * The one answer path (the chatbot's POST /survey): the answer becomes the transaction's rating and evaluation.
   * `read` is what `transaction` answered for this request (with its `record`), so that the transaction need not be
   * read again.
   */
  answer(tenantId: number, body: SurveyBody, read: PageTransaction): Promise<unknown>;
  optOut(tenantId: number, customerId: number): Promise<void>;
  /**
   * The recovery survey's answer (`shared/recovery/`): kept once and recorded on its case. Throws
   * ConcurrentEditError when it was answered already, GoneError once expired, NotFoundError once closed.
   */
  recover?(tenantId: number, read: PageTransaction, answer: { recovered: boolean; score: number | null }): Promise<unknown>;
}

export type { Page };

/** A page of a title and a text from the catalogue: the title's own text unless `text` says another. */
const toldOf = ({
  status,
  frame,
  title,
  text,
}: {
  status: number;
  frame: PageFrame;
  title: 'notFound' | 'expired' | 'answered' | 'unsubscribed';
  text?: CustomerKey;
}) => told({ status, frame, title: `${title}.title`, text: text ?? `${title}.text` });

interface Opened {
  link: SurveyLink;
  transaction: PageTransaction;
  journey: JourneyConfig;
  settings: Settings;
  frame: PageFrame & { brand: SurveyBrand };
  t: Translate;
}

/** The attempt a token opens, or the page that says why it does not. */
async function open({
  token,
  ports,
  secret,
  now,
  requested,
  allowExpired = false,
}: {
  token: string;
  ports: PageReads;
  secret: string;
  now: Date;
  requested: Locale;
  allowExpired?: boolean;
}): Promise<Opened | Page> {
  const checked = readSurveyLink(token, secret, now);
  const anonymous: PageFrame = { locale: requested };
  if (checked.status === 'unknown') return toldOf({ status: 404, frame: anonymous, title: 'notFound' });
  if (checked.status === 'expired' && !allowExpired) return toldOf({ status: 410, frame: anonymous, title: 'expired' });
  const { link } = checked;
  const [transaction, settings] = await Promise.all([ports.transaction(link.tenantId, link.transactionId), ports.settings(link.tenantId)]);
  // Every attempt's link opens the survey until it expires; a recovery link, its recovery survey once sent.
  const opens =
    link.kind === 'recovery'
      ? transaction?.recovery?.status === 'sent' || transaction?.recovery?.status === 'answered'
      : transaction !== undefined && link.attemptId >= 1 && link.attemptId <= (transaction.attemptId ?? 0);
  if (!transaction || !opens) return toldOf({ status: 404, frame: anonymous, title: 'notFound' });
  const journey = settings.journeys.find((j) => j.id === transaction.journeyId);
  if (!journey) return toldOf({ status: 404, frame: anonymous, title: 'notFound' });
  const frame = { locale: transaction.locale, brand: await ports.brand(link.tenantId, transaction.storeId) };
  // An erased customer's survey is closed: an answer would bring personal data back (the unsubscribe page stays).
  if (transaction.erased && !allowExpired) return toldOf({ status: 410, frame, title: 'expired', text: 'closed.text' });
  return { link, transaction, journey, settings, frame, t: translator(frame.locale) };
}

/** Thanks, in the words of the bucket the main score fell in. */
function thanks(opened: Opened, status = 200): Page {
  const { journey, transaction, frame, t } = opened;
  const bucket = transaction.score === null ? undefined : bucketOf(journey.indicator, transaction.score);
  return page(
    status,
    messagePage(frame, {
      title: t('thanks.title'),
      text: thanksOf({ journey, bucket, company: frame.brand.name, locale: frame.locale, t }),
    }),
  );
}

function view({ opened, token, chosen, problems }: { opened: Opened; token: string; chosen: Answer; problems: string[] }): SurveyPageView {
  return surveyView(opened, { token, customerName: opened.transaction.customerName, chosen, problems });
}

/** What a survey's form shows: the journey's questions in the frame's language, the answer chosen so far, its problems. */
export function surveyView(
  { journey, settings, frame, t }: FormContext & { frame: PageFrame & { brand: SurveyBrand } },
  { token, customerName, chosen, problems }: { token: string; customerName: string | null; chosen: Answer; problems: string[] },
): SurveyPageView {
  return {
    ...frame,
    token,
    customerFirstName: firstName(customerName),
    question: {
      field: 'score',
      legend: questionOf({ journey, company: frame.brand.name, locale: frame.locale, t }),
      indicator: journey.indicator,
      chosen: chosen.score,
      optional: false,
    },
    followUps: bucketsOf(journey.indicator).map((bucket) => ({ bucket, text: followUpOf({ journey, bucket, locale: frame.locale, t }) })),
    classes: journey.classes.flatMap((id) => {
      const c = settings.classes.find((x) => x.id === id);
      return c
        ? [
            {
              field: `class_${c.id}`,
              legend: classQuestionOf(c, frame.locale, t),
              indicator: c.type,
              chosen: chosen.classes.get(c.id),
              optional: true,
            } satisfies ScaleQuestion,
          ]
        : [];
    }),
    comment: chosen.comment,
    problems,
  };
}

/** What reading a survey's form needs: the journey, the tenant's classes, the page's words. */
export interface FormContext {
  journey: JourneyConfig;
  settings: Settings;
  t: Translate;
}

export interface Answer {
  score: number | undefined;
  classes: Map<number, number>;
  comment: string;
}

/** GET /s/{token}: the form, with `score` chosen when the link carried one (nothing is recorded). */
export async function showSurvey({
  token,
  score,
  ports,
  secret,
  now = new Date(),
  requested = DEFAULT_LOCALE,
  recovery = {},
}: {
  token: string;
  score: string | undefined;
  ports: PageReads;
  secret: string;
  now?: Date;
  requested?: Locale;
  /** A recovery link's `solved` (yes or no), chosen as `score` is. */ recovery?: { solved?: string | undefined };
}): Promise<Page> {
  const opened = await open({ token, ports, secret, now, requested });
  if (isPage(opened)) return opened;
  if (opened.link.kind === 'recovery') return showRecovery(opened, token, recovery.solved);
  if (opened.transaction.status === 'answered') return thanks(opened);
  const preset =
    score !== undefined && /^\d{1,2}$/.test(score) && isSupported(opened.journey.indicator, Number(score)) ? Number(score) : undefined;
  return page(200, surveyPage(view({ opened, token, chosen: { score: preset, classes: new Map(), comment: '' }, problems: [] })));
}

/** POST /s/{token}: records the answer through the one answer path, with the attempt's channel as its source. */
export async function submitSurvey({
  token,
  form,
  ports,
  secret,
  now = new Date(),
  requested = DEFAULT_LOCALE,
}: {
  token: string;
  form: URLSearchParams;
  ports: PageReads & Pick<PagePorts, 'answer' | 'recover'>;
  secret: string;
  now?: Date;
  requested?: Locale;
}): Promise<Page> {
  const opened = await open({ token, ports, secret, now, requested });
  if (isPage(opened)) return opened;
  if (opened.link.kind === 'recovery') return submitRecovery({ opened, token, form, ports });
  if (opened.transaction.status === 'answered') return toldOf({ status: 409, frame: opened.frame, title: 'answered' });
  const { answer, problems } = readForm(form, opened);
  if (problems.length || answer.score === undefined)
    return page(
      400,
      surveyPage(view({ opened, token, chosen: answer, problems: problems.length ? problems : [opened.t('problem.chooseScore')] })),
    );
  try {
    await ports.answer(
      opened.link.tenantId,
      {
        transactionId: opened.transaction.id,
        attemptId: opened.link.attemptId,
        journey: opened.journey.slug,
        score: answer.score,
        classes: [...answer.classes].map(([classId, score]) => {
          const configured = opened.settings.classes.find((c) => c.id === classId)!;
          return { classId, label: configured.label, type: configured.type, score };
        }),
        ...(answer.comment ? { comment: answer.comment } : {}),
        source: opened.link.channel,
      },
      opened.transaction,
    );
  } catch (error) {
    if (error instanceof ConcurrentEditError) return toldOf({ status: 409, frame: opened.frame, title: 'answered' });
    // Erased, or expired, while the form was being filled in (the answer path refuses both).
    if (error instanceof GoneError) return toldOf({ status: 410, frame: opened.frame, title: 'expired' });
    if (error instanceof NotFoundError) return toldOf({ status: 410, frame: opened.frame, title: 'expired', text: 'closed.text' });
    if (error instanceof ValidationError)
      return page(400, surveyPage(view({ opened, token, chosen: answer, problems: error.errors.map((e) => e.message) })));
    throw error;
  }
  return { ...thanks({ ...opened, transaction: { ...opened.transaction, score: answer.score } }, 303), location: token };
}

const FIELD = /^(score|comment|class_(\d{1,9}))$/;

/**
 * The form's fields, each checked against the journey: a score on its scale, classes of the journey, a bounded comment;
 * the `extra` fields a page adds (a QR page's contact) are answered as given, once each.
 */
export function readForm(
  form: URLSearchParams,
  opened: FormContext,
  extra: readonly string[] = [],
): { answer: Answer; problems: string[]; extras: Map<string, string> } {
  const { t } = opened;
  const extras = new Map<string, string>();
  const problems: string[] = [];
  const answer: Answer = { score: undefined, classes: new Map(), comment: '' };
  const range = (indicator: Indicator) => INDICATORS[indicator];
  const seen = new Set<string>();
  let scoreProblem = false;
  for (const [name, value] of form) {
    const match = FIELD.exec(name);
    if (!match && !extra.includes(name)) {
      problems.push(t('problem.unknownField', { name: name.slice(0, 40) }));
      continue;
    }
    if (seen.has(name)) {
      problems.push(t('problem.repeatedField', { name }));
      continue;
    }
    seen.add(name);
    if (!match) {
      extras.set(name, value.trim());
      continue;
    }
    if (name === 'comment') {
      if ([...value].length > MAX_COMMENT_LENGTH) problems.push(t('problem.commentLength', { max: MAX_COMMENT_LENGTH }));
      // The API's one text rule (shared/text.ts), said in the page's language.
      if (textProblem(value, { lines: true })) problems.push(t('problem.commentText'));
      answer.comment = value.trim().slice(0, 4 * MAX_COMMENT_LENGTH);
      continue;
    }
    if (value === '') continue;
    const score = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
    if (name === 'score') {
      if (isSupported(opened.journey.indicator, score)) answer.score = score;
      else {
        scoreProblem = true;
        problems.push(t('problem.scoreRange', range(opened.journey.indicator)));
      }
      continue;
    }
    const classId = Number(match[2]);
    const configured = opened.journey.classes.includes(classId) ? opened.settings.classes.find((c) => c.id === classId) : undefined;
    if (!configured) problems.push(t('problem.unknownClass', { id: classId }));
    else if (!isSupported(configured.type, score))
      problems.push(t('problem.classRange', { label: configured.label, ...range(configured.type) }));
    else answer.classes.set(classId, score);
  }
  if (answer.score === undefined && !scoreProblem) problems.unshift(t('problem.chooseScore'));
  return { answer, problems, extras };
}

// ---- The recovery survey: "Did we solve it?", yes or no, and an optional new score --------------------------------

function recoveryView({
  opened,
  token,
  solved,
  score,
  problems,
}: {
  opened: Opened;
  token: string;
  solved: 'yes' | 'no' | undefined;
  score: number | undefined;
  problems: string[];
}) {
  const { journey, transaction, frame, t } = opened;
  return recoveryPage({
    ...frame,
    token,
    customerFirstName: firstName(transaction.customerName),
    question: t('recovery.question', { company: frame.brand.name }),
    solved,
    score: { field: 'score', legend: t('recovery.scoreQuestion'), indicator: journey.indicator, chosen: score, optional: true },
    problems,
  });
}

/** Thanks, in the words of the answer given. */
function recoveryThanks(opened: Opened, recovered: boolean | null, status = 200): Page {
  const { frame, t } = opened;
  const text = recovered === false ? t('recovery.thanksNo', { company: frame.brand.name }) : t('recovery.thanksYes');
  return page(status, messagePage(frame, { title: t('thanks.title'), text }));
}

const solvedOf = (value: string | undefined) => (value === 'yes' || value === 'no' ? value : undefined);

/** GET of a recovery link: the form (with `solved` chosen when the e-mail's button carried it), or thanks once answered. */
function showRecovery(opened: Opened, token: string, solved: string | undefined): Page {
  const recovery = opened.transaction.recovery!;
  if (recovery.status === 'answered') return recoveryThanks(opened, recovery.recovered);
  return page(200, recoveryView({ opened, token, solved: solvedOf(solved), score: undefined, problems: [] }));
}

/** POST of a recovery link: yes or no (required) and a score on the journey's scale (optional), recorded once. */
async function submitRecovery({
  opened,
  token,
  form,
  ports,
}: {
  opened: Opened;
  token: string;
  form: URLSearchParams;
  ports: Pick<PagePorts, 'recover'>;
}): Promise<Page> {
  const { t, journey } = opened;
  const problems: string[] = [];
  let solved: 'yes' | 'no' | undefined;
  let score: number | undefined;
  const seen = new Set<string>();
  for (const [name, value] of form) {
    if (name !== 'solved' && name !== 'score') {
      problems.push(t('problem.unknownField', { name: name.slice(0, 40) }));
      continue;
    }
    if (seen.has(name)) {
      problems.push(t('problem.repeatedField', { name }));
      continue;
    }
    seen.add(name);
    if (name === 'solved') solved = solvedOf(value);
    else if (value !== '') {
      const n = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
      if (isSupported(journey.indicator, n)) score = n;
      else problems.push(t('problem.scoreRange', INDICATORS[journey.indicator]));
    }
  }
  if (!solved) problems.unshift(t('recovery.chooseSolved'));
  if (problems.length) return page(400, recoveryView({ opened, token, solved, score, problems }));
  if (opened.transaction.recovery?.status === 'answered' || !ports.recover) {
    // Answered already: the answer path still records the first answer on its case (a retried page heals).
    if (ports.recover)
      await ports
        .recover(opened.link.tenantId, opened.transaction, { recovered: solved === 'yes', score: score ?? null })
        .catch(() => undefined);
    return toldOf({ status: 409, frame: opened.frame, title: 'answered' });
  }
  try {
    await ports.recover(opened.link.tenantId, opened.transaction, { recovered: solved === 'yes', score: score ?? null });
  } catch (error) {
    if (error instanceof ConcurrentEditError) return toldOf({ status: 409, frame: opened.frame, title: 'answered' });
    if (error instanceof GoneError) return toldOf({ status: 410, frame: opened.frame, title: 'expired' });
    if (error instanceof NotFoundError) return toldOf({ status: 410, frame: opened.frame, title: 'expired', text: 'closed.text' });
    if (error instanceof ValidationError)
      return page(400, recoveryView({ opened, token, solved, score, problems: error.errors.map((e) => e.message) }));
    throw error;
  }
  return { ...recoveryThanks(opened, solved === 'yes', 303), location: token };
}

/** GET /s/{token}/unsubscribe: asks to confirm. Links keep this page after they expire. */
export async function showUnsubscribe({
  token,
  ports,
  secret,
  now = new Date(),
  requested = DEFAULT_LOCALE,
}: {
  token: string;
  ports: PageReads;
  secret: string;
  now?: Date;
  requested?: Locale;
}): Promise<Page> {
  const opened = await open({ token, ports, secret, now, requested, allowExpired: true });
  return isPage(opened) ? opened : page(200, unsubscribePage(opened.frame, token));
}

/** POST /s/{token}/unsubscribe (the page's button, or a mail client's RFC 8058 one-click post): opts the customer out. */
export async function unsubscribe({
  token,
  ports,
  secret,
  now = new Date(),
  requested = DEFAULT_LOCALE,
}: {
  token: string;
  ports: PageReads & Pick<PagePorts, 'optOut'>;
  secret: string;
  now?: Date;
  requested?: Locale;
}): Promise<Page> {
  const opened = await open({ token, ports, secret, now, requested, allowExpired: true });
  if (isPage(opened)) return opened;
  await ports.optOut(opened.link.tenantId, opened.transaction.customerId);
  return toldOf({ status: 200, frame: opened.frame, title: 'unsubscribed' });
}
