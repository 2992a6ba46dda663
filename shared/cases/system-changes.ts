import { caseDeltas } from '../results/case-tally.js';
import { ConcurrentEditError } from '../errors.js';
import { publishCase, SYSTEM, withHistory } from './case-event.js';
import type { CasePorts } from './ports.js';
import { CLOSED_STATUSES, type CaseRecord, type CaseRecovery } from './record.js';

/** How often a system change (a correction, the overdue mark) is tried again when a manager wrote the case meanwhile. */
const SYSTEM_RETRIES = 5;

/** Applies `change` to the newest case and writes it, again while someone else's write comes first. */
export async function changeBySystem(
  cases: CasePorts['cases'],
  tenantId: number,
  { id, change }: { id: number; change: (current: CaseRecord) => CaseRecord | undefined },
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

/** What the parts around a case change on it: the overdue mark (the deadlines) and the recovery survey's answer. */
export function caseSystemChanges(ports: Pick<CasePorts, 'cases' | 'settings' | 'events'>) {
  const { cases, settings } = ports;

  /**
   * Marks an open or in-progress case overdue (the `deadlines` part calls it when its due time passes) and publishes
   * `case.overdue`; undefined when it is closed, overdue already or absent.
   */
  async function markOverdue(tenantId: number, id: number, at: Date): Promise<CaseRecord | undefined> {
    const marked = await changeBySystem(cases, tenantId, {
      id,
      change: (c) =>
        c.overdue || CLOSED_STATUSES.includes(c.status)
          ? undefined
          : {
              ...c,
              overdue: true,
              overdueAt: at.toISOString(),
              history: withHistory(c, { at: at.toISOString(), by: SYSTEM, action: 'overdue' }),
            },
    });
    if (marked) await publishCase(ports, tenantId, { type: 'case.overdue', record: marked, config: await settings(tenantId), at });
    return marked;
  }

  /** Records what the recovery survey found (the `recovery` part), and publishes `case.recovered` once it is known. */
  async function recordRecovery(tenantId: number, id: number, recovery: CaseRecovery): Promise<CaseRecord | undefined> {
    const recorded = await changeBySystem(cases, tenantId, {
      id,
      change: (c) => ({
        ...c,
        recovery,
        history: withHistory(c, { at: recovery.at, by: SYSTEM, action: 'recovery', to: recovery.outcome }),
      }),
    });
    if (recorded && recovery.outcome !== 'pending')
      await publishCase(ports, tenantId, {
        type: 'case.recovered',
        record: recorded,
        config: await settings(tenantId),
        at: new Date(recovery.at),
      });
    return recorded;
  }

  return { markOverdue, recordRecovery };
}
