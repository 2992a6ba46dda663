import type { Tally } from '../results/tally.js';
import type { RecoverySurvey, TransactionRecord } from '../transaction-record.js';

/**
 * The recovery survey: when a case is resolved, its customer is asked once "Did we solve it?" through the first
 * survey's delivery, attempts and links (a link of kind `recovery`), and the answer marks the case.
 */

/** What the recovery survey reads of a case (the `cases` service's `CaseRecord` has these and more). */
export interface RecoveryCase {
  /** The case's id: its transaction's internal id. */
  id: number;
  journeyId: number;
  storeId: number;
  employeeId: number;
  /** ISO instant the case was opened: its counts land on that day. */
  openedAt: string;
}

/** The port the `cases` service calls when a case becomes resolved. */
export interface RecoveryRequester {
  /** Asks the case's customer once; a repeated request sends nothing more. */
  request(tenantId: number, c: RecoveryCase): Promise<RecoveryRequestOutcome>;
}
export type RecoveryRequestOutcome = 'scheduled' | 'duplicate' | 'not_sent' | 'missing';

/** The customer's answer, as the recovery survey keeps it. */
export interface RecoveryAnswer {
  recovered: boolean;
  /** The new score they gave, on the journey's scale, if any. */
  score: number | null;
  answeredAt: string;
}

/** A recovery answer to write: its transaction's, with the result counters it moves. */
export interface RecoveryAnswerWrite {
  transactionId: number;
  answer: RecoveryAnswer;
  tally: Tally;
}

/** The answer as the case records it (the `cases` service's `CaseRecovery`). */
export interface CaseRecoveryOutcome {
  outcome: 'recovered' | 'not_recovered';
  at: string;
  score?: number | null;
}

/** The `cases` service's side of an answer: marks the case recovered or not (and publishes `case.recovered`). */
export interface CaseRecoveryRecorder {
  /** The same answer may be recorded again (a retried page): the recorder changes nothing then. */
  recordRecovery(tenantId: number, caseId: number, recovery: CaseRecoveryOutcome): Promise<unknown>;
}

/** The recovery survey on its transaction's item: `shared/adapters/recovery-repository.ts` implements it. */
export interface RecoveryStore {
  transaction(tenantId: number, transactionId: number): Promise<TransactionRecord | undefined>;
  /** Writes the recovery survey once: `exists` (with the one stored) when it was asked already, `missing` without a transaction. */
  open(tenantId: number, transactionId: number, recovery: RecoverySurvey): Promise<'created' | 'missing' | { exists: RecoverySurvey }>;
  /**
   * Records the answer of a sent recovery survey once, with the counters it moves, in one conditional write;
   * `conflict` when it was answered already, `missing` when there is no sent survey to answer.
   */
  answer(tenantId: number, written: RecoveryAnswerWrite): Promise<'written' | 'conflict' | 'missing'>;
}
