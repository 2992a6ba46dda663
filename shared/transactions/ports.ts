import type { CreatedCustomer } from '../customers/service.js';
import type { CreateCustomerInput } from '../customers/requests.js';
import type { Customer } from '../customers/schema.js';
import type { Employee } from '../employees/schema.js';
import type { CreateEmployeeInput } from '../employees/requests.js';
import type { FieldProblem } from '../errors.js';
import type { Tally } from '../results/tally.js';
import type { Store } from '../stores/schema.js';
import type { CreateStoreInput } from '../stores/requests.js';
import type { DispatchMessage } from '../surveys/dispatch.js';
import type { Settings } from '../settings/settings.js';
import type { TransactionRecord } from '../transaction-record.js';

/** What a request key holds: its transaction, or why it was refused or given up on. */
export type RequestRecord =
  { status: 'created'; record: TransactionRecord } | { status: 'rejected' | 'failed'; errors: FieldProblem[]; receivedAt: string };

/** Where transactions are kept: `shared/adapters/transaction-repository.ts` implements it. */
/** A customer's survey slot on a journey: free when it was not surveyed there within `windowDays` of `now`. */
export interface SurveySlot {
  customerId: number;
  journeyId: number;
  windowDays: number;
  now: Date;
}

export interface TransactionRepository {
  findByRequestKey(tenantId: number, requestKey: string): Promise<RequestRecord | undefined>;
  findById(tenantId: number, id: number): Promise<TransactionRecord | undefined>;
  /**
   * Stores the transaction of a request key with one conditional write at the id the key derives; `build` gets that
   * id. When the key holds a created transaction already, nothing is written and that one is answered (`created: false`).
   */
  putCreated(
    tenantId: number,
    created: {
      requestKey: string;
      build: (id: number) => TransactionRecord;
      /** The result counters the new transaction moves (a rating registered with it), written with it. */
      tally?: (record: TransactionRecord) => Tally | undefined;
      /** The consumer batch's list that names it (listRegistrations), when its batch wrote one. */
      listedIn?: string;
    },
  ): Promise<{ created: boolean; record: TransactionRecord }>;
  /** Records a rejection or failure under the request key, readable for a while; never over a created transaction. */
  putOutcome(
    tenantId: number,
    requestKey: string,
    outcome: { status: 'rejected' | 'failed'; errors: FieldProblem[]; receivedAt: string },
  ): Promise<void>;
  /** Takes the customer's survey slot on a journey when it was not surveyed within the window; one conditional write. */
  claimSurveySlot(tenantId: number, slot: SurveySlot): Promise<boolean>;
  /**
   * Lists, for the analytics export's day of surveys, the transactions of a consumer batch about to be registered at
   * `at` (ISO), by their request keys: one write for the batch rather than one index entry each. Answers the list's
   * key, which registering them with it (putCreated's `listedIn`) names on each.
   */
  listRegistrations?(tenantId: number, at: string, requestKeys: string[]): Promise<string>;
}

/** A store, employee or customer named by its internal id, its external code, or both. */
export interface Reference {
  id?: number | undefined;
  externalId?: string | undefined;
}

/** What registering one transaction reads before deciding. */
export interface ReferenceRequest {
  tenantId: number;
  requestKey: string;
  store: Reference;
  employee: Reference;
  customer: Reference;
  /** The store read as well, in case the store id named does not exist. */
  fallbackStoreId: number;
}

/** For a reference with both an id and an external code: the id the code names (null when it names none). */
export type ExternalTarget = number | null | undefined;

export interface Referenced {
  store?: Store | undefined;
  employee?: Employee | undefined;
  customer?: Customer | undefined;
  externalTargets: { store: ExternalTarget; employee: ExternalTarget; customer: ExternalTarget };
  /** What the request key holds already. */
  existing?: RequestRecord | undefined;
  fallbackStore?: Store | undefined;
}

/** Reads what many requests name together (the consumer reads a whole batch in one or two round trips). */
export type ReferenceReader = (requests: ReferenceRequest[]) => Promise<Referenced[]>;

/**
 * The store, employee and customer a transaction's unknown external ids create (the seed contract's create rule 4),
 * and find when a concurrent request created them first.
 */
export interface Creators {
  store: {
    create(tenantId: number, input: CreateStoreInput): Promise<Store>;
    findByExternalId(tenantId: number, code: string): Promise<Store | undefined>;
  };
  employee: {
    create(tenantId: number, input: CreateEmployeeInput): Promise<Employee>;
    findByExternalId(tenantId: number, code: string): Promise<Employee | undefined>;
  };
  customer: {
    create(tenantId: number, input: CreateCustomerInput): Promise<CreatedCustomer>;
    findByExternalId(tenantId: number, code: string): Promise<Customer | undefined>;
  };
}

/** Sends survey dispatch messages: one at once, or a batch (answering the positions not sent). */
export interface Dispatcher {
  send(message: DispatchMessage): Promise<void>;
  sendBatch(messages: DispatchMessage[]): Promise<number[]>;
}

export interface TransactionPorts {
  transactions: TransactionRepository;
  readReferences: ReferenceReader;
  settings(tenantId: number): Promise<Settings>;
  creators: Creators;
  dispatcher: Dispatcher;
}
