import { caseDeltas } from '../results/case-tally.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import type { TransactionRecord } from '../transaction-record.js';
import { alertEmail, casePagePath } from './alert.js';
import { publishCase, SYSTEM, withHistory } from './case-event.js';
import { AlertNotSent, type CasePorts } from './ports.js';
import { CLOSED_STATUSES, type CaseRecord } from './record.js';
import { caseDueAt } from './deadline.js';
import { quietUntil } from '../surveys/attempts.js';
import { scheduleDeadline } from './overdue.js';
import { caseRuleOf, casesSettingsOf, opensCase } from './rules.js';
import { timeZoneOf } from '../locale.js';
import { changeBySystem } from './system-changes.js';
import { ownerOfNewCase, peopleOf } from './owner.js';

/** What opening a case from an answer did. */
export type OpenOutcome = 'opened' | 'rescored' | 'unchanged' | 'none';

/** The answer a case message announces is not readable yet: the message is retried. */
export class AnswerNotVisibleYet extends Error {
  constructor(transactionId: number, version: number) {
    super(`Answer version ${version} of transaction ${transactionId} is not readable yet`);
    this.name = 'AnswerNotVisibleYet';
  }
}

/** The case queue's consumer: opens cases from answers, alerts the store's people once (by e-mail, and on WhatsApp). */
export function caseOpener(ports: CasePorts) {
  const { cases, users, answers, settings } = ports;

  function newCase({
    record,
    journey,
    config,
    people,
    now,
  }: {
    record: TransactionRecord;
    journey: JourneyConfig;
    config: Settings;
    people: string[];
    now: Date;
  }): CaseRecord {
    const { transaction, answer } = record;
    const at = now.toISOString();
    return {
      id: transaction.id,
      transactionCode: transaction.transaction_id,
      number: null,
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
      owner: ownerOfNewCase(people),
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
   * Sends the case's one alert to the store's people (`peopleOf`), naming its owner when it has one. The claim
   * (`alertedAt`) is written before the send: a send the provider refused gives it back (the message is retried and
   * sends then); a crash or a timeout after the claim loses the alert rather than sending it twice, and the case still
   * waits in the list and for its deadline.
   */
  async function alertOnce(
    tenantId: number,
    { record, config, to, now }: { record: CaseRecord; config: Settings; to: string[]; now: Date },
  ): Promise<void> {
    const { alerts, names } = ports;
    const from = config.delivery.email?.from;
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
        timeZone: timeZoneOf(config),
      });
      await alerts.email({ from, to, ...message });
    } catch (error) {
      if (error instanceof AlertNotSent) await cases.releaseAlert(tenantId, record.id, at);
      throw error;
    }
  }

  /**
   * The WhatsApp alert, when the journey's rule asks for it and the tenant has an alert template: each of the store's
   * people who has a phone gets it once (a claim per manager), never inside the tenant's quiet hours: then the case's
   * message comes back through a timer when they end, and only this part runs again.
   */
  async function whatsAppOnce(
    tenantId: number,
    { record, config, people, now }: { record: CaseRecord; config: Settings; people: string[]; now: Date },
  ): Promise<'sent' | 'held' | 'none'> {
    const { alerts, names, quietAlerts } = ports;
    const sender = config.delivery.whatsapp;
    const journey = config.journeys.find((j) => j.id === record.journeyId);
    if (!journey || !caseRuleOf(journey).whatsapp || !sender?.caseAlert || !alerts?.whatsapp || !names) return 'none';
    if (CLOSED_STATUSES.includes(record.status)) return 'none';
    const phones = await users.phonesOf(tenantId, people);
    if (!phones.size) return 'none';
    const until = quietUntil(config.delivery.quietHours, now, timeZoneOf(config));
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
      const claim = { user, at: now.toISOString() };
      if (!(await cases.claimWhatsAppAlert(tenantId, record.id, claim))) continue;
      try {
        const parameters = [String(record.score), store, link];
        await alerts.whatsapp({ to, phoneNumberId: sender.phoneNumberId, template, language, parameters });
      } catch (error) {
        if (error instanceof AlertNotSent) await cases.releaseWhatsAppAlert(tenantId, record.id, claim);
        throw error;
      }
    }
    return 'sent';
  }

  /** The case message that comes back when quiet hours end: the held WhatsApp alerts go out (or wait again if early). */
  async function alertHeld(tenantId: number, transactionId: number, now = new Date()): Promise<'sent' | 'held' | 'none'> {
    const [current, config] = await Promise.all([cases.find(tenantId, transactionId), settings(tenantId)]);
    if (!current) return 'none';
    return whatsAppOnce(tenantId, {
      record: current,
      config,
      people: await peopleOf(users, tenantId, { storeId: current.storeId, regions: config.regions ?? [] }),
      now,
    });
  }

  /**
   * The case queue's work for one answer (at least once): opens the transaction's case when its answer matches the
   * journey's rule (one case per transaction, whatever is redelivered), shows a corrected answer on the case it
   * opened, sends the alert once and publishes `case.opened` (the same event id every time).
   */
  async function openFromAnswer(
    tenantId: number,
    { transactionId, version, now = new Date() }: { transactionId: number; version: number; now?: Date },
  ): Promise<OpenOutcome> {
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
    let people: string[] | undefined;
    if (!current) {
      const journey = config.journeys.find((j) => j.id === record.transaction.journey_id);
      if (!journey || !opensCase(journey, rating.score, rating.comment)) return 'none';
      people = await peopleOf(users, tenantId, { storeId: record.transaction.store_id, regions: config.regions ?? [] });
      const fresh = newCase({ record, journey, config, people, now });
      const opened = await cases.open(tenantId, fresh, caseDeltas(undefined, fresh));
      if (opened !== 'exists') {
        current = opened;
        outcome = 'opened';
      } else current = await cases.find(tenantId, transactionId);
      if (!current) return 'none';
    }
    // A correction (PUT /survey) shows on the case it opened: its score and comment, never a second case.
    const shown = record.answer.version ?? 1;
    if (shown > current.answerVersion) {
      const rescored = await changeBySystem(cases, tenantId, {
        id: transactionId,
        change: (c) =>
          shown <= c.answerVersion
            ? undefined
            : {
                ...c,
                score: rating.score,
                comment: c.erased ? null : rating.comment,
                answerVersion: shown,
                history: withHistory(c, { at: now.toISOString(), by: SYSTEM, action: 'rescored', to: String(rating.score) }),
              },
      });
      if (rescored) {
        current = rescored;
        outcome = 'rescored';
      }
    }
    // Its deadline, on every delivery while it can still fall due: a timer put twice is one, and none is lost to a crash.
    if (ports.deadlines && !current.overdue && !CLOSED_STATUSES.includes(current.status))
      await scheduleDeadline(ports.deadlines, tenantId, { caseId: current.id, dueAt: new Date(current.dueAt), now });
    people ??= await peopleOf(users, tenantId, { storeId: current.storeId, regions: config.regions ?? [] });
    await alertOnce(tenantId, { record: current, config, to: people, now });
    await whatsAppOnce(tenantId, { record: current, config, people, now });
    if (outcome !== 'rescored') await publishCase(ports, tenantId, { type: 'case.opened', record: current, config, at: now });
    return outcome;
  }

  return { openFromAnswer, alertHeld };
}
