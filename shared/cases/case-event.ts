import { tenantEvent } from '../events/events.js';
import type { EventType } from '../events/ports.js';
import type { Settings } from '../settings/settings.js';
import type { CasePorts } from './ports.js';
import { MAX_HISTORY, type CaseHistoryEntry, type CaseRecord } from './record.js';

/** Who changes a case without a manager: the opener, a corrected answer, the deadline, the recovery survey. */
export const SYSTEM = 'system';

export const withHistory = (record: CaseRecord, ...entries: CaseHistoryEntry[]): CaseHistoryEntry[] =>
  [...record.history, ...entries].slice(-MAX_HISTORY);

export const slugOf = (config: Settings, journeyId: number) => config.journeys.find((j) => j.id === journeyId)?.slug ?? null;

/**
 * `case.*` events: no contact, no customer name, no comment; the owner (a manager's e-mail address, or null), as the
 * case API answers it; the same id for the same happening.
 */
function caseEvent(
  tenantId: number,
  { type, record, journey, at }: { type: EventType; record: CaseRecord; journey: string | null; at: Date },
) {
  return tenantEvent(tenantId, {
    type,
    subject: String(record.id),
    data: {
      case_id: record.id,
      case_number: record.number,
      transaction_id: record.transactionCode,
      journey,
      store_id: record.storeId,
      employee_id: record.employeeId,
      score: record.score,
      status: record.status,
      owner: record.owner,
      opened_at: record.openedAt,
      due_at: record.dueAt,
      overdue: record.overdue,
      root_cause: record.rootCause,
      recovery: record.recovery?.outcome ?? null,
    },
    at,
  });
}

/** Publishes a `case.*` event when the part has an event publisher. */
export async function publishCase(
  ports: Pick<CasePorts, 'events'>,
  tenantId: number,
  { type, record, config, at }: { type: EventType; record: CaseRecord; config: Settings; at: Date },
) {
  if (ports.events)
    await ports.events.publish(tenantId, caseEvent(tenantId, { type, record, journey: slugOf(config, record.journeyId), at }));
}
