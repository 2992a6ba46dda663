import { caseDeltas } from '../results/case-tally.js';
import { ConcurrentEditError, NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { tenantEvent } from '../events/events.js';
import type { EventType } from '../events/ports.js';
import type { JourneyConfig, Settings, UserScope } from '../tenants/config-schema.js';
import type { TransactionRecord } from '../transaction-record.js';
import { alertEmail, casePagePath } from './alert.js';
import { AlertNotSent, type CasePorts, type CaseSelection } from './ports.js';
import {
  CLOSED_STATUSES,
  MAX_HISTORY,
  MAX_NOTES,
  TRANSITIONS,
  type CaseHistoryEntry,
  type CaseRecord,
  type CaseRecovery,
} from './record.js';
import { caseDueAt } from './deadline.js';
import { quietUntil } from '../surveys/attempts.js';
import { scheduleDeadline } from './overdue.js';
import { caseRuleOf, casesSettingsOf, opensCase } from './rules.js';
import { caseBody, type CaseBody, type CasePatch, type CasesQuery } from './schema.js';

/** Who acts on a case through the API or the workspace: a user, with the scope its token or session carries. */
export interface CaseActor {
  name: string;
  scope: UserScope;
}

/** What opening a case from an answer did. */
export type OpenOutcome = 'opened' | 'rescored' | 'unchanged' | 'none';

const SYSTEM = 'system';

/** The answer a case message announces is not readable yet: the message is retried. */
export class AnswerNotVisibleYet extends Error {
  constructor(transactionId: number, version: number) {
    super(`Answer version ${version} of transaction ${transactionId} is not readable yet`);
    this.name = 'AnswerNotVisibleYet';
  }
}
/** How often a system change (a correction, the overdue mark) is tried again when a manager wrote the case meanwhile. */
const SYSTEM_RETRIES = 5;
const DAY = 86_400_000;
/** The widest period a list may filter on. */
export const MAX_CASE_DAYS = 400;

const inScope = (scope: UserScope, storeId: number) => scope === 'all' || scope.stores.includes(storeId);
const notFound = (id: number) => new NotFoundError(`Case ${id} not found.`);
const looksLikeEmail = (name: string) => /^[^\s@]+@[^\s@]+$/.test(name);
const withHistory = (record: CaseRecord, ...entries: CaseHistoryEntry[]): CaseHistoryEntry[] =>
  [...record.history, ...entries].slice(-MAX_HISTORY);

/** `case.*` events: no contact, no customer name, no comment; the same id for the same happening. */
function caseEvent(tenantId: number, type: EventType, record: CaseRecord, journey: string | null, at: Date) {
  return tenantEvent(
    tenantId,
    type,
    String(record.id),
    {
      case_id: record.id,
      transaction_id: record.id,
      journey,
      store_id: record.storeId,
      employee_id: record.employeeId,
      score: record.score,
      status: record.status,
      opened_at: record.openedAt,
      due_at: record.dueAt,
      overdue: record.overdue,
      root_cause: record.rootCause,
      recovery: record.recovery?.outcome ?? null,
    },
    at,
  );
}

/**
 * Cases (issue 33): opened from matching answers by the case queue's consumer, alerted once, moved by managers through
 * one conditional write per change, marked overdue and recovered by the parts that own those.
 */
export function caseService(ports: CasePorts) {
  const { cases, users, answers, settings } = ports;
  const slugOf = (config: Settings, journeyId: number) => config.journeys.find((j) => j.id === journeyId)?.slug ?? null;

  async function publish(tenantId: number, type: EventType, record: CaseRecord, config: Settings, at: Date) {
    if (ports.events) await ports.events.publish(tenantId, caseEvent(tenantId, type, record, slugOf(config, record.journeyId), at));
  }

  /** Applies `change` to the newest case and writes it, again while someone else's write comes first. */
  async function changeBySystem(
    tenantId: number,
    id: number,
    change: (current: CaseRecord) => CaseRecord | undefined,
  ): Promise<CaseRecord | undefined> {
    for (let i = 0; i < SYSTEM_RETRIES; i++) {
      const current = await cases.find(tenantId, id);
      const next = current && change(current);
      if (!next) return undefined;
      if (await cases.replace(tenantId, { ...next, version: current.version + 1 }, caseDeltas(current, next)))
        return { ...next, version: current.version + 1 };
    }
    throw new ConcurrentEditError(`Case ${id} kept changing: the change is retried.`);
  }

  function newCase(record: TransactionRecord, journey: JourneyConfig, config: Settings, owners: string[], now: Date): CaseRecord {
    const { transaction, answer } = record;
    const at = now.toISOString();
    return {
      id: transaction.id,
      journeyId: transaction.journey_id,
      storeId: transaction.store_id,
      employeeId: transaction.employee_id,
      customerId: transaction.customer_id,
      customerName: record.erased ? null : record.customerName,
      score: transaction.rating!.score,
      comment: record.erased ? null : transaction.rating!.comment,
      answeredAt: answer!.answeredAt,
      answerVersion: answer!.version ?? 1,
      openedAt: at,
      dueAt: caseDueAt(now, caseRuleOf(journey).deadlineHours, casesSettingsOf(config).workingHours).toISOString(),
      overdue: false,
      overdueAt: null,
      owners,
      status: 'open',
      firstContactAt: null,
      closedAt: null,
      rootCause: null,
      notes: [],
      history: [{ at, by: SYSTEM, action: 'opened' }],
      alertedAt: null,
      recovery: null,
      erased: record.erased,
      version: 1,
    };
  }

  /**
   * Sends the case's one alert to the store's managers. The claim (`alertedAt`) is written before the send: a send the
   * provider refused gives it back (the message is retried and sends then); a crash or a timeout after the claim loses
   * the alert rather than sending it twice, and the case still waits in the list and for its deadline.
   */
  async function alertOnce(tenantId: number, record: CaseRecord, config: Settings, now: Date): Promise<void> {
    const { alerts, names } = ports;
    const from = config.delivery.email?.from;
    const to = record.owners.filter(looksLikeEmail);
    if (record.alertedAt || !alerts || !names || !from || !to.length) return;
    const at = now.toISOString();
    if (!(await cases.claimAlert(tenantId, record.id, at))) return;
    try {
      const [store, employee] = await Promise.all([names.store(tenantId, record.storeId), names.employee(tenantId, record.employeeId)]);
      const message = alertEmail({
        record,
        company: config.brand?.name ?? store,
        store,
        employee,
        link: `${ports.baseUrl ?? ''}${casePagePath(record.id)}`,
        // The managers read the tenant's language (a journey's language is its customers').
        locale: config.locale ?? 'pt-BR',
        timeZone: casesSettingsOf(config).workingHours.timeZone,
      });
      await alerts.email({ from, to, ...message });
    } catch (error) {
      if (error instanceof AlertNotSent) await cases.releaseAlert(tenantId, record.id, at);
      throw error;
    }
  }

  /**
   * The WhatsApp alert, when the journey's rule asks for it and the tenant has an alert template: each of the case's
   * managers who has a phone gets it once (a claim per manager), never inside the tenant's quiet hours: then the case's
   * message comes back through a timer when they end, and only this part runs again.
   */
  async function whatsAppOnce(tenantId: number, record: CaseRecord, config: Settings, now: Date): Promise<'sent' | 'held' | 'none'> {
    const { alerts, names, quietAlerts } = ports;
    const sender = config.delivery.whatsapp;
    const journey = config.journeys.find((j) => j.id === record.journeyId);
    if (!journey || !caseRuleOf(journey).whatsapp || !sender?.caseAlert || !alerts?.whatsapp || !names) return 'none';
    if (CLOSED_STATUSES.includes(record.status)) return 'none';
    const phones = await users.phonesOf(tenantId, record.owners);
    if (!phones.size) return 'none';
    const until = quietUntil(config.delivery.quietHours, now);
    if (until) {
      if (!quietAlerts) throw new Error('The WhatsApp alert is held by quiet hours, but no timer is wired to bring it back.');
      const message = { tenantId, transactionId: record.id, version: record.answerVersion, alert: 'whatsapp' as const };
      await quietAlerts.schedule(message, until, now);
      return 'held';
    }
    const store = await names.store(tenantId, record.storeId);
    const link = `${ports.baseUrl ?? ''}${casePagePath(record.id)}`;
    const { template, language } = sender.caseAlert;
    for (const [user, to] of phones) {
      const at = now.toISOString();
      if (!(await cases.claimWhatsAppAlert(tenantId, record.id, user, at))) continue;
      try {
        const parameters = [String(record.score), store, link];
        await alerts.whatsapp({ to, phoneNumberId: sender.phoneNumberId, template, language, parameters });
      } catch (error) {
        if (error instanceof AlertNotSent) await cases.releaseWhatsAppAlert(tenantId, record.id, user, at);
        throw error;
      }
    }
    return 'sent';
  }

  /** The case message that comes back when quiet hours end: the held WhatsApp alerts go out (or wait again if early). */
  async function alertHeld(tenantId: number, transactionId: number, now = new Date()): Promise<'sent' | 'held' | 'none'> {
    const [current, config] = await Promise.all([cases.find(tenantId, transactionId), settings(tenantId)]);
    if (!current) return 'none';
    return whatsAppOnce(tenantId, current, config, now);
  }

  /**
   * The case queue's work for one answer (at least once): opens the transaction's case when its answer matches the
   * journey's rule (one case per transaction, whatever is redelivered), shows a corrected answer on the case it
   * opened, sends the alert once and publishes `case.opened` (the same event id every time).
   */
  async function openFromAnswer(tenantId: number, transactionId: number, version: number, now = new Date()): Promise<OpenOutcome> {
    const [record, config, existing] = await Promise.all([
      answers.transaction(tenantId, transactionId),
      settings(tenantId),
      cases.find(tenantId, transactionId),
    ]);
    const rating = record?.transaction.rating;
    // The message is sent once the answer is written; a read that does not show it yet (an eventually consistent
    // replica) is tried again, never taken for no answer.
    if (record && (!record.answer || (record.answer.version ?? 1) < version) && !record.erased)
      throw new AnswerNotVisibleYet(transactionId, version);
    if (!record || !rating || !record.answer) return 'none';
    let current = existing;
    let outcome: OpenOutcome = 'unchanged';
    if (!current) {
      const journey = config.journeys.find((j) => j.id === record.transaction.journey_id);
      if (!journey || !opensCase(journey, rating.score, rating.comment)) return 'none';
      const fresh = newCase(record, journey, config, await users.managersOf(tenantId, record.transaction.store_id), now);
      if ((await cases.open(tenantId, fresh, caseDeltas(undefined, fresh))) === 'opened') {
        current = fresh;
        outcome = 'opened';
      } else current = await cases.find(tenantId, transactionId);
      if (!current) return 'none';
    }
    // A correction (PUT /survey) shows on the case it opened: its score and comment, never a second case.
    const shown = record.answer.version ?? 1;
    if (shown > current.answerVersion) {
      const rescored = await changeBySystem(tenantId, transactionId, (c) =>
        shown <= c.answerVersion
          ? undefined
          : {
              ...c,
              score: rating.score,
              comment: c.erased ? null : rating.comment,
              answerVersion: shown,
              history: withHistory(c, { at: now.toISOString(), by: SYSTEM, action: 'rescored', to: String(rating.score) }),
            },
      );
      if (rescored) {
        current = rescored;
        outcome = 'rescored';
      }
    }
    // Its deadline, on every delivery while it can still fall due: a timer put twice is one, and none is lost to a crash.
    if (ports.deadlines && !current.overdue && !CLOSED_STATUSES.includes(current.status))
      await scheduleDeadline(ports.deadlines, tenantId, current.id, new Date(current.dueAt), now);
    await alertOnce(tenantId, current, config, now);
    await whatsAppOnce(tenantId, current, config, now);
    if (outcome !== 'rescored') await publish(tenantId, 'case.opened', current, config, now);
    return outcome;
  }

  async function visible(tenantId: number, id: number, scope: UserScope): Promise<CaseRecord> {
    const found = await cases.find(tenantId, id);
    // A case of a store outside the user's scope is as absent as one that does not exist (as the answers are).
    if (!found || !inScope(scope, found.storeId)) throw notFound(id);
    return found;
  }

  /** GET /public/cases: a page of the cases the user may see, and the customers it shows by name or comment. */
  async function list(
    tenantId: number,
    query: CasesQuery,
    scope: UserScope,
  ): Promise<{ body: { data: CaseBody[]; limit: number; next_cursor: string | null }; shownCustomers: number[] }> {
    const problems: FieldProblem[] = [];
    if (query.from && query.to) {
      const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY + 1;
      if (days < 1) problems.push({ path: 'from', message: 'must not be after to' });
      else if (days > MAX_CASE_DAYS) problems.push({ path: 'to', message: `the period may span at most ${MAX_CASE_DAYS} days` });
    }
    if (problems.length) throw new ValidationError('Invalid case filters.', problems);
    if (query.store !== undefined && !inScope(scope, query.store)) throw new NotFoundError('No such store.');
    const stores = query.store !== undefined ? [query.store] : scope === 'all' ? undefined : scope.stores;
    const overdue = query.overdue === undefined ? undefined : query.overdue === 'true';
    const selection: CaseSelection = {
      tenantId,
      ...(stores ? { stores } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(overdue !== undefined ? { overdue } : {}),
      ...(query.owner !== undefined ? { owner: query.owner } : {}),
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      limit: query.limit,
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      // The cursor holds to the filters and the scope it was given under.
      query: JSON.stringify([
        'cases',
        tenantId,
        stores ?? 'all',
        query.status ?? null,
        overdue ?? null,
        query.from ?? null,
        query.to ?? null,
        ...(query.owner !== undefined ? [query.owner] : []),
      ]),
    };
    const [{ cases: found, nextCursor }, config] = await Promise.all([cases.list(selection), settings(tenantId)]);
    const data = found.map((c) => caseBody(c, slugOf(config, c.journeyId)));
    return {
      body: { data, limit: query.limit, next_cursor: nextCursor },
      shownCustomers: [...new Set(data.filter((c) => c.customer.name !== null || c.comment !== null).map((c) => c.customer.id))],
    };
  }

  /** GET /public/cases/{id}. */
  async function get(tenantId: number, id: number, scope: UserScope): Promise<CaseBody> {
    const [found, config] = await Promise.all([visible(tenantId, id, scope), settings(tenantId)]);
    return caseBody(found, slugOf(config, found.journeyId));
  }

  /**
   * PATCH /public/cases/{id}: a status (along TRANSITIONS; resolving takes a root cause of the tenant's and a note), an
   * owner (a user whose scope holds the store), a root cause, a note. Every wrong field is named; one conditional write,
   * so that of two managers changing the case at once one gets a 409.
   */
  async function update(tenantId: number, id: number, patch: CasePatch, actor: CaseActor, now = new Date()): Promise<CaseBody> {
    const fields = ['status', 'owner', 'root_cause', 'note'] as const;
    if (!fields.some((field) => patch[field] !== undefined))
      throw new ValidationError('Nothing to change.', [{ path: '', message: `must set at least one of ${fields.join(', ')}` }]);
    const [current, config] = await Promise.all([visible(tenantId, id, actor.scope), settings(tenantId)]);
    const at = now.toISOString();
    const by = actor.name;
    const problems: FieldProblem[] = [];
    const next: CaseRecord = { ...current, version: current.version + 1 };
    const history: CaseHistoryEntry[] = [];

    const status = patch.status ?? current.status;
    if (status !== current.status) {
      if (!TRANSITIONS[current.status].includes(status)) {
        const allowed = TRANSITIONS[current.status];
        problems.push({
          path: 'status',
          message: `a case ${current.status} cannot become ${status}${allowed.length ? ` (it may become ${allowed.join(' or ')})` : ' (it is closed)'}`,
        });
      } else {
        next.status = status;
        if (status === 'in_progress') next.firstContactAt = current.firstContactAt ?? at;
        if (CLOSED_STATUSES.includes(status)) next.closedAt = at;
        history.push({ at, by, action: 'status', from: current.status, to: status });
      }
    }
    if (patch.root_cause !== undefined) {
      const { rootCauses } = casesSettingsOf(config);
      if (!rootCauses.includes(patch.root_cause)) problems.push({ path: 'root_cause', message: `must be one of ${rootCauses.join(', ')}` });
      else next.rootCause = patch.root_cause;
    }
    if (status === 'resolved' && TRANSITIONS[current.status].includes('resolved')) {
      if (patch.root_cause === undefined && !current.rootCause)
        problems.push({ path: 'root_cause', message: 'is required to resolve a case' });
      if (patch.note === undefined) problems.push({ path: 'note', message: 'is required to resolve a case' });
    }
    if (patch.owner !== undefined && !(current.owners.length === 1 && current.owners[0] === patch.owner)) {
      const scope = await users.scopeOf(tenantId, patch.owner);
      if (!scope || !inScope(scope, current.storeId))
        problems.push({ path: 'owner', message: "must be a user whose scope holds the case's store" });
      else {
        next.owners = [patch.owner];
        history.push({ at, by, action: 'owner', from: current.owners.join(', ') || null, to: patch.owner });
      }
    }
    if (patch.note !== undefined) {
      if (current.notes.length >= MAX_NOTES)
        problems.push({ path: 'note', message: `the case holds the most notes it may (${MAX_NOTES})` });
      else {
        next.notes = [...current.notes, { author: by, at, text: patch.note }];
        history.push({ at, by, action: 'note' });
      }
    }
    if (problems.length) throw new ValidationError('The change does not fit this case.', problems);
    next.history = withHistory(current, ...history);
    if (!(await cases.replace(tenantId, next, caseDeltas(current, next))))
      throw new ConcurrentEditError('The case changed since it was read: read it again and retry.');
    if (next.status === 'resolved' && current.status !== 'resolved') {
      await publish(tenantId, 'case.resolved', next, config, now);
      await ports.recovery?.request(tenantId, next);
    }
    return caseBody(next, slugOf(config, next.journeyId));
  }

  /**
   * POST /public/cases/{id}/contact: the customer's phone and e-mail address as the customer record holds them now,
   * for the manager to call or write (the handler records the read in the access log before answering). Nulls once
   * the customer was erased.
   */
  async function revealContact(tenantId: number, id: number, actor: CaseActor) {
    const found = await visible(tenantId, id, actor.scope);
    const contact = found.erased ? undefined : await ports.contacts?.of(tenantId, found.customerId);
    return {
      customerId: found.customerId,
      body: {
        id,
        customer: { id: found.customerId, name: contact?.name ?? null, phone: contact?.phone ?? null, email: contact?.email ?? null },
      },
    };
  }

  /**
   * Marks an open or in-progress case overdue (the `deadlines` part calls it when its due time passes) and publishes
   * `case.overdue`; undefined when it is closed, overdue already or absent.
   */
  async function markOverdue(tenantId: number, id: number, at: Date): Promise<CaseRecord | undefined> {
    const marked = await changeBySystem(tenantId, id, (c) =>
      c.overdue || CLOSED_STATUSES.includes(c.status)
        ? undefined
        : {
            ...c,
            overdue: true,
            overdueAt: at.toISOString(),
            history: withHistory(c, { at: at.toISOString(), by: SYSTEM, action: 'overdue' }),
          },
    );
    if (marked) await publish(tenantId, 'case.overdue', marked, await settings(tenantId), at);
    return marked;
  }

  /** Records what the recovery survey found (the `recovery` part), and publishes `case.recovered` once it is known. */
  async function recordRecovery(tenantId: number, id: number, recovery: CaseRecovery): Promise<CaseRecord | undefined> {
    const recorded = await changeBySystem(tenantId, id, (c) => ({
      ...c,
      recovery,
      history: withHistory(c, { at: recovery.at, by: SYSTEM, action: 'recovery', to: recovery.outcome }),
    }));
    if (recorded && recovery.outcome !== 'pending')
      await publish(tenantId, 'case.recovered', recorded, await settings(tenantId), new Date(recovery.at));
    return recorded;
  }

  return { openFromAnswer, alertHeld, list, get, update, revealContact, markOverdue, recordRecovery };
}

export type CaseService = ReturnType<typeof caseService>;
