import { randomUUID } from 'node:crypto';
import { db } from '../shared/adapters/dynamodb.js';
import { dueTimers } from '../shared/adapters/due-timers.js';
import { putDelivery } from '../shared/adapters/tenant-repository.js';
import { tenantService } from '../shared/adapters/wiring/tenants.js';
import { minuteOf, releaseDue, type DueStore, type Timer } from '../shared/timers/timers.js';
import { inProcess } from '../test/support/api.js';
import { registerSale } from '../test/support/sales.js';
import { newTenant } from '../test/support/tenant.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * What a case's deadline costs in DynamoDB: parking its timer, its release (per timer, a minute of `cases`), and the
 * check when it fires: on an open case (overdue and the escalation), delivered again, and on a case resolved before.
 * A clock of its own (2031) and a release checkpoint of its own, so the local stack's release never meets them.
 */
export async function deadlineCost({ cases = Number(process.env.BENCH_DEADLINE_CASES ?? 20) } = {}): Promise<string> {
  // The wiring reads its environment when it loads: the local stack has set it by now (npm run bench imports every
  // section before it starts the stack).
  const [{ checkCaseDeadline, caseOpener }, { caseDeadlineTimer, sendTimers }] = await Promise.all([
    import('../shared/adapters/wiring/cases.js'),
    import('../shared/adapters/wiring/timers.js'),
  ]);
  const api = inProcess('public', 300);
  const chatbot = inProcess('chatbot', 300);
  const tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.test' } });
  for (const [path, body] of [
    ['/employee/1/stores', { stores: [1] }],
    ['/employee/1/groups', { groups: [2] }],
  ] as const)
    await api({ method: 'PUT', path, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken }, body });
  await tenantService.createUser(tenant.tenantId, {
    name: `regional-${randomUUID().slice(0, 8)}@loja.test`,
    scope: { stores: [], groups: [2] },
  });

  // Monday 09:00 in São Paulo, 2031: every case is due Wednesday 15:00 (24 business hours).
  const opened = new Date('2031-01-06T12:00:00Z');
  const ids: number[] = [];
  for (let i = 0; i < cases; i++) {
    const id = await registerSale(api, tenant.key, {});
    await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: 1, classes: [] },
    });
    await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: opened });
    ids.push(id);
  }
  const due = new Date('2031-01-08T18:00:00Z');
  const message = (caseId: number) => ({ version: 1 as const, tenantId: tenant.tenantId, caseId, dueAt: due.toISOString() });

  const metered = meter(db().client);
  const measure = async (work: () => Promise<unknown>) => {
    metered.reset();
    await metered.run(work);
    return metered.totals();
  };
  const park = await measure(() => caseDeadlineTimer.schedule(message(ids[0]!), due, opened));
  // A run that releases one minute, the due one (its horizon), as each run does once it is caught up.
  let checkpoint = minuteOf(new Date(due.getTime() - 60_000));
  const store: DueStore<Timer> = { ...dueTimers, checkpoint: async () => checkpoint, saveCheckpoint: async (m) => void (checkpoint = m) };
  const release = await measure(() => releaseDue(store, sendTimers, new Date(due.getTime() - 10 * 60_000)));
  const outcomes: string[] = [];
  const check = (id: number, minutes: number) => async () =>
    outcomes.push(await checkCaseDeadline(message(id), new Date(due.getTime() + minutes * 60_000)));
  const escalated = await measure(check(ids[0]!, 1));
  const again = await measure(check(ids[0]!, 2));
  const token = tenant.userToken;
  for (const body of [{ status: 'in_progress' }, { status: 'resolved', root_cause: 'Atendimento', note: 'Cliente atendido' }]) {
    const res = await api({
      method: 'PATCH',
      path: `/public/cases/${ids[1]}`,
      key: tenant.key,
      headers: { 'x-service-user-token': token, 'if-match': '*' },
      body,
    });
    if (res.status !== 200) throw new Error(`A bench case update answered ${res.status}: ${res.text}`);
  }
  const resolved = await measure(check(ids[1]!, 1));
  metered.stop();
  if (outcomes.join() !== 'escalated,duplicate,closed') throw new Error(`The bench deadline checks answered ${outcomes.join()}`);

  const row = (what: string, m: { roundTrips: number; read: number; write: number }, per: number, floor: string) =>
    `| ${what} | ${(m.roundTrips / per).toFixed(2)} | ${(m.read / per).toFixed(2)} | ${(m.write / per).toFixed(2)} | $${((m.read * PRICES.readUnit + m.write * PRICES.writeUnit) / per).toFixed(2)} | ${floor} |`;
  return [
    '### What a case deadline costs (DynamoDB Local, ReturnConsumedCapacity)',
    '',
    `${cases} cases opened on a Monday, due together on the Wednesday (24 business hours); their timers released in one run (32 shards and the pre-shard partition of the minute), then the checks.`,
    '',
    '| what | round trips | read units | write units | $ per million | floor |',
    '|---|---:|---:|---:|---:|---|',
    row('parking the timer (when the case opens)', park, 1, '1 write unit: the timer item (under 1 KB)'),
    row(
      `the release, per timer (a minute of ${cases})`,
      release,
      cases,
      '1 write unit: its delete; reads shared by the minute (33 Queries, 0.5 read unit each at least, eventually consistent)',
    ),
    row(
      'the check, an open case: overdue and escalated',
      escalated,
      1,
      "9 round trips: read the case; its overdue write (the case item, its two list entries and the 8 result counter updates of its missed deadline); the claim; the users, the store's employee links and those employees (3 reads); the claim marked sent. The cases service's markOverdue reads the case again, and the store's and employee's names are 2 more reads",
    ),
    row(
      'the check delivered again',
      again,
      1,
      'read the case (overdue); the claim refused: a conditional write DynamoDB bills 1 write unit but reports none on its error, so it is not counted here',
    ),
    row('the check, a case resolved before its deadline', resolved, 1, 'read the case: 1 round trip, 1 read unit (strongly consistent)'),
  ].join('\n');
}
