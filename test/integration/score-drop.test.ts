import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { dueTimersOf } from '../../shared/adapters/due-timers.js';
import { scoreDropRuns } from '../../shared/adapters/wiring/results.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { windowsOf } from '../../shared/results/score-drop.js';
import { nextCheckAt } from '../../shared/results/score-drop-schedule.js';
import { minuteOf } from '../../shared/timers/timers.js';
import { answerTally, merge } from '../../shared/results/tally.js';
import { inProcess } from '../support/api.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsTo } from '../support/mailbox.js';

/**
 * The score-drop alert (issue 49 §3) against DynamoDB Local and the local SES: a week of answers generated into the
 * stores' day counters, the daily check's timer parked by turning the alert on, its run fired twice on the same day.
 */
const api = inProcess('public');
const sesUrl = inject('sesUrl');
const outboxUrl = inject('outboxUrl');
/** Chat endpoints at the local outbox: one taking the score drops of both stores, one of the noisy store only. */
const chatAt = (name: string) => `${outboxUrl}/chat/${tenant.tenantId}-${name}`;
/** A Monday of 2031: the days checked are the week before it and the 28 days before that. */
const TODAY = '2031-03-10';
/** The day's run as its timer puts it on the queue: 07:00 in São Paulo (the demo tenant's zone). */
const RUN = { version: 1 as const, tenantId: 0, day: TODAY, dueAt: `${TODAY}T10:00:00.000Z` };
/** Puts the configuration back with these changes, as an admin does (so that every function reads it again). */
async function configure(change: { timeZone?: string; scoreDrop: boolean }) {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const body = {
    ...read.body,
    timeZone: change.timeZone ?? read.body.timeZone,
    alerts: {
      ...read.body.alerts,
      scoreDrop: change.scoreDrop,
      chat: [
        { kind: 'slack', url: chatAt('both'), events: ['score.drop'], stores: [worse, noisy] },
        { kind: 'slack', url: chatAt('noisy'), events: ['score.drop'], stores: [noisy] },
      ],
    },
  };
  return api({ method: 'PUT', path: '/public/admin/config', key: tenant.adminKey, body, headers: { 'if-match': read.headers.etag! } });
}
const parkedRuns = async (at: Date) =>
  (await dueTimersOf('scoreDrop').dueIn(minuteOf(at))).filter((run) => run.tenantId === tenant.tenantId);
let tenant: TestTenant;
let manager: string;
let worse: number;
let noisy: number;

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { text: string };
}
const chatTo = async (endpoint: string) =>
  (await outboxOf<{ channel: string; to: string; text: string }>(outboxUrl))
    .filter((m) => m.channel === 'chat' && `${outboxUrl}${m.to}` === endpoint)
    .map((m) => JSON.parse(m.text));
/** Waits (a quarter of a second between looks, at most 20 seconds) for the chat queue's poller to deliver. */
async function chatArrived(endpoint: string) {
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 250)))
    if ((await chatTo(endpoint)).length) break;
  return chatTo(endpoint);
}
const mailsTo = (address: string) => emailsTo<Mail>(sesUrl, address);

/** Each day of a period, these scores of journey 1 (loja, NPS) in the store, written to its counters a day at a time. */
async function answer(storeId: number, period: { from: string; to: string }, scores: number[]) {
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    const deltas = scores.flatMap((score) =>
      answerTally(
        { journeyId: 1, storeId, employeeId: 1 },
        { indicator: 'nps', score, items: [], answeredAt: `${day}T12:00:00Z`, sentOn: null },
      ),
    );
    await db().client.send(
      new TransactWriteCommand({ TransactItems: counterUpdates(tenant.tenantId, { journeyId: 1, deltas: merge(deltas) }, 0) }),
    );
  }
}

beforeAll(async () => {
  tenant = await newTenant();
  RUN.tenantId = tenant.tenantId;
  await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, alerts: { scoreDrop: false } });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.test' } });
  const store = async (name: string) =>
    (await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: name } })).body.id as number;
  [worse, noisy] = [await store('Loja Piorou'), await store('Loja Oscila')];
  manager = `gerente-${randomUUID().slice(0, 8)}@loja.test`;
  await tenantService.createUser(tenant.tenantId, { name: manager, scope: { stores: [worse, noisy], groups: [] } });
  const { recent, baseline } = windowsOf(TODAY);
  // Worse: four answers a day, promoters for 28 days, then a week of detractors.
  await answer(worse, baseline, [10, 9, 9, 8]);
  await answer(worse, recent, [3, 5, 8, 9]);
  // Within noise: the same mix throughout, one promoter fewer in the last week.
  await answer(noisy, baseline, [10, 9, 7, 5]);
  await answer(noisy, recent, [10, 8, 7, 5]);
});

describe('the score-drop alert', () => {
  it("turned on through PUT /public/admin/config parks the tenant's first daily check at 07:00 in its zone", async () => {
    // Prepare: a zone where it is now about 19:00, so that the next 07:00 is in the table, not on the queue.
    const offset = ((19 - new Date().getUTCHours() + 36) % 24) - 12;
    const timeZone = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;

    // Act
    const put = await configure({ timeZone, scoreDrop: true });

    // Assess
    expect(put.status, put.text).toBe(200);
    const dueAt = nextCheckAt(new Date(), timeZone);
    expect(await parkedRuns(dueAt)).toEqual([
      { version: 1, tenantId: tenant.tenantId, day: dueAt.toISOString().slice(0, 10), dueAt: dueAt.toISOString() },
    ]);
  });

  it('fires once for a store whose week is clearly worse, not for one within noise, not twice when run twice', async () => {
    // Prepare: the zone of the demo tenant again (the day's run is São Paulo's 07:00).
    expect((await configure({ timeZone: 'America/Sao_Paulo', scoreDrop: true })).status).toBe(200);

    // Act: the day's run, fired twice (the timer's message delivered again).
    const now = new Date(`${TODAY}T10:00:05Z`);
    const first = await scoreDropRuns.run(RUN, now);
    const second = await scoreDropRuns.run(RUN, now);

    // Assess
    expect(first).toEqual([worse]);
    expect(second).toEqual([]);
    const tomorrow = new Date(`${addDays(TODAY, 1)}T10:00:00.000Z`);
    expect(await parkedRuns(tomorrow)).toEqual([{ ...RUN, day: addDays(TODAY, 1), dueAt: tomorrow.toISOString() }]);
    const mails = await mailsTo(manager);
    expect(mails.map((m) => m.subject)).toEqual(['Queda além do acaso na Loja Piorou']);
    expect(mails[0]!.body.text).toContain('Loja: de 75 para -25');
    const [message, ...more] = await chatArrived(chatAt('both'));
    expect(more).toEqual([]);
    expect(message.text).toBe('Loja Piorou: nota caiu além do acaso');
    expect(message.blocks.slice(1)).toEqual([
      { type: 'section', text: { type: 'plain_text', text: 'Loja: de 75 para -25' } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Ver os resultados da semana' },
            url: expect.stringMatching(/\/app\/results\?from=2031-03-03&to=2031-03-09$/),
            style: 'primary',
          },
        ],
      },
    ]);
    expect(await chatTo(chatAt('noisy'))).toEqual([]);
  });

  it('stays silent, and lets its schedule lapse, once the tenant turns it off', async () => {
    expect((await configure({ scoreDrop: false })).status).toBe(200);
    const day = addDays(TODAY, 7);
    const run = { ...RUN, day, dueAt: `${day}T10:00:00.000Z` };
    expect(await scoreDropRuns.run(run, new Date(`${day}T10:00:05Z`))).toBe('off');
    expect(await parkedRuns(new Date(`${addDays(day, 1)}T10:00:00Z`))).toEqual([]);
  });
});
