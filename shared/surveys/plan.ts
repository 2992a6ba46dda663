import { addressFor, type Channel } from '../channels.js';
import type { Customer } from '../customers/schema.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Attempt, Survey, TransactionRecord } from '../transaction-record.js';
import { chooseChannel, type DispatchMessage } from './dispatch.js';

/**
 * The survey plan of a new transaction: whether to survey, on which channels and when, or why not. The transaction
 * rules call it when they register a transaction (`shared/transactions/service.ts`, which adds the repeat window),
 * and hand its dispatch message to the queue.
 */

/** What a transaction decides about its survey: the current attempt, the plan of every attempt, where they go. */
export interface SurveyPlan {
  survey: Survey;
  attempts: Attempt[];
  waits: number[];
  /** The address of the first attempt, while one is scheduled. */
  contact?: string;
  contacts: { phone: string | null; email: string | null };
}

export const notSent = (reason: Survey['reason'], contacts: SurveyPlan['contacts']): SurveyPlan => ({
  survey: { status: 'not_sent', reason, attempt_id: null, channel: null },
  attempts: [],
  waits: [],
  contacts,
});

/**
 * Whether and how to survey, before the repeat window: not when rated already or opted out. The journey's
 * `attempts` (or one attempt on the first reachable of its `channels`) become the plan; an attempt whose channel has
 * no address is skipped, and the first reachable one is scheduled when the first attempt was due.
 */
export function surveyDecision({
  journey,
  customer,
  given,
  rated,
  now = new Date(),
}: {
  journey: JourneyConfig;
  customer: Customer;
  /** The addresses the transaction gave, used where the customer record has none. */
  given: { phone?: string | undefined; email?: string | undefined };
  rated: boolean;
  now?: Date;
}): SurveyPlan {
  const contacts = { phone: customer.phone ?? given.phone ?? null, email: customer.email ?? given.email ?? null };
  if (rated) return notSent('already_rated', contacts);
  if (customer.opt_out) return notSent('opted_out', contacts);
  const steps = journey.attempts ?? [{ channel: chooseChannel(journey.channels, contacts)?.channel, afterMinutes: 0 }];
  const address = (channel: Channel | undefined) => (channel === undefined ? null : addressFor(channel, contacts));
  const first = steps.findIndex((step) => address(step.channel) !== null);
  if (first < 0) return notSent('no_contact', contacts);
  const attempts = steps.map((step, i): Attempt => ({
    attempt_id: i + 1,
    channel: step.channel!,
    status: i < first || address(step.channel) === null ? 'skipped' : i === first ? 'scheduled' : 'pending',
    // A skipped first attempt passes its time to the next: the survey starts when the journey says.
    due_at: i === first ? new Date(now.getTime() + steps[0]!.afterMinutes * 60_000).toISOString() : null,
  }));
  const channel = steps[first]!.channel!;
  return {
    survey: { status: 'scheduled', reason: null, attempt_id: first + 1, channel },
    attempts,
    waits: steps.map((step) => step.afterMinutes),
    contact: address(channel)!,
    contacts,
  };
}

/** The dispatch message of a transaction whose survey is scheduled; it names no person, only ids. */
export async function dispatchIfScheduled(
  tenantId: number,
  { transaction, journeySlug, surveyContact }: TransactionRecord,
  dispatch: (message: DispatchMessage) => Promise<void>,
): Promise<void> {
  const { survey } = transaction;
  if (survey.status !== 'scheduled' || !survey.channel || !surveyContact) return;
  const dueAt = transaction.attempts.find((attempt) => attempt.attempt_id === survey.attempt_id)?.due_at;
  await dispatch({
    version: 1,
    tenantId,
    transactionId: transaction.id,
    attemptId: survey.attempt_id ?? 1,
    journeyId: transaction.journey_id,
    journey: journeySlug,
    channel: survey.channel as DispatchMessage['channel'],
    createdAt: transaction.created_at,
    ...(dueAt && dueAt > transaction.created_at ? { dueAt } : {}),
  });
}
