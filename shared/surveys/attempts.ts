import type { Transaction } from '../transaction-record.js';
import { DEFAULT_QUIET_HOURS, type QuietHours } from '../settings/scales.js';
import type { NextAttempt, PlannedAttempt } from './ports.js';

/** The rules of a survey's attempts over time: what comes next, and when a channel may not be used. */

/** The first attempt after `current` that is not skipped, due `afterMinutes` after `from` (or at `from` when `immediately`). */
export function nextAttempt({
  plan,
  current,
  from,
  immediately = false,
}: {
  plan: readonly PlannedAttempt[];
  current: number;
  from: Date;
  immediately?: boolean;
}): NextAttempt | undefined {
  const next = plan.find((attempt) => attempt.attemptId > current && attempt.status !== 'skipped');
  if (!next) return undefined;
  return {
    attemptId: next.attemptId,
    channel: next.channel,
    dueAt: new Date(from.getTime() + (immediately ? 0 : next.afterMinutes * 60_000)),
  };
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/**
 * When the quiet window that `now` falls in ends (to the minute), or undefined outside it. `quiet` undefined means
 * the default window; null means none. The window may cross midnight (21:00 to 08:00); it counts in `tenantZone`
 * unless it names its own.
 */
export function quietUntil(quiet: QuietHours | null | undefined, now: Date, tenantZone: string): Date | undefined {
  const window = quiet === undefined ? DEFAULT_QUIET_HOURS : quiet;
  if (!window) return undefined;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: window.timeZone ?? tenantZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const local = Number(parts.find((p) => p.type === 'hour')!.value) * 60 + Number(parts.find((p) => p.type === 'minute')!.value);
  const [from, to] = [minutesOf(window.from), minutesOf(window.to)];
  const inside = from < to ? local >= from && local < to : local >= from || local < to;
  if (!inside || from === to) return undefined;
  const wait = (to - local + 1440) % 1440;
  const end = new Date(now.getTime() + wait * 60_000);
  end.setUTCSeconds(0, 0);
  return end;
}

/** Whether the survey's links have lapsed unanswered. */
export const isExpired = (survey: Transaction['survey'], now: Date): boolean => survey.status !== 'answered' && linksLapsed(survey, now);

/** Whether a survey's links lapsed (its validity counts from its first attempt sent): it takes no answer nor correction. */
export const linksLapsed = (survey: Pick<Transaction['survey'], 'expires_at'>, now: Date): boolean =>
  survey.expires_at !== undefined && Date.parse(survey.expires_at) <= now.getTime();

/**
 * A transaction's survey as it stands at `now`: `expired` once its links lapsed unanswered; `not_sent` for want of a
 * contact once its customer was erased or its personal copies expired (`contactGone`) before it went out; and
 * attempts that will never go out (the survey answered, expired, refused by an opt-out, or its contact gone) shown
 * `cancelled`.
 */
export function surveyAsSeen(transaction: Transaction, now: Date, contactGone = false): Transaction {
  const expired = isExpired(transaction.survey, now);
  const unsent = contactGone && transaction.survey.status === 'scheduled';
  const survey = expired
    ? { ...transaction.survey, status: 'expired' as const }
    : unsent
      ? { ...transaction.survey, status: 'not_sent' as const, reason: 'no_contact' as const }
      : transaction.survey;
  const over = contactGone || survey.status === 'answered' || survey.status === 'expired' || survey.reason === 'opted_out';
  const attempts = over
    ? transaction.attempts.map((a) => (a.status === 'pending' || a.status === 'scheduled' ? { ...a, status: 'cancelled' as const } : a))
    : transaction.attempts;
  return { ...transaction, survey, attempts };
}
