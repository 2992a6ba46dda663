import { addressFor, CHANNEL_RECORDS, CHANNELS, type Channel } from '../channels.js';
import { ConcurrentEditError, GoneError, NotFoundError, ValidationError } from '../errors.js';
import { logger } from '../logger.js';
import { recoveryTally } from '../results/case-tally.js';
import type { DispatchMessage } from '../surveys/dispatch.js';
import type { Reachability, Scheduler } from '../surveys/ports.js';
import type { Settings } from '../settings/settings.js';
import { isSupported } from '../settings/scales.js';
import type { RecoverySurvey, TransactionRecord } from '../transaction-record.js';
import type { CaseRecoveryOutcome, CaseRecoveryRecorder, RecoveryAnswer, RecoveryCase, RecoveryRequester, RecoveryStore } from './ports.js';

/**
 * The recovery survey's rules: which channel asks it, who is never asked, and its one answer. Its delivery is the
 * first survey's (`shared/surveys/delivery.ts`, a dispatch message of kind `recovery`); its page is the survey
 * page's (`shared/surveys/answer-page.ts`, a link of kind `recovery`).
 */

/**
 * The channel that reached the customer, when a sender can carry a link on it (a survey handed to the chatbot on
 * WhatsApp is asked on WhatsApp itself; one on voice has no link to send), else the journey's first channel that
 * can reach them, else any channel that can.
 */
export function recoveryChannel(
  record: Pick<TransactionRecord, 'transaction' | 'surveyContact' | 'surveyContacts'>,
  journeyChannels: readonly Channel[],
): { channel: Channel; contact: string } | undefined {
  const reached = record.transaction.survey.channel;
  const sent = record.transaction.survey.sent_at !== undefined || record.transaction.survey.status === 'answered';
  // The current attempt's address is kept apart from the later attempts' (`surveyContacts`).
  const contacts = { ...record.surveyContacts };
  if (isChannel(reached) && record.surveyContact) contacts[CHANNEL_RECORDS[reached].contact] = record.surveyContact;
  const candidates = [...(sent && isChannel(reached) ? [reached] : []), ...journeyChannels, ...CHANNELS];
  for (const channel of candidates) {
    const contact = addressFor(channel, contacts);
    if (contact && CHANNEL_RECORDS[channel].sender !== null) return { channel, contact };
  }
  return undefined;
}

/** The answer as the case records it. */
const outcomeOf = (answer: RecoveryAnswer): CaseRecoveryOutcome => ({
  outcome: answer.recovered ? 'recovered' : 'not_recovered',
  at: answer.answeredAt,
  score: answer.score,
});

const isChannel = (value: string | null): value is Channel => value !== null && (CHANNELS as readonly string[]).includes(value);

/** Asking the customer: the `cases` service's optional port, called when a case becomes resolved. */
export function recoveryRequester({
  store,
  reachability,
  scheduler,
  settings: tenantSettings,
  clock = () => new Date(),
}: {
  store: RecoveryStore;
  reachability: Reachability;
  /** Puts the recovery's dispatch message on the survey dispatch queue. */
  scheduler: Scheduler;
  settings: (tenantId: number) => Promise<Settings>;
  clock?: () => Date;
}): RecoveryRequester {
  const dispatchOf = (
    tenantId: number,
    { record, channel, now }: { record: TransactionRecord; channel: Channel; now: Date },
  ): DispatchMessage => ({
    version: 1,
    kind: 'recovery',
    tenantId,
    transactionId: record.transaction.id,
    attemptId: 1,
    journeyId: record.transaction.journey_id,
    journey: record.journeySlug,
    channel,
    createdAt: now.toISOString(),
  });

  /**
   * Asks a resolved case's customer, once. A customer who opted out, was erased, or whom no channel reaches is
   * never asked (the survey is kept `not_sent` with the reason). A repeated request sends nothing more; one that
   * finds the survey still `scheduled` (a request that stopped before its message was queued) queues it again,
   * which the attempt's claim makes harmless.
   */
  const request: RecoveryRequester['request'] = async (tenantId, c: RecoveryCase) => {
    const now = clock();
    const record = await store.transaction(tenantId, c.id);
    if (!record) return 'missing';
    if (record.recovery) return repeat(tenantId, { record, stored: record.recovery, now });
    const settings = await tenantSettings(tenantId);
    const journey = settings.journeys.find((j) => j.id === record.transaction.journey_id);
    const reach = record.contactGone ? undefined : recoveryChannel(record, journey?.channels ?? []);
    let reason: RecoverySurvey['reason'] = reach ? null : 'no_contact';
    if (reach) {
      const check = await reachability.check(tenantId, { customerId: record.transaction.customer_id, contact: reach.contact });
      if (check === 'erased') reason = 'no_contact';
      else if (check !== 'ok') reason = check;
    }
    const recovery: RecoverySurvey = {
      case_id: String(c.id),
      status: reason ? 'not_sent' : 'scheduled',
      reason,
      channel: reach?.channel ?? null,
      requested_at: now.toISOString(),
      case_opened_on: c.openedAt.slice(0, 10),
    };
    const opened = await store.open(tenantId, c.id, recovery);
    if (opened === 'missing') return 'missing';
    if (opened !== 'created') return repeat(tenantId, { record, stored: opened.exists, now });
    if (reason || !reach) {
      logger.debug('Recovery survey not sent', { tenantId, transactionId: c.id, caseId: c.id, reason });
      return 'not_sent';
    }
    await scheduler.schedule(dispatchOf(tenantId, { record, channel: reach.channel, now }), now, now);
    return 'scheduled';
  };

  async function repeat(tenantId: number, { record, stored, now }: { record: TransactionRecord; stored: RecoverySurvey; now: Date }) {
    if (stored.status === 'scheduled' && isChannel(stored.channel))
      await scheduler.schedule(dispatchOf(tenantId, { record, channel: stored.channel, now }), now, now);
    return 'duplicate' as const;
  }

  return { request };
}

/**
 * The cases service's recordRecovery, once: an answer the case holds already (read through `find`) is not recorded
 * again, so that a retried page changes nothing and publishes no second `case.recovered`.
 */
export function recordOnce(
  find: (tenantId: number, caseId: number) => Promise<{ recovery?: { outcome: string; at: string } | null | undefined } | undefined>,
  record: CaseRecoveryRecorder['recordRecovery'],
): CaseRecoveryRecorder {
  return {
    async recordRecovery(tenantId, caseId, recovery) {
      const held = (await find(tenantId, caseId))?.recovery;
      if (held?.outcome === recovery.outcome && held.at === recovery.at) return;
      return record(tenantId, caseId, recovery);
    },
  };
}

/** The customer's answer on the recovery page. */
export function recoveryAnswers({
  store,
  settings: tenantSettings,
  recorder,
  clock = () => new Date(),
}: {
  store: RecoveryStore;
  settings: (tenantId: number) => Promise<Settings>;
  /** The `cases` service's recordRecovery; without it an answer is kept and counted, and marks no case. */
  recorder?: CaseRecoveryRecorder | undefined;
  clock?: () => Date;
}) {
  /**
   * The customer's answer (the recovery page): kept on the survey and counted in the results in one conditional
   * write, then recorded on the case. A second answer is refused (ConcurrentEditError), after recording the first
   * one on the case again: a page that failed between the two writes is healed by the customer's retry.
   */
  async function answer(tenantId: number, record: TransactionRecord, given: Omit<RecoveryAnswer, 'answeredAt'>): Promise<RecoveryAnswer> {
    const now = clock();
    const recovery = record.recovery;
    if (!recovery || (recovery.status !== 'sent' && recovery.status !== 'answered'))
      throw new NotFoundError('No recovery survey to answer.');
    if (recovery.status === 'answered') return refuse(tenantId, recovery);
    if (recovery.expires_at && Date.parse(recovery.expires_at) <= now.getTime()) throw new GoneError('This survey expired.');
    if (record.erased) throw new NotFoundError('This survey is closed.');
    const settings = await tenantSettings(tenantId);
    const journey = settings.journeys.find((j) => j.id === record.transaction.journey_id);
    if (given.score !== null && (!journey || !isSupported(journey.indicator, given.score)))
      throw new ValidationError('The score does not fit this survey.', [{ path: 'score', message: 'is not on the journey scale' }]);
    const answered: RecoveryAnswer = { ...given, answeredAt: now.toISOString() };
    const { transaction } = record;
    const tally = recoveryTally(
      {
        journeyId: transaction.journey_id,
        storeId: transaction.store_id,
        employeeId: transaction.employee_id,
        openedAt: recovery.case_opened_on,
      },
      given.recovered,
    );
    const outcome = await store.answer(tenantId, { transactionId: transaction.id, answer: answered, tally });
    if (outcome === 'missing') throw new NotFoundError('No recovery survey to answer.');
    if (outcome === 'conflict') {
      const latest = await store.transaction(tenantId, transaction.id);
      if (latest?.recovery?.status === 'answered') return refuse(tenantId, latest.recovery);
      throw new ConcurrentEditError('This survey is answered already.');
    }
    await recorder?.recordRecovery(tenantId, Number(recovery.case_id), outcomeOf(answered));
    return answered;
  }

  async function refuse(tenantId: number, stored: RecoverySurvey): Promise<never> {
    if (stored.answered_at && stored.recovered !== undefined)
      await recorder?.recordRecovery(
        tenantId,
        Number(stored.case_id),
        outcomeOf({ recovered: stored.recovered, score: stored.score ?? null, answeredAt: stored.answered_at }),
      );
    throw new ConcurrentEditError('This survey is answered already.');
  }

  return { answer };
}

export type RecoveryAnswers = ReturnType<typeof recoveryAnswers>;
