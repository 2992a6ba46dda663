import * as v from 'valibot';
import { evaluationIndex } from '../adapters/evaluation-repository.js';
import { readReferences, type ReferenceRequest, type ReferencesRead } from '../adapters/references.js';
import { sendMessage } from '../adapters/sqs.js';
import { claimSurveySlot, putCreated, putOutcome, toRecord } from '../adapters/transaction-repository.js';
import { Customer } from '../customers/schema.js';
import { createCustomer } from '../wiring/customers.js';
import { Employee } from '../employees/schema.js';
import { createEmployee } from '../wiring/employees.js';
import { DuplicateError, ValidationError, type FieldProblem } from '../errors.js';
import { keys, type Entity } from '../keys.js';
import { count } from '../metrics.js';
import { Store } from '../stores/schema.js';
import { createStore } from '../wiring/stores.js';
import { chooseChannel, type DispatchMessage } from '../surveys/dispatch.js';
import { RATING_SOURCES } from '../surveys/schema.js';
import { INDICATORS, isSupported, type ClassConfig, type JourneyConfig } from '../tenants/config-schema.js';
import type { Settings } from '../tenants/settings.js';
import { tenantSettings } from '../wiring/tenants.js';
import { transactionIdFor } from './request-key.js';
import type { TransactionCommand } from './requests.js';
import type { Survey, Transaction } from './schema.js';

/** A transaction the rules refuse: not created, and not worth retrying. */
export class TransactionRejected extends ValidationError {
  constructor(errors: FieldProblem[]) {
    super('The transaction was not created.', errors);
  }
}

export interface Registered {
  transaction: Transaction;
  /** The request key already held a transaction: this is it, and nothing new was created. */
  duplicate: boolean;
  warnings: FieldProblem[];
}

const DEFAULT_ID = 1;

/** What registering a transaction reads first: the store, employee and customer it names, its own key, the default store. */
export function referencesOf(tenantId: number, command: TransactionCommand, requestKey: string): ReferenceRequest {
  return {
    tenantId,
    references: [
      { entity: 'STORE', id: command.store.id, externalId: command.store.externalId },
      { entity: 'EMPLOYEE', id: command.employee.id, externalId: command.employee.externalId },
      { entity: 'CUSTOMER', id: command.customer.id, externalId: command.customer.externalId },
    ],
    alsoKeys: [keys.transaction(tenantId, transactionIdFor(requestKey)), keys.entity(tenantId, 'STORE', DEFAULT_ID)],
  };
}

export interface RegisterOptions {
  now?: Date;
  /** What referencesOf names, when the caller has read it already (the consumer reads a whole batch at once). */
  read?: ReferencesRead;
  /** Sends a survey's dispatch message; by default at once (the consumer sends a batch's messages together). */
  dispatch?: (message: DispatchMessage) => Promise<void>;
}

const sendNow = async (message: DispatchMessage) => {
  await sendMessage('surveyDispatch', message);
  count('SurveysDispatched');
};

/**
 * Registers a transaction under the transaction rules: the one domain service both interfaces call. Throws
 * TransactionRejected for a business rejection; any other error is infrastructure and may be retried, which is
 * safe: the request key makes the write idempotent.
 */
export async function registerTransaction(
  tenantId: number,
  command: TransactionCommand,
  requestKey: string,
  { now = new Date(), read, dispatch = sendNow }: RegisterOptions = {},
): Promise<Registered> {
  const request = referencesOf(tenantId, command, requestKey);
  const [settings, references] = await Promise.all([
    tenantSettings(tenantId),
    read ?? readReferences(tenantId, request.references, request.alsoKeys),
  ]);
  const [existingItem, defaultStore] = references.also;
  const existing = existingItem?.request_key === requestKey ? toRecord(existingItem) : undefined;
  if (existing?.status === 'created') {
    // A redelivery or a resent transaction: the survey message goes again (senders deduplicate), nothing else does.
    await dispatchIfScheduled(tenantId, existing.transaction, existing.extra, dispatch);
    return { transaction: existing.transaction, duplicate: true, warnings: [] };
  }

  const errors: FieldProblem[] = [];
  const warnings: FieldProblem[] = [];
  const journey = findJourney(settings, command.journey, errors);
  const ratingItems = journey ? checkRatingItems(settings, journey, command.ratingItems, errors) : [];
  let rating: Transaction['rating'] = null;
  if (journey && command.rating) {
    if (isSupported(journey.indicator, command.rating.score))
      rating = { score: command.rating.score, comment: command.rating.comment ?? null };
    else
      warnings.push({
        path: 'rating.score',
        message: `${command.rating.score} is not a ${journey.indicator} score (${INDICATORS[journey.indicator].min}-${INDICATORS[journey.indicator].max}); the transaction has no rating`,
      });
  }

  const [storeItem, employeeItem, customerItem] = references.found;
  errors.push(...disagreements(command, references));
  let store = storeItem ? v.parse(Store, storeItem) : undefined;
  if (!store && command.store.id !== undefined) store = defaultStore ? v.parse(Store, defaultStore) : undefined;
  if (store && store.status !== 'active') errors.push({ path: 'store', message: `store ${store.id} is inactive` });
  const employeeId = employeeItem ? v.parse(Employee, employeeItem).id : command.employee.id !== undefined ? DEFAULT_ID : undefined;
  let customer = customerItem ? v.parse(Customer, customerItem) : undefined;
  if (!customer && command.customer.id !== undefined)
    errors.push({ path: 'customer.id', message: `customer ${command.customer.id} does not exist` });
  if (errors.length || !journey) throw new TransactionRejected(errors);

  // Rule 5: what an external id names but does not exist yet is created from the payload.
  const [storeId, resolvedEmployee, newCustomer] = await Promise.all([
    store
      ? store.id
      : createOrFind(tenantId, 'STORE', command.store.externalId!, () =>
          createStore(tenantId, {
            trade_name: command.store.tradeName ?? command.store.externalId!,
            company_name: command.store.companyName,
            store_id: command.store.externalId,
          }),
        ),
    employeeId ??
      createOrFind(tenantId, 'EMPLOYEE', command.employee.externalId!, () =>
        createEmployee(tenantId, {
          name: command.employee.name ?? command.employee.externalId!,
          email: command.employee.email,
          employee_id: command.employee.externalId,
          status: 'active',
        }),
      ),
    customer ? undefined : createCustomerFrom(tenantId, command, warnings),
  ]);
  customer ??= newCustomer!;

  const survey = await decideSurvey(tenantId, journey, customer, command, rating !== null, now);
  const transaction = (id: number): Transaction => ({
    id,
    transaction_id: command.externalId ?? null,
    journey_id: journey.id,
    store_id: storeId,
    employee_id: resolvedEmployee,
    customer_id: customer.id,
    amount: command.amount ?? null,
    register_date: command.date ?? null,
    params: command.params,
    rating,
    rating_items: ratingItems,
    survey: survey.survey,
    created_at: now.toISOString(),
  });
  // A rating sent with the transaction is an evaluation too (source "api"), listed with the chatbot's answers.
  const rated = rating !== null || ratingItems.length > 0;
  const extra = (id: number) => ({
    journey_slug: journey.slug,
    customer_name: customer.name,
    survey_contact: survey.contact ?? null,
    ...(warnings.length ? { warnings } : {}),
    ...(rated
      ? {
          eval_source: 'api',
          eval_src: RATING_SOURCES.api,
          ...evaluationIndex(tenantId, { id, transaction_id: command.externalId ?? null }, now.toISOString()),
        }
      : {}),
  });
  const { created, record } = await putCreated(tenantId, requestKey, (id) => ({ transaction: transaction(id), extra: extra(id) }));
  // When another delivery of the same request got there first, its transaction is the answer.
  if (created) {
    count('TransactionsCreated');
    if (record.transaction.survey.reason) count('SurveysSuppressed', record.transaction.survey.reason);
    await dispatchIfScheduled(tenantId, record.transaction, record.extra, dispatch);
  }
  return { transaction: record.transaction, duplicate: !created, warnings: created ? warnings : [] };
}

/** Records a rejection against the request key, so that the caller can read why (v2 interface). */
export const recordRejection = (tenantId: number, requestKey: string, errors: FieldProblem[], receivedAt: string) =>
  putOutcome(tenantId, requestKey, 'rejected', errors, receivedAt);

/** Records that the queue gave up on a request (its last receive failed): it waits in the dead-letter queue for a redrive. */
export const recordFailure = (tenantId: number, requestKey: string, receivedAt: string) =>
  putOutcome(
    tenantId,
    requestKey,
    'failed',
    [{ path: 'request', message: 'the transaction could not be stored after repeated attempts; it is kept for the operator to redrive' }],
    receivedAt,
  );

// ---- Rules ------------------------------------------------------------------------------------------------------

function findJourney(settings: Settings, ref: TransactionCommand['journey'], errors: FieldProblem[]): JourneyConfig | undefined {
  const journey = settings.journeys.find((j) => (ref.id !== undefined ? j.id === ref.id : j.slug === ref.slug));
  if (!journey) {
    errors.push(
      ref.id !== undefined
        ? { path: 'transaction.journeyId', message: `journey ${ref.id} does not exist` }
        : { path: 'transaction.journeySlug', message: `journey "${ref.slug}" does not exist` },
    );
    return undefined;
  }
  // Both forms given: they must name the same journey.
  if (ref.slug !== undefined && journey.slug !== ref.slug) {
    errors.push({
      path: 'transaction.journeySlug',
      message: `journeySlug "${ref.slug}" and journeyId ${ref.id} name different journeys (${ref.id} is "${journey.slug}")`,
    });
    return undefined;
  }
  return journey;
}

/** Where a store, employee or customer keeps its external code. */
const EXTERNAL_CODE_FIELD = { store: 'store_id', employee: 'employee_id', customer: 'client_id' } as const;

/** A reference that gives both an id and an external code must name one entity with both; the id never silently wins. */
function disagreements(command: TransactionCommand, read: ReferencesRead): FieldProblem[] {
  return (['store', 'employee', 'customer'] as const).flatMap((name, i) => {
    const ref = command[name];
    if (ref.id === undefined || ref.externalId === undefined) return [];
    const target = read.externalTargets[i];
    const codeOfId = read.found[i]?.[EXTERNAL_CODE_FIELD[name]];
    if (typeof target === 'number' && target !== ref.id) {
      return [
        { path: `${name}.externalId`, message: `${name}.externalId "${ref.externalId}" names ${name} ${target}, not ${name}.id ${ref.id}` },
      ];
    }
    if (typeof codeOfId === 'string' && codeOfId !== ref.externalId) {
      return [
        {
          path: `${name}.externalId`,
          message: `${name}.id ${ref.id} has another external code than ${name}.externalId "${ref.externalId}"`,
        },
      ];
    }
    return [];
  });
}

/** Rules 2 and 3: each item's class must be available for the journey, and its score supported by the class. */
function checkRatingItems(
  settings: Settings,
  journey: JourneyConfig,
  items: TransactionCommand['ratingItems'],
  errors: FieldProblem[],
): Transaction['rating_items'] {
  const seen = new Set<number>();
  return items.flatMap((item, i) => {
    const found: ClassConfig | undefined = settings.classes.find((c) =>
      item.classId !== undefined ? c.id === item.classId : c.label.toLowerCase() === item.label!.toLowerCase(),
    );
    const name = item.classId !== undefined ? `class ${item.classId}` : `class "${item.label}"`;
    if (!found || !journey.classes.includes(found.id)) {
      errors.push({
        path: `ratingItems[${i}].${item.classId !== undefined ? 'classId' : 'class'}`,
        message: `${name} is not available for journey ${journey.slug}`,
      });
      return [];
    }
    if (!isSupported(found.type, item.score)) {
      const scale = INDICATORS[found.type];
      errors.push({ path: `ratingItems[${i}].score`, message: `${item.score} is not a ${found.type} score (${scale.min}-${scale.max})` });
      return [];
    }
    if (seen.has(found.id)) {
      errors.push({ path: `ratingItems[${i}].${item.classId !== undefined ? 'classId' : 'class'}`, message: `${name} is rated twice` });
      return [];
    }
    seen.add(found.id);
    return [{ class_id: found.id, score: item.score }];
  });
}

/** Design section 6: survey attempt 1 on the first reachable channel, or the reason for not surveying. */
async function decideSurvey(
  tenantId: number,
  journey: JourneyConfig,
  customer: Customer,
  command: TransactionCommand,
  rated: boolean,
  now: Date,
): Promise<{ survey: Survey; contact?: string }> {
  const notSent = (reason: Survey['reason']) => ({ survey: { status: 'not_sent' as const, reason, attempt_id: null, channel: null } });
  if (rated) return notSent('already_rated');
  if (customer.opt_out) return notSent('opted_out');
  const route = chooseChannel(journey.channels, {
    phone: customer.phone ?? command.customer.phone ?? null,
    email: customer.email ?? command.customer.email ?? null,
  });
  if (!route) return notSent('no_contact');
  if (journey.resurveyWindowDays && !(await claimSurveySlot(tenantId, customer.id, journey.id, journey.resurveyWindowDays, now)))
    return notSent('throttled');
  return { survey: { status: 'scheduled', reason: null, attempt_id: 1, channel: route.channel }, contact: route.contact };
}

async function dispatchIfScheduled(
  tenantId: number,
  transaction: Transaction,
  extra: Record<string, unknown>,
  dispatch: (message: DispatchMessage) => Promise<void>,
): Promise<void> {
  const { survey } = transaction;
  if (survey.status !== 'scheduled' || !survey.channel || typeof extra.survey_contact !== 'string') return;
  const message: DispatchMessage = {
    version: 1,
    tenantId,
    transactionId: transaction.id,
    attemptId: survey.attempt_id ?? 1,
    journeyId: transaction.journey_id,
    journey: String(extra.journey_slug),
    channel: survey.channel as DispatchMessage['channel'],
    createdAt: transaction.created_at,
  };
  await dispatch(message);
}

// ---- Creating what an external id names -------------------------------------------------------------------------

/** Creates the entity; when a concurrent request created it first (its guard exists), uses that one instead. */
async function createOrFind(tenantId: number, entity: Entity, externalId: string, create: () => Promise<{ id: number }>): Promise<number> {
  try {
    return (await create()).id;
  } catch (error) {
    if (!(error instanceof DuplicateError)) throw error;
    const { found } = await readReferences(tenantId, [{ entity, externalId }]);
    if (!found[0]) throw error;
    return Number(found[0].id);
  }
}

async function createCustomerFrom(tenantId: number, command: TransactionCommand, warnings: FieldProblem[]): Promise<Customer> {
  const c = command.customer;
  let created: Customer | undefined;
  const id = await createOrFind(tenantId, 'CUSTOMER', c.externalId!, async () => {
    const customer = await createCustomer(tenantId, {
      name: c.name,
      email: c.email,
      phone: c.phone,
      phone2: c.phone2,
      cpf: c.cpf,
      birth_date: c.birthDate,
      gender: c.gender,
      client_id: c.externalId,
      opt_out: false,
    });
    warnings.push(...(customer.warnings ?? []).map((w) => ({ ...w, path: w.path === 'birth_date' ? 'customer.birthDate' : w.path })));
    const { warnings: _, ...stored } = customer;
    created = stored;
    return customer;
  });
  if (created) return created;
  const { found } = await readReferences(tenantId, [{ entity: 'CUSTOMER', id }]);
  return v.parse(Customer, found[0]);
}
