import type { Locale } from '../locale.js';
import type { Found } from '../paging.js';
import type { AnswerOrigin, Transaction, TransactionRecord } from '../transaction-record.js';
import type { EventPublisher } from '../events/ports.js';
import type { Tally } from '../results/tally.js';
import type { Channel, DispatchMessage } from './dispatch.js';

/** The storage and the providers survey delivery needs; `shared/adapters/attempt-repository.ts` and `senders.ts` implement them. */

export interface AttemptKey {
  /** The recovery survey's one attempt (`shared/recovery/`); absent: an attempt of the first survey. */
  kind?: 'recovery';
  tenantId: number;
  transactionId: number;
  attemptId: number;
}

/** What a claimed attempt tells its sender: where to send, and what the message names. */
export interface ClaimedAttempt extends AttemptKey {
  channel: Channel;
  /** When its transaction was registered: the day of its row in the analytics export's surveys dataset (not a recovery's). */
  registeredAt?: string;
  journeyId: number;
  storeId: number;
  employeeId: number;
  customerId: number;
  /** The phone (E.164) or e-mail address the attempt goes to. */
  contact: string;
  customerName: string | null;
  /** The survey's language (absent on surveys registered before languages: pt-BR). */
  locale?: Locale;
  /** Every attempt of the survey as planned (none for transactions registered before attempts existed). */
  plan?: PlannedAttempt[];
  /** When the survey's links lapse, once its first attempt was sent. */
  expiresAt?: string | undefined;
}

/** An attempt as the transaction planned it. */
export interface PlannedAttempt {
  attemptId: number;
  channel: Channel;
  /** Minutes after the attempt before it was sent. */
  afterMinutes: number;
  status: string;
}

/** The attempt that comes next, and when. */
export interface NextAttempt {
  attemptId: number;
  channel: Channel;
  dueAt: Date;
}

export type Claim =
  | { status: 'claimed'; attempt: ClaimedAttempt }
  /** Sent, answered or failed already: a redelivery, nothing to do. */
  | { status: 'done' }
  /** Another delivery holds the claim: retry later. */
  | { status: 'busy' }
  /** No such attempt (or the transaction is gone). */
  | { status: 'missing' };

/** A claim's terms: taken at `now` for `leaseSeconds`, to send on `channel`. */
export interface ClaimLease {
  now: Date;
  leaseSeconds: number;
  channel: Channel;
}

export interface AttemptStore {
  /** Takes the attempt for `leaseSeconds` with one conditional write, so that two deliveries cannot both send it. */
  /**
   * Takes attempt `key.attemptId` on `channel`. It may be the survey's current attempt, or the next one once the
   * attempt before it was sent or failed (the survey then moves on to it); an answered survey has nothing to claim.
   */
  claim(key: AttemptKey, lease: ClaimLease): Promise<Claim>;
  /**
   * The provider accepted the message: the attempt is sent, the survey's links lapse at `expiresAt` (kept from the
   * first attempt), and `next` is scheduled.
   */
  markSent(
    attempt: ClaimedAttempt,
    sent: {
      messageId: string;
      at: Date;
      expiresAt: Date;
      next?: NextAttempt | undefined;
      /** The result counters a survey's first send moves (`sent`), written with the mark. */
      tally?: Tally | undefined;
      /** Sent after its registration's day: that day (of this instant) is marked for the analytics export, with it. */
      analyticsMark?: string | undefined;
    },
  ): Promise<void>;
  /** The provider refused the contact or the attempt cannot go out: it is not retried; `next` takes its place. */
  markFailed(
    attempt: ClaimedAttempt,
    failure: {
      reason: 'refused' | 'not_configured' | 'opted_out' | 'undeliverable';
      detail: string;
      next?: NextAttempt | undefined;
      /** As markSent's. */
      analyticsMark?: string | undefined;
    },
  ): Promise<void>;
  /** Gives the claim back (a retryable failure, or quiet hours: then it is due again at `dueAt`). */
  release(attempt: ClaimedAttempt, dueAt?: Date): Promise<void>;
}

/** Puts a dispatch message back on the queue so that it arrives at `dueAt` (durably, however far away). */
export interface Scheduler {
  schedule(message: DispatchMessage, dueAt: Date, now: Date): Promise<void>;
}

/**
 * Whether a customer can still be surveyed: not erased (a sale that read the customer just before its erasure may
 * have registered the transaction after it, unmarked until the erasure's second pass), not opted out, the address
 * not known to bounce.
 */
export interface Reachability {
  /** Whether `customerId` can still be surveyed at `contact` (an e-mail address or a phone, whichever the channel takes). */
  check(tenantId: number, recipient: SurveyRecipient): Promise<'ok' | 'erased' | 'opted_out' | 'undeliverable'>;
}

/** Who a survey goes to: the customer, and the address or phone it is sent to. */
export interface SurveyRecipient {
  customerId: number;
  contact: string;
}

export interface StoreNames {
  tradeName(tenantId: number, storeId: number): Promise<string>;
}

export interface EmailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: { name: string; value: string }[];
  /** Ids SES hands back with the message's bounce or complaint (tenant, customer, transaction, attempt). */
  tags: Record<string, string>;
}
export interface SmsMessage {
  to: string;
  text: string;
  originationIdentity: string;
}
export interface WhatsAppMessage {
  to: string;
  phoneNumberId: string;
  template: string;
  language: string;
  /** The template's body parameters, in order. */
  parameters: string[];
}
export interface WebhookMessage {
  url: string;
  /** The raw body, exactly as signed. */
  body: string;
  headers: Record<string, string>;
}

export interface Sent {
  messageId: string;
}

/** One provider call per channel. A refusal that a retry cannot fix throws DeliveryRefused; anything else is retried. */
export interface Senders {
  email(message: EmailMessage): Promise<Sent>;
  sms(message: SmsMessage): Promise<Sent>;
  whatsapp(message: WhatsAppMessage): Promise<Sent>;
  webhook(message: WebhookMessage): Promise<Sent>;
}

/** The provider refused this message for good (an invalid number, a suppressed address): the attempt fails. */
export class DeliveryRefused extends Error {
  override name = 'DeliveryRefused';
  constructor(readonly detail: string) {
    super(detail);
  }
}

export interface DeliveryPorts {
  attempts: AttemptStore;
  /** The recovery survey's attempt, with the same promises (no plan: one attempt, no `tally`). */
  recoveries?: AttemptStore;
  scheduler: Scheduler;
  reachability: Reachability;
  stores: StoreNames;
  senders: Senders;
  /** Where `survey.failed` goes. */
  events?: EventPublisher;
}

// ---- Answers and evaluations ---------------------------------------------------------------------------------

/** An answer to a survey attempt: it becomes the transaction's rating. */
export interface Answer {
  rating: NonNullable<Transaction['rating']>;
  ratingItems: Transaction['rating_items'];
  /** Where it came from; `answeredAt` is kept from the first answer when an answer is replaced. */
  origin: AnswerOrigin;
  /** Who answered, as the chatbot reports it. */
  respondent: { name: string | null; phone: string | null; storeId: string | null; employeeId: string | null };
}

export type AnswerOutcome = 'written' | 'missing' | 'conflict';

/** An answer written onto the survey attempt `attemptId` of the transaction `read`. */
export interface AnswerWrite {
  read: TransactionRecord;
  attemptId: number;
  mode: 'create' | 'replace';
  answer: Answer;
  /** The result counters the answer moves, written with it (a correction's only if the answer read is still there). */
  tally?: Tally | undefined;
  /** Answered after its registration's day: that day (of this instant) is marked for the analytics export, with it. */
  analyticsMark?: string | undefined;
}

/** A page of the evaluations answered between two dates (inclusive), after `cursor` when one is given. */
export interface AnsweredBetween {
  from: string;
  to: string;
  limit: number;
  cursor: string | undefined;
}

/** Transactions as evaluations: `shared/adapters/evaluation-repository.ts` implements it. */
export interface EvaluationStore {
  transaction(tenantId: number, id: number): Promise<TransactionRecord | undefined>;
  /**
   * Writes an answer onto a transaction's survey attempt with one conditional write. `create` requires the attempt
   * not to be answered yet (of two answers at once, one wins: `conflict`); `replace` requires the answer `read` holds
   * to be the one stored (of two corrections at once, one wins: `conflict`).
   */
  writeAnswer(tenantId: number, write: AnswerWrite): Promise<{ outcome: AnswerOutcome; record?: TransactionRecord }>;
  /** Rated transactions answered between two dates (inclusive), newest first. */
  answeredBetween(tenantId: number, range: AnsweredBetween): Promise<Found<TransactionRecord>>;
  /** The rated transaction with this external id (the latest answered, when several share it). */
  answeredByExternalId(tenantId: number, externalId: string): Promise<TransactionRecord | undefined>;
}

/**
 * Where a written answer is announced for its case (shared/cases/, the case queue): the tenant, the transaction and the
 * answer's version only, no personal data. Announcing twice is harmless: the case's consumer opens one case per
 * transaction.
 */
export interface AnswerAnnouncer {
  answered(message: { tenantId: number; transactionId: number; version: number }): Promise<void>;
}
