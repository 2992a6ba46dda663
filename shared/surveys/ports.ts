import type { Found } from '../paging.js';
import type { AnswerOrigin, TransactionRecord } from '../transactions/ports.js';
import type { Transaction } from '../transactions/schema.js';
import type { Channel } from './dispatch.js';

/** The storage and the providers survey delivery needs; `shared/adapters/attempt-repository.ts` and `senders.ts` implement them. */

export interface AttemptKey {
  tenantId: number;
  transactionId: number;
  attemptId: number;
}

/** What a claimed attempt tells its sender: where to send, and what the message names. */
export interface ClaimedAttempt extends AttemptKey {
  channel: Channel;
  journeyId: number;
  storeId: number;
  customerId: number;
  /** The phone (E.164) or e-mail address the attempt goes to. */
  contact: string;
  customerName: string | null;
}

export type Claim =
  | { status: 'claimed'; attempt: ClaimedAttempt }
  /** Sent, answered or failed already: a redelivery, nothing to do. */
  | { status: 'done' }
  /** Another delivery holds the claim: retry later. */
  | { status: 'busy' }
  /** No such attempt (or the transaction is gone). */
  | { status: 'missing' };

export interface AttemptStore {
  /** Takes the attempt for `leaseSeconds` with one conditional write, so that two deliveries cannot both send it. */
  claim(key: AttemptKey, now: Date, leaseSeconds: number): Promise<Claim>;
  /** The provider accepted the message. */
  markSent(key: AttemptKey, sent: { messageId: string; at: Date }): Promise<void>;
  /** The provider refused the contact or the attempt cannot go out: it is not retried. */
  markFailed(
    key: AttemptKey,
    failure: { reason: 'refused' | 'not_configured' | 'opted_out' | 'undeliverable'; detail: string },
  ): Promise<void>;
  /** Gives the claim back (a retryable failure), so that the next delivery need not wait for the lease. */
  release(key: AttemptKey): Promise<void>;
}

/** Whether a customer can still be surveyed: not opted out, the address not known to bounce. */
export interface Reachability {
  check(tenantId: number, customerId: number, channel: Channel, contact: string): Promise<'ok' | 'opted_out' | 'undeliverable'>;
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
  reachability: Reachability;
  stores: StoreNames;
  senders: Senders;
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

/** Transactions as evaluations: `shared/adapters/evaluation-repository.ts` implements it. */
export interface EvaluationStore {
  transaction(tenantId: number, id: number): Promise<TransactionRecord | undefined>;
  /**
   * Writes an answer onto a transaction's survey attempt with one conditional write. `create` requires the attempt
   * not to be answered yet (of two answers at once, one wins: `conflict`); `replace` requires an answer to exist.
   */
  writeAnswer(
    tenantId: number,
    transaction: Pick<Transaction, 'id' | 'transaction_id'>,
    attemptId: number,
    mode: 'create' | 'replace',
    answer: Answer,
  ): Promise<{ outcome: AnswerOutcome; record?: TransactionRecord }>;
  /** Rated transactions answered between two dates (inclusive), newest first. */
  answeredBetween(tenantId: number, from: string, to: string, limit: number, cursor: string | undefined): Promise<Found<TransactionRecord>>;
  /** The rated transaction with this external id (the latest answered, when several share it). */
  answeredByExternalId(tenantId: number, externalId: string): Promise<TransactionRecord | undefined>;
}
