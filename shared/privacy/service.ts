import { randomBytes } from 'node:crypto';
import { GoneError, NotFoundError, NotReadyError, type FieldProblem } from '../errors.js';
import { describeError, logger } from '../logger.js';
import type { UserNeed } from '../access/tenant-access.js';
import type { DataSubjects, ErasureMark, PrivacyQueue, PrivacyRequestRecord, PrivacyRequests } from './ports.js';
import { MAX_DELAY_SECONDS } from '../queues.js';
import type { ExportDocument, PrivacyRequestInput, PrivacyRequestView } from './schema.js';

/** How long an export can be fetched after its request is done. */
export const EXPORT_DAYS = 7;
/**
 * How long after its first pass an erasure looks again at its customers' transactions, by default; it is `done` only
 * after that second pass. Why this long: the first pass ends by making the customer a marker (eraseCustomer), and the
 * second pass is queued after that. A sale that read the customer before the marker (the transaction consumer's
 * batch read) copies it into a transaction written within that same invocation, so at most CONSUMER_TIMEOUT_SECONDS
 * (30 s) after its read, and thus after the marker (a sale of the synchronous POST /public/transaction runs in an
 * API function, within Lambda's default 3 s, and API Gateway gives up at 30 s); a sale that reads after the marker
 * finds no customer (its client_id then makes a new one), and a retried sale reads afresh. Its transaction then shows in gsi8, the
 * eventually consistent index the passes list the customer's transactions by, after the index's lag (under a second
 * usually, seconds under load). A pass that starts CONSUMER_TIMEOUT_SECONDS + that lag after the marker therefore
 * lists every transaction that holds a copy; 120 s leaves 90 s for the lag, and SQS delays a message at most 900 s.
 * Its survey is not sent meanwhile either: the dispatcher reads the customer (strongly) and sends nothing to a marker.
 */
export const ERASURE_RECHECK_SECONDS = 120;

/**
 * The wait between an erasure's passes, from ERASURE_RECHECK_SECONDS in the environment (the local stack used by the
 * tests shortens it to a few seconds; anything under CONSUMER_TIMEOUT_SECONDS is only safe where no sale is slow).
 */
export function erasureRecheckSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return ERASURE_RECHECK_SECONDS;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_DELAY_SECONDS)
    throw new Error(`ERASURE_RECHECK_SECONDS must be a whole number of seconds from 0 to ${MAX_DELAY_SECONDS}`);
  return seconds;
}

/** Reads and strips of a transaction that keeps changing under an erasure before it gives up (the queue retries). */
export const STRIP_TRIES = 5;
const DAY_MS = 86_400_000;

export interface PrivacyPorts {
  requests: PrivacyRequests;
  subjects: DataSubjects;
  queue: PrivacyQueue;
  /** The wait between an erasure's two passes (ERASURE_RECHECK_SECONDS by default). */
  recheckSeconds?: number;
  /**
   * The analytics export (shared/analytics/): begins writing again the exported days that held the erased surveys and
   * answers; the request is done when that ends (erasureWritten).
   */
  analytics?: { rewriteDaysOf(tenantId: number, instants: string[], requestId: string): Promise<void> };
}

export const newPrivacyRequestId = () => `pr_${randomBytes(16).toString('base64url')}`;

const exportExpiry = (request: PrivacyRequestRecord) =>
  request.type === 'export' && request.status === 'done' && request.finishedAt
    ? new Date(Date.parse(request.finishedAt) + EXPORT_DAYS * DAY_MS).toISOString()
    : null;

export const viewOf = (request: PrivacyRequestRecord): PrivacyRequestView => ({
  id: request.id,
  type: request.type,
  status: request.status,
  subjects: request.subjects,
  requested_by: request.requestedBy,
  created_at: request.createdAt,
  finished_at: request.finishedAt,
  export_expires_at: exportExpiry(request),
  errors: request.errors,
});

/**
 * A data subject's rights under the LGPD: a copy of their data (export) and its deletion (erase). A request is
 * accepted at once and worked on from a queue: it finds every customer its identifiers match, then erases them or
 * makes their export readable for EXPORT_DAYS.
 */
export function privacyService({ requests, subjects, queue, recheckSeconds = ERASURE_RECHECK_SECONDS, analytics }: PrivacyPorts) {
  /** `id` is given when the request's id was needed before (open-requests.ts claims a slot with it). */
  async function submit(
    tenantId: number,
    { input, requestedBy, id = newPrivacyRequestId() }: { input: PrivacyRequestInput; requestedBy: string; id?: string },
  ): Promise<PrivacyRequestView> {
    const { type, ...identifiers } = input;
    const request: PrivacyRequestRecord = {
      id,
      type,
      status: 'pending',
      phase: null,
      identifiers,
      subjects: [],
      requestedBy,
      createdAt: new Date().toISOString(),
      finishedAt: null,
      errors: [],
    };
    await requests.insert(tenantId, request);
    await queue.send({ version: 1, tenantId, requestId: request.id });
    return viewOf(request);
  }

  async function read(tenantId: number, id: string): Promise<PrivacyRequestRecord> {
    const request = await requests.get(tenantId, id);
    if (!request) throw new NotFoundError(`Privacy request ${id} not found.`);
    return request;
  }

  /**
   * Works on one queued request: finds its subjects, notes the request on each, erases them if asked, and records
   * the outcome. An erasure that found customers stays pending after this first pass, with its subjects and phase
   * `recheck`, until its second pass (queued recheckSeconds later) is done: only then is it `done`, so that `done`
   * is true of every transaction, a sale's that raced the first pass included. A redelivered message finds the request
   * past this step and does nothing; an erasure that failed half way is thrown, so the queue hands it out again
   * (erasing twice is harmless).
   */
  async function process(
    tenantId: number,
    id: string,
    { lastTry = false, recheck = false } = {},
  ): Promise<'done' | 'rechecking' | 'rechecked' | 'rewriting' | 'skipped'> {
    try {
      return recheck ? await eraseAgain(tenantId, id) : await work(tenantId, id);
    } catch (error) {
      logger.error('Privacy request failed', { tenantId, privacyRequest: id, lastTry, error: describeError(error) });
      // The queue hands it out again; after its last try the tenant learns it must ask again.
      if (lastTry)
        await requests.finish(tenantId, id, {
          status: 'failed',
          subjects: [],
          finishedAt: new Date().toISOString(),
          errors: [{ path: '', message: 'the request could not be completed; submit it again' }],
        });
      throw error;
    }
  }

  async function work(tenantId: number, id: string): Promise<'done' | 'rechecking' | 'skipped'> {
    const request = await requests.get(tenantId, id);
    if (!request || request.status !== 'pending' || request.phase || !request.identifiers) return 'skipped';
    const found = await subjects.find(tenantId, request.identifiers);
    const errors: FieldProblem[] = [];
    for (const customerId of found) {
      await subjects.named(tenantId, customerId, request);
      if (request.type === 'erase')
        await erase(subjects, tenantId, { customerId, mark: { requestId: request.id, at: new Date().toISOString() } });
    }
    if (request.type === 'erase' && found.length) {
      // Queued before the phase is recorded: a failure between the two does it all again, twice is harmless (the
      // second pass that finds the request done does nothing).
      await queue.send({ version: 1, tenantId, requestId: id, recheck: true }, recheckSeconds);
      await requests.firstPassDone(tenantId, id, found);
      logger.info('Privacy request: first pass done', { tenantId, privacyRequest: id, subjects: found.length, recheckSeconds });
      return 'rechecking';
    }
    if (!found.length) errors.push({ path: '', message: 'no customer matches the identifiers given' });
    const status = 'done';
    await requests.finish(tenantId, id, { status, subjects: found, finishedAt: new Date().toISOString(), errors });
    logger.info('Privacy request done', { tenantId, privacyRequest: id, type: request.type, subjects: found.length });
    return status;
  }

  /**
   * An erasure's second pass: strips what its customers' transactions copied since the first, or what the index had
   * not shown it yet (a sale that read the customer just before it), then reports the request done. A request done
   * before erasures had phases (a second pass queued across a deployment) is erased again and left as it is.
   */
  async function eraseAgain(tenantId: number, id: string): Promise<'done' | 'rechecked' | 'rewriting' | 'skipped'> {
    const request = await requests.get(tenantId, id);
    if (request?.type !== 'erase') return 'skipped';
    const rechecking = request.status === 'pending' && request.phase === 'recheck';
    if (!rechecking && request.status !== 'done') return 'skipped';
    let late = 0;
    for (const customerId of request.subjects)
      late += await erase(subjects, tenantId, { customerId, mark: { requestId: id, at: new Date().toISOString() } });
    if (!rechecking) return 'rechecked';
    // Every strip held: no transaction of the subjects holds a copy any more. The analytics days that held their
    // surveys and answers are written again from the table as it now is (no customer key, no comment), by a chain of
    // the analytics queue whose end reports the request done (erasureWritten): a day of a large tenant takes many
    // invocations. A second pass delivered twice finds that chain begun already.
    if (analytics) {
      const answered: string[] = [];
      for (const customerId of request.subjects)
        for (const read of await subjects.copiesOf(tenantId, await subjects.transactionsOf(tenantId, customerId)))
          // Its survey's day, and its answer's (and its case's: a case opens on the answer).
          answered.push(...[read.createdAt, read.answeredAt].filter((at): at is string => typeof at === 'string'));
      await analytics.rewriteDaysOf(tenantId, answered, id);
      logger.info('Privacy request: analytics days being written again', { tenantId, privacyRequest: id, late });
      return 'rewriting';
    }
    await erasureWritten(requests, tenantId, id);
    return 'done';
  }

  /** The export of a done export request, while it has not expired. */
  async function exportOf(tenantId: number, id: string): Promise<ExportDocument> {
    const request = await read(tenantId, id);
    if (request.type !== 'export') throw new NotFoundError(`Privacy request ${id} is an erasure: it has no export.`);
    if (request.status === 'pending') throw new NotReadyError(`Privacy request ${id} is still pending; ask again shortly.`);
    const expires = exportExpiry(request);
    if (!expires || Date.parse(expires) < Date.now()) throw new GoneError(`The export of privacy request ${id} has expired.`);
    const dossiers = await Promise.all(request.subjects.map((customerId) => subjects.dossier(tenantId, customerId)));
    return {
      request: viewOf(request),
      generated_at: new Date().toISOString(),
      customers: dossiers.flatMap((dossier) =>
        dossier
          ? [
              {
                customer: dossier.customer,
                transactions: dossier.transactions,
                transactions_truncated: dossier.transactionsTruncated,
                cases: dossier.cases,
                privacy_requests: dossier.privacyRequests,
              },
            ]
          : [],
      ),
    };
  }

  return { submit, get: async (tenantId: number, id: string) => viewOf(await read(tenantId, id)), process, exportOf };
}

export type PrivacyService = ReturnType<typeof privacyService>;

/**
 * An erasure whose second pass is over, and whose analytics days are written again: done (once; a report delivered
 * twice finds it done already).
 */
export async function erasureWritten(requests: PrivacyRequests, tenantId: number, id: string): Promise<void> {
  const request = await requests.get(tenantId, id);
  if (request?.status !== 'pending') return;
  await requests.finish(tenantId, id, { status: 'done', subjects: request.subjects, finishedAt: new Date().toISOString(), errors: [] });
  logger.info('Privacy request done', { tenantId, privacyRequest: id, type: request.type, subjects: request.subjects.length });
}

/**
 * Erases a customer: what its transactions copied of it, then the customer itself. Each transaction is marked
 * first, so that no answer, correction or attempt writes to it any more, and only then read and stripped: an answer
 * that landed before the mark is in what is read. The strip holds only if the transaction still holds what was read
 * (something that does not look at the mark, or an earlier pass's answer, may have written since); otherwise it is
 * read again. A transaction is judged by what it holds, not by its mark, so a later pass finds what an earlier one
 * missed. Idempotent: erasing again strips nothing more and keeps the first mark. Answers how many transactions it
 * found holding a copy (and stripped).
 */
export async function erase(
  subjects: DataSubjects,
  tenantId: number,
  { customerId, mark }: { customerId: number; mark: ErasureMark },
): Promise<number> {
  const first = await subjects.copiesOf(tenantId, await subjects.transactionsOf(tenantId, customerId));
  // Those an earlier pass marked were read after their mark: they are stripped as read (a second pass, which finds
  // them all marked, writes to none that holds nothing). The others are marked, then read again.
  const unmarked = first.filter((read) => !read.marked).map((read) => read.transactionId);
  await subjects.markErased(tenantId, unmarked, mark);
  let held = first.filter((read) => read.marked && read.holdsCopies);
  let pending = unmarked;
  const holding = new Set<number>();
  for (let tries = 0; held.length || pending.length; tries++) {
    if (tries === STRIP_TRIES) throw new Error(`${held.length + pending.length} transactions kept changing while they were erased`);
    held = [...held, ...(await subjects.copiesOf(tenantId, pending)).filter((read) => read.holdsCopies)];
    for (const read of held) holding.add(read.transactionId);
    const stripped = await Promise.all(held.map((read) => subjects.strip(tenantId, read)));
    pending = held.filter((_, i) => !stripped[i]).map((read) => read.transactionId);
    held = [];
  }
  // A case copied the customer's name and comment when it opened, and holds the managers' notes about them (a case
  // opened from a read made before the mark is caught by the second pass).
  await subjects.eraseCases(tenantId, [...new Set([...first.map((read) => read.transactionId), ...unmarked])], mark);
  await subjects.eraseCustomer(tenantId, customerId, mark);
  return holding.size;
}

/** Privacy requests reach customers of every store: only a user who sees every store may make or read them. */
export const PRIVACY_USER: UserNeed = { everyStore: 'Privacy requests need a user token with access to every store.' };
