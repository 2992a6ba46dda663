import { describe, expect, it } from 'vitest';
import { caseChanges } from '../../../shared/cases/changes.js';
import { caseOpener } from '../../../shared/cases/opener.js';
import { checkDeadline, type EscalationUser, type OverduePorts } from '../../../shared/cases/overdue.js';
import { caseReads } from '../../../shared/cases/reads.js';
import { caseSystemChanges } from '../../../shared/cases/system-changes.js';
import { memoryEscalations } from '../../support/memory.js';
import { answered, caseWorld, MONDAY_10H, settings, TENANT } from './world.js';

/** Cases whose deadline passes (the deadline queue's consumer): overdue, escalated once; over in-memory ports. */

const DIRECTORY: EscalationUser[] = [
  { name: 'regional@loja.example', scope: { stores: [], groups: [8] } },
  { name: 'diretora@loja.example', scope: 'all' },
  { name: 'outro-grupo@loja.example', scope: { stores: [], groups: [9] } },
];

function deadlineWorld(config = settings(), directory = DIRECTORY) {
  const world = caseWorld(config);
  const escalations = memoryEscalations();
  const ports: OverduePorts = {
    cases: world.cases,
    markOverdue: caseSystemChanges(world.ports).markOverdue,
    escalations,
    directory: { users: async () => directory, groupsOfStore: async (_t, storeId) => (storeId === 3 ? [8] : []) },
    alerts: world.ports.alerts!,
    names: world.ports.names!,
    settings: world.ports.settings,
    timer: world.deadlines,
    baseUrl: 'https://app.example',
  };
  const open = async (id: number, at: Date) => {
    world.transactions.set(id, answered(id, 1, null));
    await caseOpener(world.ports).openFromAnswer(TENANT, { transactionId: id, version: 1, now: at });
  };
  /** Delivers every deadline timer scheduled so far (a timer put back early is scheduled again). */
  const fireTimers = async (now: Date) => {
    const due = world.deadlines.scheduled.splice(0);
    return Promise.all(due.map(({ message }) => checkDeadline(message, ports, now)));
  };
  const overdueIds = async () =>
    (
      await caseReads(world.ports).list(TENANT, { limit: 20, overdue: 'true' }, { name: 'diretora@loja.example', scope: 'all' })
    ).body.data.map((c) => c.id);
  return { world, escalations, ports, open, fireTimers, overdueIds };
}

describe('a case deadline', () => {
  it("makes a case overdue once its business hours in the tenant's time zone have passed, and no case before", async () => {
    const { world, open, fireTimers, overdueIds } = deadlineWorld(settings({ timeZone: 'America/Manaus' }));
    // Monday 08:00 in Manaus: the clock starts at 09:00 there (13:00 UTC): 9 + 9 + 6 hours, Wednesday 15:00 (19:00 UTC).
    await open(301, new Date('2026-11-23T12:00:00.000Z'));
    // Friday 17:00 in Manaus: 1 + 9 + 9 + 5 hours, Wednesday 14:00 (18:00 UTC).
    await open(302, new Date('2026-11-20T21:00:00.000Z'));
    // Tuesday 09:00 in Manaus: due on Thursday.
    await open(303, new Date('2026-11-24T13:00:00.000Z'));
    expect((await world.cases.find(TENANT, 301))!.dueAt).toBe('2026-11-25T19:00:00.000Z');

    expect(await fireTimers(new Date('2026-11-25T18:30:00.000Z'))).toEqual(['early', 'escalated', 'early']);
    expect(await overdueIds()).toEqual([302]);

    expect(await fireTimers(new Date('2026-11-25T19:00:00.000Z'))).toEqual(['escalated', 'early']);
    expect(await overdueIds()).toEqual([302, 301]);
    expect(await world.cases.find(TENANT, 301)).toMatchObject({ overdue: true, overdueAt: '2026-11-25T19:00:00.000Z', status: 'open' });
    expect(world.events.published.filter((p) => p.event.type === 'case.overdue').map((p) => p.event.data.case_id)).toEqual([302, 301]);
  });

  it("escalates once, to the users of the store's groups, however often the deadline is delivered", async () => {
    const { world, escalations, ports, open } = deadlineWorld();
    await open(304, MONDAY_10H);
    const { message } = world.deadlines.scheduled[0]!;
    const after = new Date('2026-11-26T12:00:00.000Z');
    world.emails.length = 0;

    expect(await checkDeadline(message, ports, after)).toBe('escalated');
    expect(await checkDeadline(message, ports, after)).toBe('duplicate');
    expect(world.emails.map((e) => e.to)).toEqual([['regional@loja.example']]);
    expect(escalations.rows.get(`${TENANT}#304`)).toMatchObject({ state: 'sent', rule: 'groups', recipients: 1 });
    expect((await world.cases.find(TENANT, 304))!.history.filter((h) => h.action === 'overdue')).toHaveLength(1);
  });

  it('escalates to the users of every store when no user holds a group of the store', async () => {
    const { world, ports, open } = deadlineWorld(settings(), DIRECTORY.slice(1));
    await open(305, MONDAY_10H);
    world.emails.length = 0;

    expect(await checkDeadline(world.deadlines.scheduled[0]!.message, ports, new Date('2026-11-26T12:00:00.000Z'))).toBe('escalated');
    expect(world.emails.map((e) => e.to)).toEqual([['diretora@loja.example']]);
  });

  it('leaves alone a case closed before its deadline, and puts back a timer that arrives early', async () => {
    const { world, ports, open, fireTimers } = deadlineWorld();
    await open(306, MONDAY_10H);
    await open(307, MONDAY_10H);
    const manager = { name: 'gerente@loja.example', scope: 'all' as const };
    await caseChanges(world.ports).update(TENANT, { id: 306, patch: { status: 'closed_unresolved' }, actor: manager, expected: 1 });
    world.emails.length = 0;
    const due = world.deadlines.scheduled[1]!.dueAt;

    expect(await fireTimers(new Date('2026-11-24T12:00:00.000Z'))).toEqual(['early', 'early']);
    expect(world.deadlines.scheduled.map((t) => t.dueAt)).toEqual([due, due]);
    expect(await checkDeadline(world.deadlines.scheduled[0]!.message, ports, new Date(due))).toBe('closed');
    expect(await world.cases.find(TENANT, 306)).toMatchObject({ overdue: false, status: 'closed_unresolved' });
    expect(await world.cases.find(TENANT, 307)).toMatchObject({ overdue: false });
    expect(world.emails).toEqual([]);
  });
});
