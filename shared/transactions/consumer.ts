import type { Settings } from '../settings/settings.js';
import { tenantEvent } from '../events/events.js';
import type { EventPublisher } from '../events/ports.js';
import * as v from 'valibot';
import type { FieldProblem } from '../errors.js';
import { describeError, logger } from '../logger.js';
import { count } from '../metrics.js';
import { MAX_RECEIVE_COUNT, receiveCount, type EachRecord, type QueueRecord } from '../queues.js';
import { describeIssue } from '../schema.js';
import type { DispatchMessage } from '../surveys/dispatch.js';
import { TransactionMessage } from './message.js';
import type { Dispatcher, Referenced, ReferenceReader } from './ports.js';
import type { TransactionCommand } from './requests.js';
import { fromV2, V2TransactionBody } from './v2-request.js';
import { referencesOf, TransactionRejected, type TransactionService } from './service.js';

/** A record parsed once: its message, and the command its payload becomes or why the payload is refused. */
interface Parsed {
  message: TransactionMessage;
  command?: TransactionCommand;
  problems?: FieldProblem[];
  /** What the command names, read with the rest of its batch. */
  read?: Referenced;
  /** Its tenant's configuration, checked beside the batch's read. */
  settings?: Promise<Settings>;
  /** The batch's list of its tenant's registrations (for the analytics export), and the instant it lists them at. */
  listed?: { list: string; at: Date };
}

function parse(record: QueueRecord): Parsed {
  const message = v.parse(TransactionMessage, JSON.parse(record.body));
  const body = v.safeParse(V2TransactionBody, message.payload);
  if (body.success) return { message, command: fromV2(body.output) };
  return { message, problems: body.issues.map((issue) => ({ path: v.getDotPath(issue) ?? 'payload', message: describeIssue(issue) })) };
}

/** What became of one record: counted per batch in the batch's one log line. */
export type RecordOutcome = 'created' | 'duplicate' | 'rejected';

export interface ConsumerPorts {
  service: TransactionService;
  readReferences: ReferenceReader;
  /** The tenant's configuration, checked for each batch beside the batch's read (one round trip, not two). */
  settings: (tenantId: number) => Promise<Settings>;
  dispatcher: Dispatcher;
  /** Where `transaction.rejected` goes, with the request id the tenant was given for the request. */
  events?: { publisher: EventPublisher; requestIdOf: (tenantId: number, requestKey: string) => string };
  /**
   * Lists a batch's registrations of a tenant for the analytics export, once for the batch (a write per batch, not an
   * index entry per transaction); without it, or when it fails, each transaction is listed by its own entry.
   */
  listRegistrations?: (tenantId: number, at: string, requestKeys: string[]) => Promise<string>;
}

/** The TransactionQueue's records: read a batch at once, register each, send the batch's survey messages together. */
export function transactionConsumer({ service, readReferences, settings, dispatcher, events, listRegistrations }: ConsumerPorts) {
  /** Records a rejection, then tells the tenant's webhooks (the same event however often the message comes). */
  async function reject(
    tenantId: number,
    { requestKey, errors, receivedAt }: { requestKey: string; errors: FieldProblem[]; receivedAt: string },
  ): Promise<void> {
    await service.recordRejection(tenantId, { requestKey, errors, receivedAt });
    if (!events) return;
    const requestId = events.requestIdOf(tenantId, requestKey);
    await events.publisher.publish(
      tenantId,
      tenantEvent(tenantId, {
        type: 'transaction.rejected',
        subject: requestKey,
        data: { request_id: requestId, received_at: receivedAt, errors },
        at: new Date(),
      }),
    );
  }

  /**
   * Parses a batch and reads what all its transactions name in one or two BatchGetItem round trips, instead of one
   * or two per record. Records that do not parse are left out (their own processing fails them); when the batch
   * read fails, each record reads for itself.
   */
  async function prepareBatch(records: QueueRecord[]): Promise<Map<string, Parsed>> {
    const prepared = new Map<string, Parsed>();
    for (const record of records) {
      try {
        prepared.set(record.messageId, parse(record));
      } catch {
        // Reported when the record itself is processed.
      }
    }
    const readers = [...prepared.values()].filter((p) => p.command);
    const checks = new Map<number, Promise<Settings>>();
    for (const p of readers) {
      const { tenantId } = p.message;
      if (!checks.has(tenantId)) checks.set(tenantId, settings(tenantId));
      // Awaited by the record, whose own processing reports a failure.
      p.settings = checks.get(tenantId)!;
      p.settings.catch(() => undefined);
    }
    const listing = listBatch(readers);
    try {
      const reads = await readReferences(readers.map((p) => referencesOf(p.message.tenantId, p.command!, p.message.requestId)));
      readers.forEach((p, i) => (p.read = reads[i]));
    } catch (error) {
      logger.warn('Batch read failed; each record reads for itself', { error });
    }
    await listing;
    return prepared;
  }

  /**
   * Lists the batch's transactions of each tenant for the analytics export, beside the batch's read, all at one
   * instant. A list that cannot be written leaves its transactions to be listed one by one.
   */
  async function listBatch(readers: Parsed[]): Promise<void> {
    if (!listRegistrations) return;
    const at = new Date();
    const byTenant = new Map<number, Parsed[]>();
    for (const p of readers) byTenant.set(p.message.tenantId, [...(byTenant.get(p.message.tenantId) ?? []), p]);
    await Promise.all(
      [...byTenant].map(async ([tenantId, listed]) => {
        try {
          const list = await listRegistrations(
            tenantId,
            at.toISOString(),
            listed.map((p) => p.message.requestId),
          );
          for (const p of listed) p.listed = { list, at };
        } catch (error) {
          logger.warn('Batch list not written; its transactions are listed one by one', { error: describeError(error) });
        }
      }),
    );
  }

  /**
   * One TransactionQueue record. Business rejections are recorded against the request and the record is done;
   * anything thrown is an infrastructure failure: the record goes back to the queue (and to the DLQ after 5 receives).
   * Every failure is logged with what identifies it, never with the payload; on the last receive the request's
   * outcome becomes `failed`, so that its client learns it is not merely pending.
   */
  async function processTransactionRecord(
    record: QueueRecord,
    prepared?: Parsed,
    dispatch?: (message: DispatchMessage) => Promise<void>,
  ): Promise<RecordOutcome> {
    const receives = receiveCount(record);
    const where = { messageId: record.messageId, receives };
    let parsed: Parsed;
    try {
      parsed = prepared ?? parse(record);
    } catch (error) {
      logger.error('Transaction message cannot be read', { ...where, error: describeError(error) });
      throw error;
    }
    const { tenantId, requestId, receivedAt } = parsed.message;
    try {
      return await registerRecord(parsed, dispatch);
    } catch (error) {
      logger.error('Transaction record failed', {
        ...where,
        tenantId,
        requestId,
        lastReceive: receives >= MAX_RECEIVE_COUNT,
        error: describeError(error),
      });
      if (receives >= MAX_RECEIVE_COUNT)
        await service
          .recordFailure(tenantId, requestId, receivedAt)
          .catch((cause: unknown) => logger.error('Failure outcome not recorded', { tenantId, requestId, error: describeError(cause) }));
      throw error;
    }
  }

  async function registerRecord(
    { message, command, problems, read, settings: checked, listed }: Parsed,
    dispatch?: (message: DispatchMessage) => Promise<void>,
  ): Promise<RecordOutcome> {
    const { tenantId, requestId, receivedAt } = message;
    // Records of a batch run concurrently: log keys go on each line, not on the shared logger.
    const keys = { tenantId, requestId };
    if (!command) {
      // The API validated this shape; a message that fails now was not sent by it, or the schema changed under it.
      logger.warn('Transaction message failed validation', keys);
      await reject(tenantId, { requestKey: requestId, errors: problems ?? [], receivedAt });
      return 'rejected';
    }
    try {
      const { transaction, duplicate } = await service.registerTransaction(tenantId, {
        command,
        requestKey: requestId,
        read,
        ...(listed ? { now: listed.at, listedIn: listed.list } : {}),
        ...(checked ? { settings: await checked } : {}),
        ...(dispatch ? { dispatch } : {}),
      });
      logger.debug(duplicate ? 'Transaction already registered' : 'Transaction created', {
        ...keys,
        transactionId: transaction.id,
        survey: transaction.survey.status,
      });
      return duplicate ? 'duplicate' : 'created';
    } catch (error) {
      if (!(error instanceof TransactionRejected)) throw error;
      logger.debug('Transaction rejected', { ...keys, reasons: error.errors.map((e) => e.path) });
      count('TransactionsRejected', rejectionReason(error.errors[0]?.path));
      await reject(tenantId, { requestKey: requestId, errors: error.errors, receivedAt });
      return 'rejected';
    }
  }

  /**
   * The survey messages of a batch, sent together once its records are processed: one SendMessageBatch for ten
   * instead of ten SendMessage. `flush` answers the records whose message could not be sent, so that they go back to
   * the queue and are sent again on redelivery; records that failed anyway send nothing.
   */
  function dispatchOutbox() {
    const pending: { messageId: string; message: DispatchMessage }[] = [];
    return {
      for: (messageId: string) => async (message: DispatchMessage) => {
        pending.push({ messageId, message });
      },
      async flush(failed: ReadonlySet<string>): Promise<string[]> {
        const due = pending.filter((p) => !failed.has(p.messageId));
        if (!due.length) return [];
        const unsent = await dispatcher.sendBatch(due.map((p) => p.message));
        count('SurveysDispatched', undefined, due.length - unsent.length);
        if (unsent.length) logger.error('Survey dispatch messages not sent; their records go back to the queue', { unsent: unsent.length });
        return [...new Set(unsent.map((i) => due[i]!.messageId))];
      },
    };
  }

  /**
   * A batch: read at once (prepareBatch), each record registered (its survey messages held), then the messages of
   * the records that held sent together. Answers the records that go back to the queue, in the batch's order: those
   * that failed, and those whose survey message could not be sent.
   */
  async function consumeBatch(records: QueueRecord[], eachRecord: EachRecord<RecordOutcome>): Promise<string[]> {
    const prepared = await prepareBatch(records);
    const outbox = dispatchOutbox();
    const failed = await eachRecord((record) =>
      processTransactionRecord(record, prepared.get(record.messageId), outbox.for(record.messageId)),
    );
    const undelivered = await outbox.flush(new Set(failed));
    const position = new Map(records.map((record, i) => [record.messageId, i]));
    return [...failed, ...undelivered].sort((a, b) => position.get(a)! - position.get(b)!);
  }

  return { consumeBatch };
}

/** The metric dimension of a rejection: which rule refused it, from the field it names. */
export function rejectionReason(path: string | undefined): string {
  if (!path) return 'invalid';
  if (path.endsWith('.externalId')) return 'conflicting_reference';
  if (path.startsWith('transaction.journey')) return 'unknown_journey';
  if (path.endsWith('.score')) return 'score_not_supported';
  if (path.startsWith('ratingItems')) return 'class_not_available';
  if (path === 'store') return 'inactive_store';
  if (path === 'customer.id') return 'unknown_customer';
  return 'invalid';
}
