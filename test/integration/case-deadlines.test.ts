import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as caseDeadlines } from '../../functions/queue/case-deadlines.js';
import { invoke } from '../../infra/local/invoke.js';
import { dueTimers } from '../../shared/adapters/due-timers.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { caseOpener, checkCaseDeadline } from '../../shared/adapters/wiring/cases.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { sendTimers } from '../../shared/adapters/wiring/timers.js';
import type { CaseDeadlineMessage } from '../../shared/cases/deadline-message.js';
import { minuteOf, releaseDue, type DueStore, type Timer } from '../../shared/timers/timers.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { emailsOf } from '../support/mailbox.js';

/**
 * A case's deadline end to end against the emulators, with a clock the test holds: the case opens on a Monday of
 * 2031 (the opener's service, given the time), its timer waits in the real table, the release (with a checkpoint of
 * the test's own) puts it on a private deadline queue when its minute comes, and the deadline's consumer runs on it,
 * twice at once as a redelivery would. The escalation arrives in the local SES mailbox.
 */
usePrivateQueue('surveyDispatch');
const caseQueue = usePrivateQueue('cases');
const deadlineQueue = usePrivateQueue('caseDeadlines');
const eventQueue = usePrivateQueue('events');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const sesUrl = inject('sesUrl');
let tenant: TestTenant;
let regional: string;
let everyStore: string;
let quietStore: number;

const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);
/** Monday 6 January 2031, 09:00 in São Paulo: the tenant's default working hours (09:00-18:00, Monday to Friday). */
const monday = new Date('2031-01-06T12:00:00Z');

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { text: string };
}
const mails = () => emailsOf<Mail>(sesUrl);
const escalationsOf = async (id: number) =>
  (await mails()).filter((m) => m.subject.startsWith('Caso atrasado') && m.body.text.includes(`/app/cases/${id}`));

/** A detractor's answer in `store`, its case opened by the opener at `at`: answers the case's (transaction's) id. */
async function openCase(at: Date, store = 1): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: store });
  const res = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment: 'Ninguém me atendeu' },
  });
  expect(res.status, res.text).toBe(201);
  await caseQueue.drain();
  expect(await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: at })).toBe('opened');
  return id;
}

/** The table's timers with a checkpoint of the test's own (the table's belongs to the local stack's release). */
function released(from: Date): DueStore<Timer> {
  let checkpoint: string | undefined = minuteOf(minutes(from, -1));
  return { ...dueTimers, checkpoint: async () => checkpoint, saveCheckpoint: async (m) => void (checkpoint = m) };
}

const getCase = (id: number) =>
  api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });

beforeAll(async () => {
  tenant = await newTenant();
  // Employee 1 works in store 1 and is in group 2: group 2 holds store 1. A regional manager's scope lists group 2.
  for (const [path, body] of [
    ['/employee/1/stores', { stores: [1] }],
    ['/employee/1/groups', { groups: [2] }],
  ] as const) {
    const res = await api({ method: 'PUT', path, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken }, body });
    expect(res.status, res.text).toBe(200);
  }
  regional = `regional-${randomUUID().slice(0, 8)}@loja.test`;
  everyStore = `diretoria-${randomUUID().slice(0, 8)}@loja.test`;
  await tenantService.createUser(tenant.tenantId, { name: regional, scope: { stores: [], groups: [2] } });
  await tenantService.createUser(tenant.tenantId, { name: everyStore, scope: 'all' });
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    email: { from: 'pesquisa@loja.test' },
    webhooks: [{ url: 'http://127.0.0.1:9/case-events' }],
  });
  const created = await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Loja Sem Equipe' } });
  quietStore = created.body.id;
});

describe('a case deadline', () => {
  it('fires in business hours, makes an open case overdue and escalates once to the users of the store’s groups, delivered twice at once', async () => {
    const id = await openCase(monday);
    // 24 business hours from Monday 09:00: Monday's 9, Tuesday's 9, then 6 on Wednesday, 15:00 in São Paulo.
    const due = new Date('2031-01-08T18:00:00Z');
    expect((await getCase(id)).body).toMatchObject({ status: 'open', due_at: due.toISOString(), overdue: false });

    // Twenty minutes before, the release leaves it waiting; once due, its minute is released (on time: no delay).
    const store = released(minutes(due, -30));
    await releaseDue(store, sendTimers, minutes(due, -20));
    expect(await deadlineQueue.drain()).toEqual([]);
    // Released timers stay until their TTL, so other tests' deadlines in this minute (the same 2031 clock) are
    // released with it: this tenant's is the one to follow.
    expect((await releaseDue(store, sendTimers, due)).released).toBeGreaterThanOrEqual(1);
    const fired = ((await deadlineQueue.drain()) as CaseDeadlineMessage[]).filter((m) => m.tenantId === tenant.tenantId);
    expect(fired).toEqual([{ version: 1, tenantId: tenant.tenantId, caseId: id, dueAt: due.toISOString() }]);

    // The same message twice, at once: one escalation.
    const outcomes = await Promise.all([checkCaseDeadline(fired[0]!, minutes(due, 1)), checkCaseDeadline(fired[0]!, minutes(due, 1))]);
    expect(outcomes.sort()).toEqual(['duplicate', 'escalated']);
    const escalations = await escalationsOf(id);
    expect(escalations).toHaveLength(1);
    expect(escalations[0]!.destination.to).toEqual([regional]);
    expect(escalations[0]!.body.text).toContain('Ninguém me atendeu');

    const seen = (await getCase(id)).body;
    expect(seen).toMatchObject({ status: 'open', overdue: true });
    const overdue = (await eventQueue.drain()).filter((d) => (d.event as { type: string }).type === 'case.overdue');
    expect(overdue.map((d) => (d.event as { data: { case_id: number; overdue: boolean } }).data)).toMatchObject([
      { case_id: id, overdue: true },
    ]);

    // Redelivered later through the consumer itself: nothing more.
    const again = await invoke('caseDeadlines', caseDeadlines, sqsEvent([fired[0]], { queue: 'CaseDeadlineQueue', receiveCount: 2 }));
    expect(again.batchItemFailures).toEqual([]);
    expect(await escalationsOf(id)).toHaveLength(1);
  });

  it('does nothing for a case resolved before its deadline', async () => {
    const id = await openCase(monday);
    const token = tenant.userToken;
    for (const body of [{ status: 'in_progress' }, { status: 'resolved', root_cause: 'Atendimento', note: 'Cliente atendido' }]) {
      const res = await api({
        method: 'PATCH',
        path: `/public/cases/${id}`,
        key: tenant.key,
        headers: { 'x-service-user-token': token, 'if-match': '*' },
        body,
      });
      expect(res.status, res.text).toBe(200);
    }
    const message = { version: 1 as const, tenantId: tenant.tenantId, caseId: id, dueAt: '2031-01-08T18:00:00.000Z' };
    expect(await checkCaseDeadline(message, new Date('2031-01-08T18:01:00Z'))).toBe('closed');
    expect(await escalationsOf(id)).toEqual([]);
    expect((await getCase(id)).body).toMatchObject({ status: 'resolved', overdue: false });
  });

  it("escalates to the users of every store when no user's groups hold the store", async () => {
    const id = await openCase(monday, quietStore);
    const message = { version: 1 as const, tenantId: tenant.tenantId, caseId: id, dueAt: '2031-01-08T18:00:00.000Z' };
    expect(await checkCaseDeadline(message, new Date('2031-01-08T18:00:30Z'))).toBe('escalated');
    const escalations = await escalationsOf(id);
    expect(escalations.map((m) => m.destination.to)).toEqual([[everyStore]]);
  });

  it('puts back a deadline that arrives early, until its time', async () => {
    const id = await openCase(monday);
    const message = { version: 1 as const, tenantId: tenant.tenantId, caseId: id, dueAt: '2031-01-08T18:00:00.000Z' };
    expect(await checkCaseDeadline(message, new Date('2031-01-08T17:50:00Z'))).toBe('early');
    expect(await deadlineQueue.drain()).toEqual([]); // delayed ten minutes on the queue
    expect((await getCase(id)).body.overdue).toBe(false);
    expect(await escalationsOf(id)).toEqual([]);
  });
});
