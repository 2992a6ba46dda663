import type { UserScope } from '../access/user-scope.js';
import type { Settings } from '../settings/settings.js';
import type { TimerScheduler } from '../timers/timers.js';
import { alertEmail, casePagePath } from './alert.js';
import { signsIn } from './owner.js';
import type { CaseDeadlineMessage } from './deadline-message.js';
import type { CaseAlerts, CaseNames, CaseStore } from './ports.js';
import { CLOSED_STATUSES, type CaseRecord } from './record.js';
import { timeZoneOf } from '../locale.js';

/**
 * A case's deadline, when its timer fires (at least once): a case still open or in progress becomes overdue (the cases
 * service's `markOverdue`, which publishes `case.overdue`) and escalates once, by e-mail to the users of the store's
 * groups. A case resolved or closed before its deadline is left alone.
 */

/** Where a case's deadline timer goes when the case opens: on the way to the deadline queue at `dueAt`. */
export type CaseDeadlineTimer = TimerScheduler<CaseDeadlineMessage>;

/** Schedules the deadline of a case (the `cases` part calls it when a case opens, and again on a redelivery: one timer). */
export const scheduleDeadline = (
  timer: CaseDeadlineTimer,
  tenantId: number,
  { caseId, dueAt, now }: { caseId: number; dueAt: Date; now: Date },
) => timer.schedule({ version: 1, tenantId, caseId }, dueAt, now);

/** A user as escalation reads it: the name (an e-mail address for the workspace's managers) and the scope. */
export interface EscalationUser {
  name: string;
  scope: UserScope;
}

/** Who may be told of an overdue case. */
export interface EscalationDirectory {
  users(tenantId: number): Promise<EscalationUser[]>;
  /** The groups that hold a store: the groups of the store's employees. */
  groupsOfStore(tenantId: number, storeId: number): Promise<number[]>;
}

/** The escalation of each case, once: a claim that lapses (a crash after it), then the record that it went out. */
export interface EscalationClaims {
  /** True when this caller may send: never escalated, nor claimed in the last CLAIM_SECONDS. */
  claim(tenantId: number, caseId: number, now: Date): Promise<boolean>;
  /** The escalation went out `at` to `recipients` users under `rule`. */
  sent(tenantId: number, caseId: number, outcome: { rule: EscalationRule; recipients: number; at: Date }): Promise<void>;
  /** Gives back this caller's claim (the send failed: the message is retried). */
  release(tenantId: number, caseId: number, now: Date): Promise<void>;
}

export interface OverduePorts {
  cases: Pick<CaseStore, 'find'>;
  /** The cases service's: the case once this call made it overdue, undefined when it was already or is closed. */
  markOverdue(tenantId: number, id: number, at: Date): Promise<CaseRecord | undefined>;
  escalations: EscalationClaims;
  directory: EscalationDirectory;
  alerts: CaseAlerts;
  names: CaseNames;
  settings: (tenantId: number) => Promise<Settings>;
  timer: CaseDeadlineTimer;
  /** The base URL of the workspace's links. */
  baseUrl: string;
}

/** A claim older than this is taken to be a crash's, and the escalation may go again. */
export const CLAIM_SECONDS = 120;
/** A timer that arrives this early is on time (the queue delays to the second; clocks differ a little). */
const EARLY_TOLERANCE_MS = 5_000;

/** Who is told: the users whose scope lists a group holding the store, or when there are none the users of every store. */
export type EscalationRule = 'groups' | 'all';

/** The escalation's recipients among the tenant's users: only names that are e-mail addresses can be written to. */
export function escalationRecipients(users: EscalationUser[], storeGroups: number[]): { rule: EscalationRule; to: string[] } {
  const byGroup = users.filter((u) => u.scope !== 'all' && u.scope.groups.some((g) => storeGroups.includes(g)) && signsIn(u.name));
  if (byGroup.length) return { rule: 'groups', to: byGroup.map((u) => u.name).sort() };
  return {
    rule: 'all',
    to: users
      .filter((u) => u.scope === 'all' && signsIn(u.name))
      .map((u) => u.name)
      .sort(),
  };
}

export type DeadlineOutcome = 'early' | 'gone' | 'closed' | 'escalated' | 'duplicate' | 'nobody';

/** The deadline queue's work for one message. */
export async function checkDeadline(message: CaseDeadlineMessage, ports: OverduePorts, now: Date): Promise<DeadlineOutcome> {
  const { tenantId, caseId } = message;
  if (message.dueAt && Date.parse(message.dueAt) > now.getTime() + EARLY_TOLERANCE_MS) {
    await ports.timer.schedule(message, new Date(message.dueAt), now);
    return 'early';
  }
  const found = await ports.cases.find(tenantId, caseId);
  if (!found) return 'gone';
  if (CLOSED_STATUSES.includes(found.status)) return 'closed';
  // Marked now, or earlier by a delivery that did not finish its escalation; a case closed meanwhile is left alone.
  const current = found.overdue ? found : ((await ports.markOverdue(tenantId, caseId, now)) ?? (await ports.cases.find(tenantId, caseId)));
  if (!current || !current.overdue || CLOSED_STATUSES.includes(current.status)) return 'closed';
  if (!(await ports.escalations.claim(tenantId, caseId, now))) return 'duplicate';
  try {
    return await escalate(tenantId, { record: current, ports, now });
  } catch (error) {
    await ports.escalations.release(tenantId, caseId, now);
    throw error;
  }
}

async function escalate(
  tenantId: number,
  { record, ports, now }: { record: CaseRecord; ports: OverduePorts; now: Date },
): Promise<DeadlineOutcome> {
  const [config, users, groups] = await Promise.all([
    ports.settings(tenantId),
    ports.directory.users(tenantId),
    ports.directory.groupsOfStore(tenantId, record.storeId),
  ]);
  const { rule, to } = escalationRecipients(users, groups);
  const from = config.delivery.email?.from;
  if (!from || !to.length) {
    await ports.escalations.sent(tenantId, record.id, { rule, recipients: 0, at: now });
    return 'nobody';
  }
  const [store, employee] = await Promise.all([
    ports.names.store(tenantId, record.storeId),
    ports.names.employee(tenantId, record.employeeId),
  ]);
  const journey = config.journeys.find((j) => j.id === record.journeyId);
  const email = alertEmail({
    record,
    company: config.brand?.name ?? store,
    store,
    employee,
    link: `${ports.baseUrl}${casePagePath(record.id)}`,
    locale: journey?.locale ?? config.locale ?? 'pt-BR',
    timeZone: timeZoneOf(config),
    kind: 'escalation',
  });
  await ports.alerts.email({ from, to, ...email });
  await ports.escalations.sent(tenantId, record.id, { rule, recipients: to.length, at: now });
  return 'escalated';
}
