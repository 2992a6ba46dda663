import { afterItsDay } from '../local-day.js';
import { periodProblems } from '../dates.js';
import { ConcurrentEditError, GoneError, NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { tenantEvent } from '../events/events.js';
import type { EventPublisher } from '../events/ports.js';
import { answerTally, countedOf, journeyTally, scoredRating, sentDayOf } from '../results/tally.js';
import type { Settings } from '../settings/settings.js';
import { INDICATORS, isSupported, type Indicator } from '../settings/scales.js';
import type { TransactionRecord } from '../transaction-record.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { timeZoneOf } from '../locale.js';
import { isExpired, linksLapsed } from './attempts.js';
import type { AnswerAnnouncer, EvaluationStore } from './ports.js';
import type { SurveyBody } from './answer-schema.js';
import { sourceOfCode, SURVEY_STATUS_CODES, type Evaluation, type EvaluationsQuery, type SurveyQuery } from './schema.js';

/** The longest date range the evaluation list accepts. */
export const MAX_EVALUATION_RANGE_DAYS = 92;

const notFound = () => new NotFoundError('No such survey attempt for this journey.');

function journeyOf(settings: Settings, id: number) {
  const journey = settings.journeys.find((j) => j.id === id);
  if (!journey) throw new NotFoundError('The journey of this survey no longer exists.');
  return journey;
}

const outOfScale = (score: number, indicator: Indicator) =>
  `${score} is not a ${indicator} score (${INDICATORS[indicator].min}-${INDICATORS[indicator].max})`;

/** An evaluation as the formbuilder routes answer it. */
export function toEvaluation({ transaction, journeySlug, answer }: TransactionRecord, settings: Settings): Evaluation {
  return {
    id: transaction.id,
    transaction_id: transaction.transaction_id,
    transaction: transaction.id,
    journey: journeySlug,
    store_id: transaction.store_id,
    employee_id: transaction.employee_id,
    customer_id: transaction.customer_id,
    score: transaction.rating?.score ?? null,
    comment: transaction.rating?.comment ?? null,
    items: transaction.rating_items.map((ri) => {
      const c = settings.classes.find((x) => x.id === ri.class_id);
      return { classId: ri.class_id, label: c?.label ?? '', type: c?.type ?? '', score: ri.score };
    }),
    source: answer?.source ?? 'api',
    src: answer?.src ?? RATING_SOURCES.api,
    answered_at: answer?.answeredAt ?? '',
    created_at: transaction.created_at,
  };
}

/** Surveys as the chatbot and the survey page conduct them, and their answers as evaluations. */
/** `survey.answered`: the answer as the evaluation lists show it, without who answered; a correction is a new event. */
function answeredEvent(tenantId: number, record: TransactionRecord, { journey, mode }: { journey: string; mode: 'create' | 'replace' }) {
  const { transaction, answer } = record;
  return tenantEvent(tenantId, {
    type: 'survey.answered',
    subject: `${transaction.id}/${answer?.version ?? 1}`,
    data: {
      transaction_id: transaction.id,
      external_id: transaction.transaction_id,
      journey,
      store_id: transaction.store_id,
      employee_id: transaction.employee_id,
      attempt_id: transaction.survey.attempt_id,
      score: transaction.rating?.score ?? null,
      comment: transaction.rating?.comment ?? null,
      rating_items: transaction.rating_items,
      answered_at: answer?.answeredAt ?? null,
      correction: mode === 'replace',
    },
    at: new Date(),
  });
}

export function surveyService({
  evaluations,
  settings: tenantSettings,
  events,
  cases,
  analysis,
}: {
  evaluations: EvaluationStore;
  settings: (tenantId: number) => Promise<Settings>;
  /** Where `survey.answered` goes, once the answer is written. */
  events?: EventPublisher;
  /** Where a written answer goes to open or update its case. */
  cases?: AnswerAnnouncer;
  /** Where a written answer with a comment goes for its themes and sentiment (shared/themes/). */
  analysis?: AnswerAnnouncer;
}) {
  /**
   * The transaction a survey attempt belongs to, if the attempt exists for that journey, with the tenant's settings.
   * The journey is compared by id: a slug renamed in the tenant file since the transaction still names it (by its
   * new slug, or by the one the transaction was registered under).
   */
  async function attemptOf(
    tenantId: number,
    { transactionId, attemptId, journey }: { transactionId: number; attemptId: number; journey: string },
    known?: TransactionRecord,
  ): Promise<{ record: TransactionRecord; settings: Settings }> {
    const [record, settings] = await Promise.all([
      known?.transaction.id === transactionId ? known : evaluations.transaction(tenantId, transactionId),
      tenantSettings(tenantId),
    ]);
    // Every attempt sent so far opens the survey: an answer to any of them answers it.
    const current = record?.transaction.survey.attempt_id ?? 0;
    const named =
      record?.journeySlug === journey || settings.journeys.some((j) => j.slug === journey && j.id === record?.transaction.journey_id);
    if (!record || !named || attemptId < 1 || attemptId > current) throw notFound();
    return { record, settings };
  }

  /**
   * What follows an answer: its `survey.answered` event, its case and, when it has a comment, its analysis, each sent
   * here only. `written` is false for an answer a client resends when it was written already (a conflict): its case
   * alone is looked at again, since the message of the first try may have been lost with its 500 (the case's consumer
   * is idempotent), and `record` is then the transaction as read before.
   */
  async function announce(
    tenantId: number,
    record: TransactionRecord,
    {
      journey = record.journeySlug,
      mode = 'create',
      written = true,
    }: { journey?: string; mode?: 'create' | 'replace'; written?: boolean } = {},
  ): Promise<void> {
    const message = { tenantId, transactionId: record.transaction.id, version: written ? (record.answer?.version ?? 1) : 1 };
    if (written && events) await events.publish(tenantId, answeredEvent(tenantId, record, { journey, mode }));
    if (cases) await cases.answered(message);
    if (written && analysis && record.transaction.rating?.comment?.trim()) await analysis.answered(message);
  }

  /** What a chatbot needs to conduct a survey (GET /survey). */
  async function getSurvey(tenantId: number, query: SurveyQuery) {
    const {
      record: { transaction, customerName },
      settings,
    } = await attemptOf(tenantId, query);
    const journey = journeyOf(settings, transaction.journey_id);
    const status =
      transaction.survey.status === 'answered' ? 'answered' : isExpired(transaction.survey, new Date()) ? 'expired' : 'scheduled';
    return {
      transactionId: transaction.id,
      attemptId: query.attemptId,
      journey: journey.slug,
      indicator: journey.indicator,
      scale: INDICATORS[journey.indicator],
      classes: journey.classes
        .flatMap((id) => settings.classes.filter((c) => c.id === id))
        .map((c) => ({ classId: c.id, label: c.label, type: c.type, scale: INDICATORS[c.type] })),
      customerFirstName: (customerName ?? '').split(/\s+/)[0] ?? '',
      channel: transaction.survey.channel,
      status,
      statusCode: SURVEY_STATUS_CODES[status],
    };
  }

  /**
   * Records (POST) or replaces (PUT) the answer to a survey attempt: the transaction's rating becomes the answer.
   * Scores out of scale are refused, never nulled; an attempt answered already is a 409 on POST; PUT needs an answer.
   * `known` is the transaction when the caller has just read it (the survey page): the write's condition still
   * checks the attempt, so a stale copy cannot record a wrong answer.
   */
  async function answerSurvey(
    tenantId: number,
    body: SurveyBody,
    { mode, known }: { mode: 'create' | 'replace'; known?: TransactionRecord | undefined },
  ): Promise<Evaluation> {
    const { record: read, settings } = await attemptOf(tenantId, body, known);
    const { transaction } = read;
    // As its links do (410), an expired survey takes no answer, nor a correction of one.
    if (linksLapsed(transaction.survey, new Date())) throw new GoneError('This survey expired: it takes no answer any more.');
    const journey = journeyOf(settings, transaction.journey_id);
    const errors: FieldProblem[] = [];
    if (!isSupported(journey.indicator, body.score)) errors.push({ path: 'score', message: outOfScale(body.score, journey.indicator) });
    const items = body.classes.flatMap((answer, i) => {
      const configured = settings.classes.find((c) => c.id === answer.classId);
      if (!configured || !journey.classes.includes(configured.id)) {
        errors.push({ path: `classes[${i}].classId`, message: `class ${answer.classId} is not a class of journey ${journey.slug}` });
        return [];
      }
      if (configured.type !== answer.type)
        errors.push({ path: `classes[${i}].type`, message: `class ${answer.classId} is of type ${configured.type}` });
      if (answer.score !== undefined && !isSupported(configured.type, answer.score))
        errors.push({ path: `classes[${i}].score`, message: outOfScale(answer.score, configured.type) });
      return answer.score === undefined ? [] : [{ class_id: configured.id, score: answer.score }];
    });
    if (errors.length) throw new ValidationError('The answer does not fit this survey.', errors);

    const source: SourceName = body.source ?? (body.src !== undefined ? sourceOfCode(body.src) : 'chatbot');
    const answer = {
      rating: { score: body.score, comment: body.comment ?? null },
      ratingItems: items,
      origin: { source, src: body.src ?? RATING_SOURCES[source], answeredAt: new Date().toISOString() },
      respondent: {
        name: body.name ?? null,
        phone: body.phone ?? null,
        storeId: body.storeId ?? null,
        employeeId: body.employeeId ?? null,
      },
    };
    // Results move with the answer: a correction takes back the answer it replaces (if that one was counted).
    const answeredAt = mode === 'replace' ? (read.answer?.answeredAt ?? answer.origin.answeredAt) : answer.origin.answeredAt;
    // A response only to a survey that was sent, on the day it was (a correction takes the same on both sides).
    const sentOn = sentDayOf(transaction);
    const scored = scoredRating({ ...transaction, rating: answer.rating, rating_items: items }, settings, {
      answeredAt,
      sentOn,
      source: answer.origin.source,
    });
    const previous =
      mode === 'replace' && read.answer?.version !== undefined
        ? scoredRating(transaction, settings, { answeredAt, sentOn, source: read.answer.source })
        : undefined;
    const tally = scored && journeyTally(journey, answerTally(countedOf(transaction), scored, previous));
    // An answer after its survey's registration day changes that day's surveys row in the analytics export: it marks it.
    const created = transaction.created_at;
    const late = mode === 'create' && afterItsDay(created, new Date(answer.origin.answeredAt), timeZoneOf(settings));
    const { outcome, record } = await evaluations.writeAnswer(tenantId, {
      read,
      attemptId: body.attemptId,
      mode,
      answer,
      tally,
      analyticsMark: late ? created : undefined,
    });
    if (outcome === 'written') await announce(tenantId, record!, { journey: journey.slug, mode });
    if (outcome === 'conflict') await announce(tenantId, read, { written: false });
    if (outcome === 'conflict')
      throw new ConcurrentEditError('This survey attempt is answered already: correct the answer with PUT /survey.');
    if (outcome === 'missing')
      throw mode === 'replace'
        ? new NotFoundError('This survey attempt has no answer to replace: answer it with POST /survey.')
        : notFound();
    return toEvaluation(record!, settings);
  }

  /** Evaluations answered between two dates (inclusive, UTC), newest first. */
  async function listEvaluations(tenantId: number, query: EvaluationsQuery) {
    const problems = periodProblems(query.start_date, query.end_date, {
      maxDays: MAX_EVALUATION_RANGE_DAYS,
      paths: ['start_date', 'end_date'],
    });
    if (problems.length) throw new ValidationError('Invalid date range.', problems);
    if (query.page > 1 && !query.cursor)
      throw new ValidationError('Walk this list with cursor.', [
        { path: 'page', message: 'pages after the first are reached with next_cursor' },
      ]);
    const [{ items, nextCursor }, settings] = await Promise.all([
      evaluations.answeredBetween(tenantId, { from: query.start_date, to: query.end_date, limit: query.limit, cursor: query.cursor }),
      tenantSettings(tenantId),
    ]);
    return { data: items.map((record) => toEvaluation(record, settings)), page: query.page, limit: query.limit, next_cursor: nextCursor };
  }

  /** One evaluation, by the transaction's internal id or (is_external) by its external id. */
  async function getEvaluation(tenantId: number, id: string, isExternal: boolean): Promise<Evaluation> {
    const absent = () => new NotFoundError(`Evaluation ${id} not found.`);
    let record: TransactionRecord | undefined;
    if (isExternal) record = await evaluations.answeredByExternalId(tenantId, id);
    else if (/^\d{1,15}$/.test(id)) record = await evaluations.transaction(tenantId, Number(id));
    if (!record?.answer) throw absent();
    return toEvaluation(record, await tenantSettings(tenantId));
  }

  /**
   * What follows an answer taken with its transaction (a store's QR code or kiosk, shared/in-store/): the event, its case
   * and, with a comment, its analysis, as answerSurvey sends them for a written answer.
   */
  const announceAnswer = (tenantId: number, record: TransactionRecord): Promise<void> => announce(tenantId, record);

  return { getSurvey, answerSurvey, announceAnswer, listEvaluations, getEvaluation };
}

export type SurveyService = ReturnType<typeof surveyService>;
