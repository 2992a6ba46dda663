import { randomBytes } from 'node:crypto';
import { ForbiddenError, GoneError, NotFoundError, NotReadyError, type FieldProblem } from '../errors.js';
import { describeError, logger } from '../logger.js';
import type { UserScope } from '../tenants/config-schema.js';
import type { DataSubjects, ErasureMark, PrivacyQueue, PrivacyRequestRecord, PrivacyRequests } from './ports.js';
import type { ExportDocument, PrivacyRequestInput, PrivacyRequestView } from './schema.js';

/** How long an export can be fetched after its request is done. */
export const EXPORT_DAYS = 7;
/**
 * An erasure looks again at its customers' transactions this long after it is done: the index it finds them by is
 * read eventually, and a sale registered while it ran may have copied the customer after it looked.
 */
export const ERASURE_RECHECK_SECONDS = 120;
/** Reads and strips of a transaction that keeps changing under an erasure before it gives up (the queue retries). */
export const STRIP_TRIES = 5;
const DAY_MS = 86_400_000;

export interface PrivacyPorts {
  requests: PrivacyRequests;
  subjects: DataSubjects;
  queue: PrivacyQueue;
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
export function privacyService({ requests, subjects, queue }: PrivacyPorts) {
  /** `id` is given when the request's id was needed before (open-requests.ts claims a slot with it). */
  async function submit(
    tenantId: number,
    input: PrivacyRequestInput,
    requestedBy: string,
    id = newPrivacyRequestId(),
  ): Promise<PrivacyRequestView> {
    const { type, ...identifiers } = input;
    const request: PrivacyRequestRecord = {
      id,
      type,
      status: 'pending',
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
   * the outcome. A redelivered message finds the request done and does nothing; an erasure that failed half way is
   * thrown, so the queue hands it out again (erasing twice is harmless).
   */
  async function process(
    tenantId: number,
    id: string,
    { lastTry = false, recheck = false } = {},
  ): Promise<'done' | 'rechecked' | 'skipped'> {
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

  async function work(tenantId: number, id: string): Promise<'done' | 'skipped'> {
    const request = await requests.get(tenantId, id);
    if (!request || request.status !== 'pending' || !request.identifiers) return 'skipped';
    const found = await subjects.find(tenantId, request.identifiers);
    const errors: FieldProblem[] = [];
    for (const customerId of found) {
      await subjects.named(tenantId, customerId, request);
      if (request.type === 'erase') await erase(subjects, tenantId, customerId, { requestId: request.id, at: new Date().toISOString() });
    }
    if (!found.length) errors.push({ path: '', message: 'no customer matches the identifiers given' });
    // Queued before the request is marked done: a failure between the two does it all again, twice is harmless.
    if (request.type === 'erase' && found.length)
      await queue.send({ version: 1, tenantId, requestId: id, recheck: true }, ERASURE_RECHECK_SECONDS);
    const status = 'done';
    await requests.finish(tenantId, id, { status, subjects: found, finishedAt: new Date().toISOString(), errors });
    logger.info('Privacy request done', { tenantId, privacyRequest: id, type: request.type, subjects: found.length });
    return status;
  }

  /** An erasure's second pass: what its customers' transactions copied since, or what the index had not shown yet. */
  async function eraseAgain(tenantId: number, id: string): Promise<'rechecked' | 'skipped'> {
    const request = await requests.get(tenantId, id);
    if (request?.type !== 'erase' || request.status !== 'done') return 'skipped';
    for (const customerId of request.subjects) await erase(subjects, tenantId, customerId, { requestId: id, at: new Date().toISOString() });
    return 'rechecked';
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
 * Erases a customer: what its transactions copied of it, then the customer itself. Each transaction is marked
 * first, so that no answer, correction or attempt writes to it any more, and only then read and stripped: an answer
 * that landed before the mark is in what is read. The strip holds only if the transaction still holds what was read
 * (something that does not look at the mark, or an earlier pass's answer, may have written since); otherwise it is
 * read again. A transaction is judged by what it holds, not by its mark, so a later pass finds what an earlier one
 * missed. Idempotent: erasing again strips nothing more and keeps the first mark.
 */
export async function erase(subjects: DataSubjects, tenantId: number, customerId: number, mark: ErasureMark): Promise<void> {
  const first = await subjects.copiesOf(tenantId, await subjects.transactionsOf(tenantId, customerId));
  // Those an earlier pass marked were read after their mark: they are stripped as read (a second pass, which finds
  // them all marked, writes to none that holds nothing). The others are marked, then read again.
  const unmarked = first.filter((read) => !read.marked).map((read) => read.transactionId);
  await subjects.markErased(tenantId, unmarked, mark);
  let held = first.filter((read) => read.marked && read.holdsCopies);
  let pending = unmarked;
  for (let tries = 0; held.length || pending.length; tries++) {
    if (tries === STRIP_TRIES) throw new Error(`${held.length + pending.length} transactions kept changing while they were erased`);
    held = [...held, ...(await subjects.copiesOf(tenantId, pending)).filter((read) => read.holdsCopies)];
    const stripped = await Promise.all(held.map((read) => subjects.strip(tenantId, read)));
    pending = held.filter((_, i) => !stripped[i]).map((read) => read.transactionId);
    held = [];
  }
  await subjects.eraseCustomer(tenantId, customerId, mark);
}

/** Privacy requests reach customers of every store: only a user who sees every store may make or read them. */
export function requireEveryStore(user: { scope: UserScope }): void {
  if (user.scope !== 'all') throw new ForbiddenError('Privacy requests need a user token with access to every store.');
}
