import { attemptStore, reachability } from '../../shared/adapters/attempt-repository.js';
import { CUSTOMER_ID_BLOCK, customers } from '../../shared/adapters/customer-repository.js';
import { dueAttempts } from '../../shared/adapters/due-attempts.js';
import { dueTimers, dueTimersOf } from '../../shared/adapters/due-timers.js';
import { caseStore } from '../../shared/adapters/case-repository.js';
import { db, nextId } from '../../shared/adapters/dynamodb.js';
import { evaluationStore } from '../../shared/adapters/evaluation-repository.js';
import { readManyReferences, type ReferenceRequest } from '../../shared/adapters/references.js';
import { readConfigVersion } from '../../shared/adapters/tenant-repository.js';
import { transactionRepository } from '../../shared/adapters/transaction-repository.js';
import { tenantAccess } from '../../shared/adapters/wiring/access.js';
import { answerTally, countedOf, journeyTally, scoredRating, sentTally } from '../../shared/results/tally.js';
import { dueScheduler, minuteOf } from '../../shared/surveys/scheduler.js';
import type { ClaimedAttempt } from '../../shared/surveys/ports.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import type { TransactionRecord } from '../../shared/transaction-record.js';
import { transactionIdFor } from '../../shared/transactions/request-key.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import type { CountingTable } from './counting-table.js';
import { ANSWER_DELAYS, arrivals, customerName, hourlyRates, pick, random, storeWeights, type DayShape, type JourneyShape } from './day.js';

/** A tenant id no test or demo tenant takes (the simulation's commands may be replayed against a shared table). */
export const TENANT = 990_035;
/** The one API key the tenant's sales arrive with (the simulation's: the counting table finds no item for it). */
const SALE_KEY = 'simulated-sales-api-key';
/**
 * The authorizer's answer for it, as API Gateway caches it: checked at the configuration version the counting table
 * answers (0: it keeps no item), so that each sale's request finds the version unmoved, as on a day without key changes.
 */
const CACHED_ANSWER = { authenticated: true, tenantId: TENANT, scope: 'public', keyId: 'simulated', version: 0 } as const;
/** The simulated day (any day: only its hours matter). */
export const DAY = '2026-03-10';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
/** Consumers and dispatchers take SQS messages ten at a time. */
const BATCH = 10;

export interface Counts {
  transactions: number;
  /** Sales whose API request was played (the window's; `transactions` also counts those registered before it). */
  saleRequests: number;
  newCustomers: number;
  firstSends: number;
  reminderSends: number;
  answers: number;
  /** Cases opened (detractors of an NPS journey, as the demo's case rule). */
  cases: number;
  parked: number;
  released: number;
  commands: number;
}

/** One simulated sale, with what later steps need of it. */
interface Sale {
  record: TransactionRecord;
  requestKey: string;
  journey: JourneyShape;
  customerId: number;
  newCustomer: boolean;
  reachable: boolean;
}

/**
 * Plays `windowSeconds` of the tenant's peak hour through the service's own adapters (the consumer's batch reads and
 * writes, the dispatcher's reads, claim and mark, the reminders parked and released, the survey page and its answer
 * with the result counters), over `table`, which counts every command by partition and second. What happened before
 * the window (transactions answered or reminded in it, reminders parked for it) is written first without counting,
 * so that items have their real sizes.
 */
export async function simulate(
  table: CountingTable,
  shape: DayShape,
  windowSeconds: number,
  { seed = 35, releases = true }: { seed?: number; releases?: boolean } = {},
): Promise<Counts> {
  const next = random(seed);
  const rates = hourlyRates(shape);
  const rateAt = (second: number) => rates[Math.floor((((second % 86_400) + 86_400) % 86_400) / 3_600)]!;
  const stores = storeWeights(shape.stores);
  let journeySum = 0;
  const journeyCumulative = shape.journeys.map((journey) => (journeySum += journey.share));
  const settings = settingsOf(shape);
  const counts: Counts = {
    transactions: 0,
    saleRequests: 0,
    newCustomers: 0,
    firstSends: 0,
    reminderSends: 0,
    answers: 0,
    cases: 0,
    parked: 0,
    released: 0,
    commands: 0,
  };
  let serial = 0;
  let sqsMessages = 0;
  const scheduler = dueScheduler(dueAttempts, async (messages) => ((sqsMessages += messages.length), []));
  const at = (second: number) => new Date(DAY_START + second * 1000);

  function sale(second: number): Sale {
    const journey = shape.journeys[pick(journeyCumulative, next)]!;
    const storeId = pick(stores, next) + 1;
    const employeeId = (storeId - 1) * shape.employeesPerStore + 1 + Math.floor(next() * shape.employeesPerStore);
    const newCustomer = next() < shape.newCustomerShare;
    const customerId = newCustomer ? 0 : 1 + Math.floor(next() * 20_000_000);
    const reachable = next() >= shape.unreachableShare;
    const externalId = `PDV-${storeId}-${second}-${serial++}`;
    const requestKey = `${TENANT}#${journey.slug}#${externalId}`;
    const created = at(second).toISOString();
    const phone = `+55119${String(10_000_000 + Math.floor(next() * 89_999_999))}`;
    const email = `cliente.${serial}@exemplo.com.br`;
    const first = journey.attempts[0]!;
    const record: TransactionRecord = {
      transaction: {
        id: transactionIdFor(requestKey),
        transaction_id: externalId,
        journey_id: journey.id,
        store_id: storeId,
        employee_id: employeeId,
        customer_id: customerId,
        amount: Math.round(next() * 50_000) / 100,
        register_date: created,
        params: { canal: 'loja', pdv: `PDV-${storeId}-07` },
        rating: null,
        rating_items: [],
        survey: reachable
          ? { status: 'scheduled', reason: null, attempt_id: 1, channel: first.channel }
          : { status: 'not_sent', reason: 'no_contact', attempt_id: null, channel: null },
        attempts: reachable
          ? journey.attempts.map((attempt, i) => ({
              attempt_id: i + 1,
              channel: attempt.channel,
              status: i === 0 ? ('scheduled' as const) : ('pending' as const),
              due_at: i === 0 ? created : null,
            }))
          : [],
        created_at: created,
      },
      journeySlug: journey.slug,
      customerName: customerName(next),
      surveyContact: reachable ? (first.channel === 'email' ? email : phone) : null,
      surveyContacts: { phone, email },
      attemptWaits: journey.attempts.map((attempt) => attempt.afterMinutes),
      warnings: [],
      answer: null,
      retentionDays: shape.retentionDays,
      contactGone: false,
      erased: false,
    };
    return { record, requestKey, journey, customerId, newCustomer, reachable };
  }

  /** The consumer: a batch's one read of what it names, then each sale's writes. */
  async function register(batch: Sale[], second: number) {
    const now = at(second);
    const requests: ReferenceRequest[] = batch.map(({ record, customerId, newCustomer }) => ({
      tenantId: TENANT,
      references: [
        { entity: 'STORE', id: record.transaction.store_id },
        { entity: 'EMPLOYEE', id: record.transaction.employee_id },
        { entity: 'CUSTOMER', externalId: `C-${newCustomer ? `new-${serial}` : customerId}` },
      ],
    }));
    await Promise.all([readConfigVersion(TENANT), readManyReferences(requests)]);
    await Promise.all(
      batch.map(async (one) => {
        const { record } = one;
        if (one.newCustomer) {
          one.customerId = await nextId(db(), TENANT, { entity: 'CUSTOMER', blockSize: CUSTOMER_ID_BLOCK });
          record.transaction.customer_id = one.customerId;
          await customers.insert(TENANT, {
            id: one.customerId,
            name: record.customerName!,
            email: record.surveyContacts.email,
            phone: record.surveyContacts.phone,
            phone2: null,
            cpf: String(10_000_000_000 + one.customerId * 7_919).slice(-11),
            birth_date: null,
            gender: null,
            client_id: `C-${one.customerId}`,
            opt_out: false,
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          });
          counts.newCustomers++;
        }
        if (one.journey.resurveyWindowDays)
          await transactionRepository.claimSurveySlot(TENANT, {
            customerId: one.customerId,
            journeyId: one.journey.id,
            windowDays: one.journey.resurveyWindowDays,
            now,
          });
        await transactionRepository.putCreated(TENANT, { requestKey: one.requestKey, build: () => record });
      }),
    );
    counts.transactions += batch.length;
  }

  const claimedOf = (one: Sale, attemptId: number): ClaimedAttempt => {
    const { transaction } = one.record;
    return {
      tenantId: TENANT,
      transactionId: transaction.id,
      attemptId,
      channel: one.journey.attempts[attemptId - 1]!.channel,
      journeyId: transaction.journey_id,
      storeId: transaction.store_id,
      employeeId: transaction.employee_id,
      customerId: one.customerId,
      contact: one.record.surveyContact!,
      customerName: one.record.customerName,
      plan: one.journey.attempts.map((attempt, i) => ({
        attemptId: i + 1,
        ...attempt,
        status: i + 1 === attemptId ? 'scheduled' : 'pending',
      })),
      ...(attemptId > 1 ? { expiresAt: new Date(Date.parse(transaction.created_at) + 7 * 86_400_000).toISOString() } : {}),
    };
  };

  /** The dispatcher: a batch's settings check, then each attempt's reachability, claim, send and mark. */
  async function deliver(batch: { one: Sale; attemptId: number }[], second: number) {
    const now = at(second);
    await readConfigVersion(TENANT);
    await Promise.all(
      batch.map(async ({ one, attemptId }) => {
        const claimed = claimedOf(one, attemptId);
        await reachability.check(TENANT, { customerId: one.customerId, contact: claimed.contact });
        // The claim's conditional update is counted; its answer (the item, which the counting table does not keep) is not used.
        await attemptStore.claim(claimed, { now, leaseSeconds: 60, channel: claimed.channel }).catch(() => undefined);
        const later = one.journey.attempts[attemptId];
        const nextAttempt = later && {
          attemptId: attemptId + 1,
          channel: later.channel,
          dueAt: new Date(now.getTime() + later.afterMinutes * 60_000),
        };
        if (nextAttempt) {
          await scheduler.schedule(messageOf(one, nextAttempt.attemptId), nextAttempt.dueAt, now);
          if (nextAttempt.dueAt.getTime() - now.getTime() > 15 * 60_000) counts.parked++;
        }
        const first = attemptId === 1;
        await attemptStore.markSent(claimed, {
          messageId: `msg-${serial++}`,
          at: now,
          expiresAt: new Date(now.getTime() + 7 * 86_400_000),
          next: nextAttempt,
          tally: first ? journeyTally(journeyOf(settings, one), sentTally(countedOf(one.record.transaction), now)) : undefined,
        });
        if (first) counts.firstSends++;
        else counts.reminderSends++;
      }),
    );
  }

  const messageOf = (one: Sale, attemptId: number): DispatchMessage => ({
    version: 1,
    tenantId: TENANT,
    transactionId: one.record.transaction.id,
    attemptId,
    journeyId: one.journey.id,
    journey: one.journey.slug,
    channel: one.journey.attempts[attemptId - 1]!.channel,
    createdAt: one.record.transaction.created_at,
  });

  /** The survey page shown, then its answer posted: each reads the settings' version and the transaction. */
  async function answer(one: Sale, sentAt: Date, second: number) {
    const now = at(second);
    for (let view = 0; view < 2; view++)
      await Promise.all([readConfigVersion(TENANT), evaluationStore.transaction(TENANT, one.record.transaction.id)]);
    const roll = next();
    const score =
      one.journey.indicator === 'nps'
        ? roll < shape.detractorShare
          ? Math.floor(next() * 7)
          : roll < 1 - shape.promoterShare
            ? 7 + Math.floor(next() * 2)
            : 9 + Math.floor(next() * 2)
        : 1 + Math.floor(next() * 5);
    const sentRecord: TransactionRecord = {
      ...one.record,
      transaction: {
        ...one.record.transaction,
        survey: { ...one.record.transaction.survey, status: 'sent', sent_at: sentAt.toISOString() },
      },
    };
    const answerRecord = {
      rating: { score, comment: roll < 0.4 ? 'Atendimento demorado, mas a vendedora foi muito atenciosa e resolveu o problema.' : null },
      ratingItems: [{ class_id: 1, score: 1 + Math.floor(next() * 5) }],
      origin: { source: 'whatsapp' as const, src: 2, answeredAt: now.toISOString() },
      respondent: { name: null, phone: null, storeId: null, employeeId: null },
    };
    const scored = scoredRating(
      { ...sentRecord.transaction, rating: answerRecord.rating, rating_items: answerRecord.ratingItems },
      settings,
      { answeredAt: now.toISOString(), sentOn: sentAt.toISOString().slice(0, 10) },
    );
    const tally = scored && journeyTally(journeyOf(settings, one), answerTally(countedOf(sentRecord.transaction), scored));
    await evaluationStore.writeAnswer(TENANT, { read: sentRecord, attemptId: 1, mode: 'create', answer: answerRecord, tally });
    counts.answers++;
    if (one.journey.indicator === 'nps' && score <= 6)
      await table.flow('case', () => openCase(one, score, answerRecord.rating.comment, now));
  }

  /** The case opener: the answer read again, the case put, its alert claimed, its deadline parked (24 hours). */
  async function openCase(one: Sale, score: number, comment: string | null, now: Date) {
    const { transaction } = one.record;
    await evaluationStore.transaction(TENANT, transaction.id);
    const dueAt = new Date(now.getTime() + 24 * 3_600_000).toISOString();
    await caseStore.open(
      TENANT,
      {
        id: transaction.id,
        transactionCode: transaction.transaction_id,
        number: null,
        journeyId: transaction.journey_id,
        storeId: transaction.store_id,
        employeeId: transaction.employee_id,
        customerId: one.customerId,
        customerName: one.record.customerName,
        score,
        comment,
        answeredAt: now.toISOString(),
        answerVersion: 1,
        openedAt: now.toISOString(),
        dueAt,
        overdue: false,
        overdueAt: null,
        owner: 'gerente@loja.example',
        status: 'open',
        firstContactAt: null,
        closedAt: null,
        rootCause: null,
        notes: [],
        history: [{ at: now.toISOString(), by: 'system', action: 'opened' }],
        alertedAt: null,
        recovery: null,
        erased: false,
        version: 1,
      },
      [],
    );
    await caseStore.claimAlert(TENANT, transaction.id, now.toISOString());
    await dueTimersOf('caseDeadline').put(minuteOf(new Date(dueAt)), { version: 1, tenantId: TENANT, caseId: transaction.id, dueAt });
    counts.cases++;
  }

  /** What existed before the window: written without counting. */
  async function before<T>(work: () => Promise<T>): Promise<T> {
    table.counting = false;
    try {
      return await work();
    } finally {
      table.counting = true;
    }
  }

  // Forty minutes into the peak hour: the sales at their peak, and most answers (given within half an hour) too.
  const start = shape.peakHour * 3_600 + 2_400;
  const reachableShare = 1 - shape.unreachableShare;
  let pendingSends: Sale[] = [];
  // The sales of the second before the window, whose first attempts go out in its first second.
  table.second = start - 1;
  pendingSends = await before(async () => {
    const sales = Array.from({ length: arrivals(rateAt(start - 1), next) }, () => sale(start - 1));
    for (let i = 0; i < sales.length; i += BATCH) await register(sales.slice(i, i + BATCH), start - 1);
    return sales.filter((one) => one.reachable);
  });
  // Reminders already released onto the queue for the window's seconds (the scheduler runs ten minutes ahead).
  const remindersAt = new Map<number, Sale[]>();
  for (let second = start; second < start + windowSeconds; second++) {
    const due = shape.journeys.flatMap((journey) =>
      journey.attempts.slice(1, 2).flatMap((attempt) => {
        const sentSecond = second - attempt.afterMinutes * 60;
        const rate = rateAt(sentSecond) * journey.share * reachableShare * (1 - shape.responseRate);
        return Array.from({ length: arrivals(rate, next) }, () => ({ ...sale(sentSecond), journey }));
      }),
    );
    remindersAt.set(
      second,
      due.filter((one) => one.reachable),
    );
  }
  await before(async () => {
    for (const sales of remindersAt.values())
      for (let i = 0; i < sales.length; i += BATCH) await register(sales.slice(i, i + BATCH), start - 1);
  });

  for (let second = start; second < start + windowSeconds; second++) {
    table.second = second;
    const now = at(second);
    // The scheduler's run at the minute: it releases the minute ten minutes ahead, parked two days (or one) before.
    if (releases && second % 60 === 0) {
      const minute = minuteOf(new Date(now.getTime() + 10 * 60_000));
      const parked = await before(async () => {
        let parked = 0;
        for (const journey of shape.journeys)
          for (const attempt of journey.attempts.slice(1, 2)) {
            const sentSecond = (Date.parse(`${minute}:00Z`) - DAY_START) / 1000 - attempt.afterMinutes * 60;
            const rate = rateAt(sentSecond) * journey.share * reachableShare * 60;
            for (let i = arrivals(rate, next); i > 0; i--) {
              const one = { ...sale(sentSecond), journey };
              const message = { ...messageOf(one, 2), dueAt: `${minute}:30.000Z` };
              await dueAttempts.put(minute, message);
              parked++;
            }
          }
        return parked;
      });
      await table.flow('release', async () => {
        await dueTimers.checkpoint();
        await dueTimers.dueIn(minute);
        // Released timers stay until their TTL: the release writes only its checkpoint.
        await dueTimers.saveCheckpoint(minute);
      });
      counts.released += parked;
    }

    const sales = Array.from({ length: arrivals(rateAt(second), next) }, () => sale(second));
    const sends = [
      ...pendingSends.map((one) => ({ one, attemptId: 1 })),
      ...(remindersAt.get(second) ?? []).map((one) => ({ one, attemptId: 2 })),
    ];
    // Answers now, to surveys sent some time before (most of them before the window).
    const answers = ANSWER_DELAYS.flatMap(({ seconds, share }) => {
      const sentSecond = second - seconds;
      const rate = rateAt(sentSecond) * reachableShare * shape.responseRate * share;
      return Array.from({ length: arrivals(rate, next) }, () => ({ one: sale(sentSecond - 1), sentAt: at(sentSecond) }));
    });
    await before(async () => {
      for (let i = 0; i < answers.length; i += BATCH)
        await register(
          answers.slice(i, i + BATCH).map(({ one }) => one),
          second,
        );
    });
    const work: Promise<unknown>[] = [];
    // Each sale's request (POST /v2/transactions): API Gateway caches the authorizer's answer for the tenant's one key,
    // so the HTTP wrapper reads a copy of the configuration version (one strongly consistent GetItem), and the key only
    // if the version moved, so that a revoked key is refused at once.
    for (let i = 0; i < sales.length; i++)
      work.push(table.flow('sale request', () => tenantAccess.confirmCachedKey(SALE_KEY, CACHED_ANSWER, at(second))));
    counts.saleRequests += sales.length;
    for (let i = 0; i < sales.length; i += BATCH) work.push(table.flow('register', () => register(sales.slice(i, i + BATCH), second)));
    for (let i = 0; i < sends.length; i += BATCH) {
      const batch = sends.slice(i, i + BATCH);
      // A batch holds first attempts or reminders, not both: a dispatcher's batch comes from one queue's order.
      for (const [flow, part] of [
        ['first send', batch.filter((s) => s.attemptId === 1)],
        ['reminder send', batch.filter((s) => s.attemptId > 1)],
      ] as const)
        if (part.length) work.push(table.flow(flow, () => deliver(part, second)));
    }
    for (const { one, sentAt } of answers) if (one.reachable) work.push(table.flow('answer', () => answer(one, sentAt, second)));
    await Promise.all(work);
    pendingSends = sales.filter((one) => one.reachable);
  }
  counts.commands = table.commands;
  void sqsMessages;
  return counts;
}

function journeyOf(settings: Pick<Settings, 'journeys'>, one: Sale) {
  return settings.journeys.find((journey) => journey.id === one.journey.id)!;
}

/** The tenant's configuration as the domain reads it: only what the tallies look at. */
function settingsOf(shape: DayShape): Pick<Settings, 'journeys' | 'classes'> {
  return {
    journeys: shape.journeys.map((journey) => ({
      id: journey.id,
      slug: journey.slug,
      indicator: journey.indicator,
      classes: [1],
      channels: [...new Set(journey.attempts.map((attempt) => attempt.channel))],
      resurveyWindowDays: journey.resurveyWindowDays,
      surveyValidityDays: 7,
      handOff: [],
      resultShards: journey.resultShards,
    })),
    classes: [{ id: 1, label: 'Atendimento', type: 'csat' }],
  };
}
