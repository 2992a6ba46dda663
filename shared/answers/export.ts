import { createHash, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { outsideScope, UserScope } from '../access/user-scope.js';
import { dayOf, DAY_MS, periodEnding } from '../dates.js';
import { ValidationError } from '../errors.js';
import { workspaceTranslator } from '../i18n/messages.js';
import { DEFAULT_LOCALE, timeZoneOf } from '../locale.js';
import { PAGING } from '../paging.js';
import type { Reader } from '../privacy/access.js';
import type { Settings } from '../settings/settings.js';
import type { UserRecord } from '../access/ports.js';
import { AnswersQuery, DEFAULT_ANSWER_DAYS } from './schema.js';
import type { AnswersPage } from './service.js';
import { workspaceCsv } from './workspace-csv.js';

/**
 * How long an export lives. The file is offered for a day after it is written; the bucket's lifecycle removes it
 * the day after (S3 expires objects at day granularity), and the job's item goes with the table's TTL after three
 * days: an erased customer's answers do not outlive two days in an export. A job still running after `staleMinutes`
 * (its consumer failed every retry) no longer holds its place: asking again starts a new one. The download route
 * checks the user each time and redirects to an address of the file that lasts `redirectSeconds`.
 */
export const ANSWER_EXPORT = {
  linkDays: 1,
  fileDays: 1,
  jobDays: 3,
  staleMinutes: 15,
  progressEveryRows: 1000,
  redirectSeconds: 300,
} as const;

/** The message of the export queue: one job's one run. */
export const ExportMessage = v.strictObject({ tenantId: v.number(), id: v.string(), run: v.string() });
export type ExportMessage = v.InferOutput<typeof ExportMessage>;

/** An export of the answers page's filters, asked by one user, in the scope they had when they asked. */
export const ExportJob = v.object({
  id: v.string(),
  /** Each start of the job is a run: the file's name, and what a message must name to write it. */
  run: v.string(),
  user: v.string(),
  /** The answers page's filters, with the period written out (`from`, `to`). */
  filters: v.record(v.string(), v.string()),
  scope: UserScope,
  status: v.picklist(['running', 'done']),
  rows: v.number(),
  startedAt: v.string(),
  finishedAt: v.optional(v.string()),
});
export type ExportJob = v.InferOutput<typeof ExportJob>;

export interface ExportJobStore {
  /** Writes `job` unless a run of the same id started after `staleBefore` is still running; answers the job that holds. */
  start(tenantId: number, job: ExportJob, held: { staleBefore: string; expiresAt: Date }): Promise<{ job: ExportJob; started: boolean }>;
  find(tenantId: number, id: string): Promise<ExportJob | undefined>;
  /** Sets the rows written so far (not adds: a redelivered run counts from zero again), while `run` is the job's running run. */
  progress(tenantId: number, run: ExportRun, rows: number): Promise<void>;
  finish(tenantId: number, run: ExportRun, done: { rows: number; at: string }): Promise<void>;
}

/** One run of one export job (a redelivery or a new start is another run of the same job). */
export interface ExportRun {
  id: string;
  run: string;
}

/** The export files: one object per job and run, written as a stream. */
export interface ExportFiles {
  write(tenantId: number, run: ExportRun, chunks: AsyncIterable<string>): Promise<void>;
  /** A short-lived address of the file, downloaded under `name`. */
  link(tenantId: number, run: ExportRun, name: string): Promise<string>;
}

export interface AnswerExportPorts {
  jobs: ExportJobStore;
  files: ExportFiles;
  send(message: ExportMessage): Promise<void>;
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'classes' | 'locale' | 'timeZone'>>;
  listAnswers(tenantId: number, asked: { query: AnswersQuery; scope: UserScope }): Promise<AnswersPage>;
  storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  employeeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  recordReads(tenantId: number, customerIds: number[], reader: Reader): Promise<void>;
}

/**
 * The filters an export is of: the page's, without its paging, with the period written out (a job asked on another
 * day is another job). Throws a ValidationError naming a wrong filter.
 */
export function exportFilters(query: Record<string, string | undefined>, now: number): Record<string, string> {
  const given = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '' && entry[0] !== 'cursor' && entry[0] !== 'limit',
  );
  const parsed = v.safeParse(AnswersQuery, Object.fromEntries(given));
  if (!parsed.success)
    throw new ValidationError(
      'Invalid answer filters.',
      parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    );
  const to = parsed.output.to ?? dayOf(now);
  const from = parsed.output.from ?? periodEnding(to, DEFAULT_ANSWER_DAYS);
  const entries: [string, string][] = [...given.filter(([name]) => name !== 'from' && name !== 'to'), ['from', from], ['to', to]];
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A job is one user's export of some filters: asking again while it runs finds it. */
export const exportIdOf = (user: string, filters: Record<string, string>): string =>
  createHash('sha256')
    .update(JSON.stringify([user, filters]))
    .digest('base64url')
    .slice(0, 22);

/**
 * The workspace export (issue 46 §5): the answers of the page's filters as one file for people, written by a job that
 * pages through the answers service (the API's query, in the asker's scope) and streams the file to the bucket, its
 * progress on the job's item; the file is offered for a day, to the user who asked, while the stores are still theirs.
 */
export function answerExports(ports: AnswerExportPorts) {
  /** Starts the export of `query` for `user`, or finds the one of the same filters that is running. */
  async function start(
    tenantId: number,
    { user, query, now = Date.now() }: { user: UserRecord; query: Record<string, string | undefined>; now?: number },
  ) {
    const filters = exportFilters(query, now);
    // The answers service checks the rest (a journey, a class, a store outside the user's scope) before a job is made.
    await ports.listAnswers(tenantId, { query: v.parse(AnswersQuery, { ...filters, limit: '1' }), scope: user.scope });
    const job: ExportJob = {
      id: exportIdOf(user.name, filters),
      run: randomUUID(),
      user: user.name,
      filters,
      scope: user.scope,
      status: 'running',
      rows: 0,
      startedAt: new Date(now).toISOString(),
    };
    const staleBefore = new Date(now - ANSWER_EXPORT.staleMinutes * 60_000).toISOString();
    const held = await ports.jobs.start(tenantId, job, { staleBefore, expiresAt: new Date(now + ANSWER_EXPORT.jobDays * DAY_MS) });
    if (held.started) await ports.send({ tenantId, id: job.id, run: job.run });
    return held.job;
  }

  /** The export of these filters that `user` asked, if any (the page shows its progress or its link). */
  async function find(
    tenantId: number,
    { user, query, now = Date.now() }: { user: UserRecord; query: Record<string, string | undefined>; now?: number },
  ) {
    let filters: Record<string, string>;
    try {
      filters = exportFilters(query, now);
    } catch {
      return undefined;
    }
    return ports.jobs.find(tenantId, exportIdOf(user.name, filters));
  }

  /**
   * Writes the file of one run. A message of another run, or of a run already done, writes nothing: a redelivered
   * message neither writes a second file nor counts rows twice (the same run writes the same object again, and its
   * progress is set, not added).
   */
  async function run({ tenantId, id, run }: ExportMessage): Promise<'exported' | 'skipped'> {
    const job = await ports.jobs.find(tenantId, id);
    if (!job || job.run !== run || job.status !== 'running') return 'skipped';
    const config = await ports.settings(tenantId);
    const csv = workspaceCsv({ locale: config.locale ?? DEFAULT_LOCALE, timeZone: timeZoneOf(config), ...config });
    let rows = 0;
    async function* chunks() {
      yield csv.header();
      let cursor: string | null | undefined;
      do {
        const query = v.parse(AnswersQuery, { ...job!.filters, limit: String(PAGING.maxLimit), ...(cursor ? { cursor } : {}) });
        const page = await ports.listAnswers(tenantId, { query, scope: job!.scope });
        const answers = page.body.data;
        const [stores, employees] = await Promise.all([
          ports.storeNames(tenantId, [...new Set(answers.map((a) => a.store))]),
          ports.employeeNames(tenantId, [...new Set(answers.map((a) => a.employee))]),
        ]);
        // The file shows customers' names and comments: each read is recorded, as the page's are.
        await ports.recordReads(tenantId, page.shownCustomers, {
          operation: 'exportAnswers',
          keyId: null,
          user: job!.user,
          requestId: run,
        });
        yield csv.rows(answers, { stores, employees });
        const before = rows;
        rows += answers.length;
        if (Math.floor(rows / ANSWER_EXPORT.progressEveryRows) > Math.floor(before / ANSWER_EXPORT.progressEveryRows))
          await ports.jobs.progress(tenantId, { id, run }, rows);
        cursor = page.body.next_cursor;
      } while (cursor);
    }
    await ports.files.write(tenantId, { id, run }, chunks());
    await ports.jobs.finish(tenantId, { id, run }, { rows, at: new Date().toISOString() });
    return 'exported';
  }

  /**
   * The download's address: only for the user who asked, while every store of the export is still in their scope, for
   * a day after it was written; undefined otherwise (the page says it is gone).
   */
  async function link(
    tenantId: number,
    { user, id, now = Date.now() }: { user: UserRecord; id: string; now?: number },
  ): Promise<string | undefined> {
    const job = await ports.jobs.find(tenantId, id);
    if (!job || job.user !== user.name || job.status !== 'done' || outsideScope(job.scope, user.scope)) return undefined;
    if (now > availableUntil(job)) return undefined;
    const t = workspaceTranslator((await ports.settings(tenantId)).locale ?? DEFAULT_LOCALE);
    return ports.files.link(tenantId, { id, run: job.run }, t('answers.export.fileName', { from: job.filters.from!, to: job.filters.to! }));
  }

  return { start, find, run, link };
}

/** Until when a finished export is offered (ms). */
export const availableUntil = (job: ExportJob): number => Date.parse(job.finishedAt ?? job.startedAt) + ANSWER_EXPORT.linkDays * DAY_MS;
