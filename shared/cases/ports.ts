import type { TimerScheduler } from '../timers/timers.js';
import type { CaseDeadlineMessage } from './deadline-message.js';
import type { EventPublisher } from '../events/ports.js';
import type { CounterDelta } from '../results/tally.js';
import type { UserScope } from '../access/user-scope.js';
import type { Settings } from '../settings/settings.js';
import type { TransactionRecord } from '../transaction-record.js';
import type { CaseRecord, CaseStatus } from './record.js';
import type { CaseMessage } from './message.js';

/** Which cases a page lists: the storage port is told the partitions' owner and the filters, never the tenant's rules. */
/** A claim of a case's WhatsApp alert to one manager (`user`, their user name), made at `at`. */
export interface WhatsAppClaim {
  user: string;
  at: string;
}

export interface CaseSelection {
  tenantId: number;
  /** Only these stores' cases (their own partitions); undefined: every store (the tenant's shards). */
  stores?: number[];
  status?: CaseStatus;
  overdue?: boolean;
  /** Only the cases this person owns; null: only the unassigned ones (gsi14, not a filter). */
  owner?: string | null;
  /** The first and last day a case opened (UTC, YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
  /** What the cursor is bound to: a cursor of another query (or tenant, or scope) is refused. */
  query: string;
}

/**
 * Where cases are kept: `shared/adapters/case-repository.ts`. Every write takes the result counter deltas it moves
 * (written in the same transaction, under the case's journey); none yet.
 */
export interface CaseStore {
  /** Writes a new case; `exists` when the transaction has one already (a conditional put: never two). */
  /** Stores a new case with the tenant's next short number (the record as stored), or 'exists' when it was opened before. */
  open(tenantId: number, record: CaseRecord, counters: CounterDelta[]): Promise<CaseRecord | 'exists'>;
  find(tenantId: number, id: number): Promise<CaseRecord | undefined>;
  /** The id of the tenant's case of this short number (`number`); undefined for none. */
  idOfNumber(tenantId: number, number: number): Promise<number | undefined>;
  /**
   * Writes `next` over the case if it is still at version `next.version - 1` (false otherwise: someone wrote it since).
   * The alert's claim is not part of it: a change never undoes a claim made meanwhile.
   */
  replace(tenantId: number, next: CaseRecord, counters: CounterDelta[]): Promise<boolean>;
  /** Claims the case's one alert: true for the one caller that set `alertedAt`, false once it is set. */
  claimAlert(tenantId: number, id: number, at: string): Promise<boolean>;
  /** Gives back a claim this caller made at `at` (the send failed and will be retried). */
  releaseAlert(tenantId: number, id: number, at: string): Promise<void>;
  /** Claims the case's WhatsApp alert to one manager: true for the one caller that claimed it, false once claimed. */
  claimWhatsAppAlert(tenantId: number, id: number, claim: WhatsAppClaim): Promise<boolean>;
  /** Gives back a WhatsApp claim this caller made at `at` (the send failed and will be retried). */
  releaseWhatsAppAlert(tenantId: number, id: number, claim: WhatsAppClaim): Promise<void>;
  /** A page of cases in the list's order: open before in progress before closed; overdue first; then by due time. */
  list(selection: CaseSelection): Promise<{ cases: CaseRecord[]; nextCursor: string | null }>;
}

/** A tenant's user as cases need them: who may own a store's case and be alerted (owner.ts decides). */
export interface CaseUser {
  name: string;
  scope: UserScope;
  disabled: boolean;
}

/** The tenant's users, as cases need them. */
export interface CaseUsers {
  /**
   * The users whose scope holds the store: every store, it among theirs, or one of `regions` (the store's region and
   * its parent, `regionsOfStore`) among their regions.
   */
  holding(tenantId: number, storeId: number, regions: readonly number[]): Promise<CaseUser[]>;
  /** The mobiles (E.164) of those of `names` who have one, by user name. */
  phonesOf(tenantId: number, names: string[]): Promise<Map<string, string>>;
  /** One user, read consistently; undefined for no such user. */
  find(tenantId: number, name: string): Promise<CaseUser | undefined>;
}

/** The answered transaction a case is about. */
export interface CaseAnswers {
  transaction(tenantId: number, id: number): Promise<TransactionRecord | undefined>;
}

/** A customer's contact as the customer record holds it now; undefined once erased. */
export interface CaseContacts {
  of(tenantId: number, customerId: number): Promise<{ name: string | null; phone: string | null; email: string | null } | undefined>;
}

export interface CaseNames {
  store(tenantId: number, storeId: number): Promise<string>;
  employee(tenantId: number, employeeId: number): Promise<string>;
}

/** One alert e-mail, composed: `shared/cases/alert.ts`. */
export interface AlertEmail {
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

/** One WhatsApp alert to one manager: the tenant's approved template, its body's parameters in order. */
export interface AlertWhatsApp {
  to: string;
  phoneNumberId: string;
  template: string;
  language: string;
  parameters: string[];
}

export interface CaseAlerts {
  email(message: AlertEmail): Promise<void>;
  /** Throws AlertNotSent when the provider took nothing (the claim is given back and the message retried). */
  whatsapp?(message: AlertWhatsApp): Promise<void>;
}

/** The recovery survey, sent when a case is resolved (the `recovery` part implements it). */
export interface CaseRecoveryRequests {
  request(tenantId: number, record: CaseRecord): Promise<void>;
}

export interface CasePorts {
  cases: CaseStore;
  users: CaseUsers;
  answers: CaseAnswers;
  /** Needed only to reveal a customer's contact. */
  contacts?: CaseContacts;
  settings: (tenantId: number) => Promise<Settings>;
  events?: EventPublisher;
  /** Needed only to open cases (the consumer). */
  names?: CaseNames;
  alerts?: CaseAlerts;
  /** The base URL of the workspace's links (the alert's link to the case). */
  baseUrl?: string;
  recovery?: CaseRecoveryRequests;
  /** Where a WhatsApp alert waits for the end of the tenant's quiet hours (a timer back to the case queue). */
  quietAlerts?: TimerScheduler<CaseMessage>;
  /** Where a case's deadline waits once it opens (the `deadlines` part: shared/cases/overdue.ts); needed only to open cases. */
  deadlines?: TimerScheduler<CaseDeadlineMessage>;
}

/** The provider answered that it did not take the alert (nothing went out): its claim is given back and it is retried. */
export class AlertNotSent extends Error {
  constructor(readonly reason: string) {
    super(`The alert was not sent: ${reason}`);
    this.name = 'AlertNotSent';
  }
}
