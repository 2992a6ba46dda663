import { dayOf, periodEnding, periodProblems } from '../dates.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { UserScope } from '../access/user-scope.js';
import type { Settings } from '../settings/settings.js';
import { regionLimit } from '../regions.js';
import { INDICATORS } from '../settings/scales.js';
import type { Sentiment } from '../themes/ports.js';
import { themesOf, type Theme } from '../themes/themes.js';
import { answersCsv } from './csv.js';
import type { AnswerSelection, AnswerStore, StoredAnswer } from './ports.js';
import { bucketOf, DEFAULT_ANSWER_DAYS, scoresOf, type AnswerBody, type AnswersBody, type AnswersQuery } from './schema.js';

export interface AnswersPorts {
  answers: AnswerStore;
  /** The tenant's journeys, classes and themes (absent: the defaults). */
  settings: (tenantId: number) => Promise<Settings & { themes?: readonly Theme[] }>;
}

/** A page of answers, and the customers it shows by name or comment (whose reads the access log records). */
export interface AnswersPage {
  body: AnswersBody;
  shownCustomers: number[];
  /** The page as CSV (`Accept: text/csv`): the same rows. */
  csv: () => string;
}

/**
 * GET /public/answers: the answers a user may see, newest first, with their labels. A user limited to some stores
 * sees their answers only; naming a store outside its scope is a 404, as in the results.
 */
export function answersService({ answers, settings }: AnswersPorts) {
  async function listAnswers(
    tenantId: number,
    { query, scope, now = Date.now() }: { query: AnswersQuery; scope: UserScope; now?: number },
  ): Promise<AnswersPage> {
    const config = await settings(tenantId);
    const selection = selectionOf(tenantId, { query, scope, config, now });
    const { answers: found, nextCursor } = await answers.list(selection);
    const data = found.flatMap((answer) => bodyOf(answer, config));
    return {
      body: { data, limit: selection.limit, next_cursor: nextCursor },
      shownCustomers: [...new Set(data.filter((a) => a.customer.name !== null || a.comment !== null).map((a) => a.customer.id))],
      csv: () => answersCsv(data, config.classes),
    };
  }
  return { listAnswers };
}

function selectionOf(
  tenantId: number,
  { query, scope, config, now }: { query: AnswersQuery; scope: UserScope; config: Settings & { themes?: readonly Theme[] }; now: number },
): AnswerSelection {
  const problems: { path: string; message: string }[] = [];
  const journey =
    query.journey === undefined ? undefined : config.journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey);
  if (query.journey !== undefined && !journey) problems.push({ path: 'journey', message: 'is not a journey of this tenant' });
  const klass = query.class === undefined ? undefined : config.classes.find((c) => c.id === query.class);
  if (query.class !== undefined && !klass) problems.push({ path: 'class', message: 'is not a class of this tenant' });
  if (query.theme !== undefined && !themesOf(config).some((theme) => theme.slug === query.theme))
    problems.push({ path: 'theme', message: 'is not a theme of this tenant' });
  const [aspectTheme, aspect] = (query.aspect?.split(':') ?? []) as [string?, Sentiment?];
  if (aspectTheme !== undefined && !themesOf(config).some((theme) => theme.slug === aspectTheme))
    problems.push({ path: 'aspect', message: 'is not a theme of this tenant' });
  if (aspectTheme !== undefined && query.theme !== undefined && query.theme !== aspectTheme)
    problems.push({ path: 'aspect', message: 'must name the same theme as theme' });
  const theme = query.theme ?? aspectTheme;

  const to = query.to ?? dayOf(now);
  const from = query.from ?? periodEnding(to, DEFAULT_ANSWER_DAYS);
  for (const { path, message } of periodProblems(from, to)) problems.push({ path, message });

  let journeys: AnswerSelection['journeys'] = journey ? [{ id: journey.id }] : undefined;
  if (query.bucket !== undefined) {
    const bucket = query.bucket;
    journeys = (journey ? [journey] : config.journeys).flatMap((j) => {
      const scores = scoresOf(j.indicator, bucket);
      return scores ? [{ id: j.id, scores }] : [];
    });
    if (journey && !journeys.length)
      problems.push({ path: 'bucket', message: `is not a bucket of journey ${journey.slug}'s ${journey.indicator} scale` });
  }
  if (problems.length) throw new ValidationError('Invalid answer filters.', problems);

  const allowed = regionLimit(scope === 'all' ? undefined : scope.stores, config.regions ?? [], query.region);
  if (allowed && query.store !== undefined && !allowed.includes(query.store)) throw new NotFoundError('No such store.');
  const stores = query.store !== undefined ? [query.store] : allowed;
  const range = klass && INDICATORS[klass.type];
  return {
    tenantId,
    ...(stores ? { stores } : {}),
    from,
    to,
    ...(journeys ? { journeys } : {}),
    ...(query.employee !== undefined ? { employee: query.employee } : {}),
    ...(klass && range
      ? { rated: { classId: klass.id, scores: Array.from({ length: range.max - range.min + 1 }, (_, i) => range.min + i) } }
      : {}),
    ...(query.has_comment !== undefined ? { hasComment: query.has_comment === 'true' } : {}),
    ...(query.source !== undefined ? { source: query.source } : {}),
    ...(theme !== undefined ? { theme } : {}),
    ...(query.sentiment !== undefined ? { sentiment: query.sentiment } : {}),
    ...(aspect !== undefined ? { aspect } : {}),
    limit: query.limit,
    ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    // The cursor holds to the filters and the scope it was given under.
    query: JSON.stringify([
      'answers',
      tenantId,
      stores ?? 'all',
      from,
      to,
      journeys ?? null,
      query.employee ?? null,
      query.class ?? null,
      query.has_comment ?? null,
      query.source ?? null,
      query.theme ?? null,
      query.sentiment ?? null,
      // Only when asked: the cursors of queries without it stay as they were.
      ...(query.aspect !== undefined ? [query.aspect] : []),
    ]),
  };
}

/** An answer as the API shows it: with its journey, bucket and class labels; an answer whose journey is gone is left out. */
function bodyOf(answer: StoredAnswer, config: Settings): AnswerBody[] {
  const journey = config.journeys.find((j) => j.id === answer.journeyId);
  if (!journey) return [];
  return [
    {
      id: answer.id,
      transaction_id: answer.transactionId,
      answered_at: answer.answeredAt,
      journey: { id: journey.id, slug: journey.slug, indicator: journey.indicator },
      store: answer.storeId,
      employee: answer.employeeId,
      customer: { id: answer.customerId, name: answer.customerName },
      channel: answer.source,
      score: answer.score,
      bucket: bucketOf(journey.indicator, answer.score),
      comment: answer.comment,
      classes: answer.items.map((item) => ({
        class_id: item.classId,
        label: config.classes.find((c) => c.id === item.classId)?.label ?? null,
        score: item.score,
      })),
      sentiment: answer.sentiment,
      themes: answer.themes,
      aspects: answer.aspects,
    },
  ];
}
