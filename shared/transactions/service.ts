import type { Customer } from '../customers/schema.js';
import { v2PathOf } from '../customers/fields.js';
import type { CreatedCustomer } from '../customers/service.js';
import { DuplicateError, ValidationError, type FieldProblem } from '../errors.js';
import { count } from '../metrics.js';
import { answerTally, countedOf, journeyTally, scoredRating } from '../results/tally.js';
import type { DispatchMessage } from '../surveys/dispatch.js';
import { dispatchIfScheduled, notSent, surveyDecision, type SurveyPlan } from '../surveys/plan.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import type { ClassConfig, JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import { INDICATORS, isSupported } from '../settings/scales.js';
import type { Referenced, ReferenceRequest, TransactionPorts } from './ports.js';
import type { TransactionCommand } from './requests.js';
import type { Transaction, TransactionRecord } from '../transaction-record.js';
import { chooseLocale } from '../i18n/messages.js';

/** How long a sale waits, in turn, for the entity a concurrent sale is creating (about 1.5 s in all). */
const FIND_WINNER_WAITS_MS = [25, 50, 100, 200, 400, 800];

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
  /** The stored record (a QR or kiosk answer announces it as the answer path does). */
  record: TransactionRecord;
}

/** A store id that does not exist falls back to this store; an employee id that does not exist, to this employee. */
const DEFAULT_ID = 1;

/** What registering a transaction reads first: the store, employee and customer it names, its own key, the default store. */
export function referencesOf(tenantId: number, command: TransactionCommand, requestKey: string): ReferenceRequest {
  const { store, employee, customer } = command;
  return {
    tenantId,
    requestKey,
    store: { id: store.id, externalId: store.externalId },
    employee: { id: employee.id, externalId: employee.externalId },
    customer: { id: customer.id, externalId: customer.externalId },
    fallbackStoreId: DEFAULT_ID,
  };
}

export interface RegisterOptions {
  now?: Date;
  /** What referencesOf names, when the caller has read it already (the consumer reads a whole batch at once). */
  read?: Referenced;
  /** The tenant's configuration, when the caller has checked it already (the consumer does, beside its batch read). */
  settings?: Settings;
  /** Sends a survey's dispatch message; by default at once (the consumer sends a batch's messages together). */
  dispatch?: (message: DispatchMessage) => Promise<void>;
  /** Where its rating came from: `api` (with the sale) unless a store's QR code or kiosk took it (shared/in-store/). */
  source?: Extract<SourceName, 'api' | 'qr' | 'kiosk'>;
  /** The consumer batch's list of registrations that names it (with `now` the list's instant). */
  listedIn?: string;
}

/** Registering transactions under the transaction rules, and recording why a request was not registered. */
export function transactionService({ transactions, readReferences, settings: tenantSettings, creators, dispatcher }: TransactionPorts) {
  const sendNow = async (message: DispatchMessage) => {
    await dispatcher.send(message);
    count('SurveysDispatched');
  };

  /**
   * Registers a transaction under the transaction rules: the one domain service both interfaces call. Throws
   * TransactionRejected for a business rejection; any other error is infrastructure and may be retried, which is
   * safe: the request key makes the write idempotent.
   */
  async function registerTransaction(
    tenantId: number,
    {
      command,
      requestKey,
      now = new Date(),
      read,
      settings: checked,
      dispatch = sendNow,
      source = 'api',
      listedIn,
    }: { command: TransactionCommand; requestKey: string } & RegisterOptions,
  ): Promise<Registered> {
    const [settings, references] = await Promise.all([
      checked ?? tenantSettings(tenantId),
      read ?? readReferences([referencesOf(tenantId, command, requestKey)]).then((all) => all[0]!),
    ]);
    const existing = references.existing;
    if (existing?.status === 'created') {
      // A redelivery or a resent transaction: the survey message goes again (senders deduplicate), nothing else does.
      await dispatchIfScheduled(tenantId, existing.record, dispatch);
      return { transaction: existing.record.transaction, duplicate: true, warnings: [], record: existing.record };
    }

    const errors: FieldProblem[] = [];
    const warnings: FieldProblem[] = [];
    const journey = findJourney(settings, command.journey, errors);
    const ratingItems = journey ? checkRatingItems({ settings, journey, items: command.ratingItems, errors }) : [];
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

    errors.push(...disagreements(command, references));
    let store = references.store;
    // A store id that does not exist falls back to store 1.
    if (!store && command.store.id !== undefined) store = references.fallbackStore;
    if (store && store.status !== 'active') errors.push({ path: 'store', message: `store ${store.id} is inactive` });
    const employeeId = references.employee ? references.employee.id : command.employee.id !== undefined ? DEFAULT_ID : undefined;
    let customer = references.customer;
    if (!customer && command.customer.id !== undefined)
      errors.push({ path: 'customer.id', message: `customer ${command.customer.id} does not exist` });
    if (errors.length || !journey) throw new TransactionRejected(errors);

    // An external id that names no store, employee or customer yet creates it from the payload (the seed contract's
    // create rule 4; an id that does not exist falls back to 1 above: create rule 5).
    const [storeId, resolvedEmployee, newCustomer] = await Promise.all([
      store
        ? store.id
        : createOrFind(tenantId, {
            creator: creators.store,
            externalId: command.store.externalId!,
            input: {
              trade_name: command.store.tradeName ?? command.store.externalId!,
              company_name: command.store.companyName,
              store_id: command.store.externalId,
            },
          }).then((created) => created.id),
      employeeId ??
        createOrFind(tenantId, {
          creator: creators.employee,
          externalId: command.employee.externalId!,
          input: {
            name: command.employee.name ?? command.employee.externalId!,
            email: command.employee.email,
            employee_id: command.employee.externalId,
            status: 'active',
          },
        }).then((created) => created.id),
      customer ? undefined : createCustomerFrom(tenantId, command, warnings),
    ]);
    customer ??= newCustomer!;

    const survey = await decideSurvey(tenantId, { journey, customer, command, rated: rating !== null, now });
    // A rating sent with the transaction is an evaluation too (source "api"), listed with the chatbot's answers.
    const rated = rating !== null || ratingItems.length > 0;
    const record = (id: number): TransactionRecord => ({
      transaction: {
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
        attempts: survey.attempts,
        created_at: now.toISOString(),
      },
      journeySlug: journey.slug,
      customerName: customer.name,
      surveyContact: survey.contact ?? null,
      surveyContacts: survey.contacts,
      attemptWaits: survey.waits,
      warnings,
      answer: rated ? { source, src: RATING_SOURCES[source], answeredAt: now.toISOString(), version: 1 } : null,
      retentionDays: settings.privacy?.retentionDays ?? null,
      contactGone: false,
      erased: false,
      locale: chooseLocale(customer.locale, journey.locale, settings.locale),
    });
    // A rating registered with the sale counts in the results in the same write.
    const stored = await transactions.putCreated(tenantId, {
      requestKey,
      build: record,
      tally: (created) => {
        const scored =
          created.answer &&
          scoredRating(created.transaction, settings, {
            answeredAt: created.answer.answeredAt,
            sentOn: null,
            source: created.answer.source,
          });
        return scored ? journeyTally(journey, answerTally(countedOf(created.transaction), scored)) : undefined;
      },
      listedIn,
    });
    // When another delivery of the same request got there first, its transaction is the answer.
    if (stored.created) {
      count('TransactionsCreated');
      if (stored.record.transaction.survey.reason) count('SurveysSuppressed', stored.record.transaction.survey.reason);
      await dispatchIfScheduled(tenantId, stored.record, dispatch);
    }
    return {
      transaction: stored.record.transaction,
      duplicate: !stored.created,
      warnings: stored.created ? warnings : [],
      record: stored.record,
    };
  }

  /** Records a rejection against the request key, so that the caller can read why (v2 interface). */
  const recordRejection = (
    tenantId: number,
    { requestKey, errors, receivedAt }: { requestKey: string; errors: FieldProblem[]; receivedAt: string },
  ) => transactions.putOutcome(tenantId, requestKey, { status: 'rejected', errors, receivedAt });

  /** Records that the queue gave up on a request (its last receive failed): it waits in the dead-letter queue for a redrive. */
  const recordFailure = (tenantId: number, requestKey: string, receivedAt: string) =>
    transactions.putOutcome(tenantId, requestKey, {
      status: 'failed',
      errors: [
        { path: 'request', message: 'the transaction could not be stored after repeated attempts; it is kept for the operator to redrive' },
      ],
      receivedAt,
    });

  /** Survey attempt 1 on the first reachable channel, or the reason for not surveying. */
  async function decideSurvey(
    tenantId: number,
    {
      journey,
      customer,
      command,
      rated,
      now,
    }: { journey: JourneyConfig; customer: Customer; command: TransactionCommand; rated: boolean; now: Date },
  ): Promise<SurveyPlan> {
    const decision = surveyDecision({ journey, customer, given: command.customer, rated, now });
    if (decision.survey.status !== 'scheduled' || !journey.resurveyWindowDays) return decision;
    const claimed = await transactions.claimSurveySlot(tenantId, {
      customerId: customer.id,
      journeyId: journey.id,
      windowDays: journey.resurveyWindowDays,
      now,
    });
    return claimed ? decision : notSent('throttled', decision.contacts);
  }

  /** Creates the entity; when a concurrent request created it first (its guard exists), uses that one instead. */
  async function createOrFind<I, T>(
    tenantId: number,
    {
      creator,
      externalId,
      input,
    }: {
      creator: { create(tenantId: number, input: I): Promise<T>; findByExternalId(tenantId: number, code: string): Promise<T | undefined> };
      externalId: string;
      input: I;
    },
  ): Promise<T> {
    try {
      return await creator.create(tenantId, input);
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
      // The winner writes the external id's guard, then the entity: between the two (or before an eventually
      // consistent read sees the guard) there is nothing to find yet, so look again for a moment before giving up.
      for (const wait of FIND_WINNER_WAITS_MS) {
        const found = await creator.findByExternalId(tenantId, externalId);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const found = await creator.findByExternalId(tenantId, externalId);
      if (!found) throw error;
      return found;
    }
  }

  async function createCustomerFrom(tenantId: number, command: TransactionCommand, warnings: FieldProblem[]): Promise<Customer> {
    const { id: _, externalId, ...given } = command.customer;
    const customer: CreatedCustomer = await createOrFind(tenantId, {
      creator: creators.customer,
      externalId: externalId!,
      input: {
        ...given,
        client_id: externalId,
        opt_out: false,
      },
    });
    const { warnings: ignored = [], ...stored } = customer;
    warnings.push(...ignored.map((w) => ({ ...w, path: v2PathOf(w.path) })));
    return stored;
  }

  return { registerTransaction, recordRejection, recordFailure };
}

export type TransactionService = ReturnType<typeof transactionService>;

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

/**
 * A reference that gives both an id and an external code must name one entity with both; the id never silently wins.
 * The message names the field, never the code: a client_id may be a CPF, and a rejection is kept and sent in events.
 */
function disagreements(command: TransactionCommand, read: Referenced): FieldProblem[] {
  return (['store', 'employee', 'customer'] as const).flatMap((name) => {
    const ref = command[name];
    if (ref.id === undefined || ref.externalId === undefined) return [];
    const target = read.externalTargets[name];
    const found = read[name] as Record<string, unknown> | undefined;
    const codeOfId = found?.[EXTERNAL_CODE_FIELD[name]];
    if (typeof target === 'number' && target !== ref.id) {
      return [{ path: `${name}.externalId`, message: `${name}.externalId names ${name} ${target}, not ${name}.id ${ref.id}` }];
    }
    if (typeof codeOfId === 'string' && codeOfId !== ref.externalId) {
      return [
        {
          path: `${name}.externalId`,
          message: `${name}.id ${ref.id} has another external code than ${name}.externalId`,
        },
      ];
    }
    return [];
  });
}

/**
 * Each rating item's class must be available for the journey, and its score supported by the class (the seed
 * contract's create rules 2 and 3).
 */
function checkRatingItems({
  settings,
  journey,
  items,
  errors,
}: {
  settings: Settings;
  journey: JourneyConfig;
  items: TransactionCommand['ratingItems'];
  errors: FieldProblem[];
}): Transaction['rating_items'] {
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
