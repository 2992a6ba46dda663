import type { FieldProblem } from '../errors.js';
import type { Identifiers, PrivacyMessage, PrivacyRequestType } from './schema.js';

/** A privacy request as kept: its identifiers only while it is pending. */
export interface PrivacyRequestRecord {
  id: string;
  type: PrivacyRequestType;
  status: 'pending' | 'done' | 'failed';
  /**
   * Where a pending erasure is: `recheck` once its first pass is done (its subjects known, its identifiers
   * forgotten) and its second pass is queued; it is `done` only after that pass. Null before the first pass.
   */
  phase: 'recheck' | null;
  identifiers: Identifiers | null;
  subjects: number[];
  requestedBy: string;
  createdAt: string;
  finishedAt: string | null;
  errors: FieldProblem[];
}

/** Where privacy requests are kept (`shared/adapters/privacy-repository.ts`). */
export interface PrivacyRequests {
  insert(tenantId: number, request: PrivacyRequestRecord): Promise<void>;
  get(tenantId: number, id: string): Promise<PrivacyRequestRecord | undefined>;
  /**
   * Records that a pending erasure's first pass is done: its subjects, its phase `recheck`, its identifiers
   * forgotten. False when it was no longer pending, or already past its first pass.
   */
  firstPassDone(tenantId: number, id: string, subjects: number[]): Promise<boolean>;
  /** Records the outcome of a pending request and forgets its identifiers; false when it was no longer pending. */
  finish(
    tenantId: number,
    id: string,
    outcome: Pick<PrivacyRequestRecord, 'status' | 'subjects' | 'finishedAt' | 'errors'>,
  ): Promise<boolean>;
}

/** What the service keeps about one customer, as stored (keys and index attributes left out). */
export interface Dossier {
  customer: Record<string, unknown>;
  transactions: Record<string, unknown>[];
  transactionsTruncated: boolean;
  /** The cases of those transactions, the managers' notes included. */
  cases: Record<string, unknown>[];
  privacyRequests: Record<string, unknown>[];
}

/** Who erased a customer or a transaction, and when. */
export interface ErasureMark {
  requestId: string;
  at: string;
}

/** A transaction of a data subject as its erasure read it. */
export interface TransactionCopies {
  transactionId: number;
  /** Whether it was marked erased when it was read: no answer or attempt wrote to it after that. */
  marked: boolean;
  /** Whether it still holds anything personal: its customer's name or contacts, a comment, a respondent, its params. */
  holdsCopies: boolean;
  /** When it was answered (ISO), if it was: the analytics export's day it is a row of. */
  answeredAt: string | null;
  /** When it was registered (ISO): the analytics export's day its survey is a row of. */
  createdAt?: string;
  /** The item as read: the strip removes the copies only while the transaction still holds this (the adapter's). */
  stored: Readonly<Record<string, unknown>>;
}

/** The customers of a tenant as data subjects: found by identifier, read whole, erased. */
export interface DataSubjects {
  /** The ids of every customer any of the identifiers matches (erased customers match nothing). */
  find(tenantId: number, identifiers: Identifiers): Promise<number[]>;
  /** Notes on the customer that this request named it (kept for the customer's export, and through erasure). */
  named(tenantId: number, customerId: number, request: { id: string; type: PrivacyRequestType; createdAt: string }): Promise<void>;
  dossier(tenantId: number, customerId: number): Promise<Dossier | undefined>;
  /** The ids of the customer's transactions (an index read eventually: a sale just written may be missing). */
  transactionsOf(tenantId: number, customerId: number): Promise<number[]>;
  /**
   * Marks the transactions erased (an earlier mark stays): from then on no answer, correction or survey attempt
   * writes to them.
   */
  markErased(tenantId: number, transactionIds: number[], mark: ErasureMark): Promise<void>;
  /** The transactions as they are now (a strongly consistent read). */
  copiesOf(tenantId: number, transactionIds: number[]): Promise<TransactionCopies[]>;
  /**
   * Removes what a transaction copied of its customer (and its params), if it still holds what `read` holds;
   * false when it changed since (read it again).
   */
  strip(tenantId: number, read: TransactionCopies): Promise<boolean>;
  /**
   * Removes the customer's data from the cases of these transactions: their name, their comment and the managers'
   * notes (a manager writes about the customer: whom they called, at which number). A case that still holds any is
   * written once, one already erased is left. Idempotent.
   */
  eraseCases(tenantId: number, transactionIds: number[], mark: ErasureMark): Promise<void>;
  /** The customer becomes a marker of its id and `mark`, and its lookup entries go. Idempotent. */
  eraseCustomer(tenantId: number, customerId: number, mark: ErasureMark): Promise<void>;
}

export interface PrivacyQueue {
  /** Queues a message, delivered after `delaySeconds` (at most 900). */
  send(message: PrivacyMessage, delaySeconds?: number): Promise<void>;
}

/** One read of customers' personal data through the API: who (key, user), what, when, by which operation. */
export interface AccessEntry {
  customerIds: number[];
  operation: string;
  keyId: string | null;
  user: string | null;
  requestId: string;
  at: string;
}

/** The record of who read a customer's personal data, kept a year (`shared/adapters/privacy-repository.ts`). */
export interface AccessLog {
  record(tenantId: number, entry: AccessEntry): Promise<void>;
  /** A customer's entries, newest first; `before` pages back (an `at` of a previous page's last entry). */
  list(tenantId: number, customerId: number, page: { limit: number; before?: string }): Promise<Omit<AccessEntry, 'customerIds'>[]>;
}

/** A slot of the tenant's open privacy requests, and the request holding it. */
export interface HeldSlot {
  slot: number;
  holder: string;
  claimedAt: string;
}

/** The slots that bound a tenant's open privacy requests (`shared/adapters/privacy-slots.ts`). */
export interface OpenRequestSlots {
  /** The slots held, by any request, open or not. */
  held(tenantId: number): Promise<HeldSlot[]>;
  /** Gives the slot to `holder`, if it is free (`previous` undefined) or still held by `previous`; false otherwise. */
  claim(tenantId: number, claim: { slot: number; holder: string; at: string; previous?: string }): Promise<boolean>;
}
