import { db } from '../shared/adapters/dynamodb.js';
import { putSettings, raiseConfigVersion } from '../shared/adapters/tenant-repository.js';
import { tenantEvent } from '../shared/events/events.js';
import type { ChatDelivery } from '../shared/chat/ports.js';
import { DEMO_SETTINGS, newTenant } from '../test/support/tenant.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * What a chat alert costs: the fan-out when the case event is published (the settings cached: no table), and each
 * message's delivery to a Slack and a Teams endpoint at the local outbox, and delivered again.
 */
export async function chatCost(outboxUrl: string, { messages = Number(process.env.BENCH_CHAT_MESSAGES ?? 20) } = {}): Promise<string> {
  // The wiring reads its environment when it loads: the local stack has set it by now.
  const [{ chatPorts }, { deliverChat }] = await Promise.all([
    import('../shared/adapters/wiring/chat.js'),
    import('../shared/chat/delivery.js'),
  ]);
  const tenant = await newTenant();
  const [plain, teams] = [`${outboxUrl}/chat/bench-slack`, `${outboxUrl}/chat/bench-teams`];
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    alerts: {
      scoreDrop: false,
      chat: [
        { kind: 'slack', url: plain, events: ['case.opened'], comment: false },
        { kind: 'teams', url: teams, events: ['case.opened'], comment: false },
      ],
    },
  });
  // A new version, so that the settings the tenant's creation cached are read again.
  await raiseConfigVersion(tenant.tenantId);
  const delivery = (i: number, url: string): ChatDelivery => ({
    tenantId: tenant.tenantId,
    url,
    event: {
      ...tenantEvent(tenant.tenantId, {
        type: 'case.opened',
        subject: `bench-${i}`,
        data: { case_id: 1, store_id: 1, employee_id: 1, score: 2 },
        at: new Date(),
      }),
      type: 'case.opened',
    },
    attempt: 1,
  });
  // Warm: the settings cached, as a warm consumer holds them.
  await deliverChat(delivery(-1, plain), chatPorts);

  const metered = meter(db().client);
  const measure = async (url: string, offset: number) => {
    metered.reset();
    const outcomes = await metered.run(async () => {
      const all: string[] = [];
      for (let i = 0; i < messages; i++) all.push(await deliverChat(delivery(offset + i, url), chatPorts));
      return all;
    });
    return { outcomes, ...metered.totals() };
  };
  const sent = await measure(plain, 0);
  const card = await measure(teams, 0);
  const again = await measure(plain, 0);
  metered.stop();
  const expected = (outcome: string, m: { outcomes: string[] }) => {
    if (m.outcomes.some((o) => o !== outcome)) throw new Error(`The bench chat deliveries answered ${m.outcomes.join()}`);
  };
  expected('delivered', sent);
  expected('delivered', card);
  expected('duplicate', again);

  // Each message: one SQS send (in a batch of up to 10 at the fan-out: counted whole), a receive and a delete.
  const sqs = 3 * PRICES.sqsRequest + PRICES.lambdaRequest / 10;
  const row = (what: string, m: { roundTrips: number; read: number; write: number }, floor: string) =>
    `| ${what} | ${(m.roundTrips / messages).toFixed(2)} | ${(m.read / messages).toFixed(2)} | ${(m.write / messages).toFixed(2)} | $${((m.read * PRICES.readUnit + m.write * PRICES.writeUnit) / messages + sqs).toFixed(2)} | ${floor} |`;
  return [
    '### What a chat alert costs (DynamoDB Local, ReturnConsumedCapacity)',
    '',
    `${messages} case.opened messages to one endpoint at the local outbox; the settings cached (a warm consumer). The price adds SQS (send, receive, delete: $${(3 * PRICES.sqsRequest).toFixed(2)}/M) and a tenth of a Lambda request (batches of 10); Lambda duration not included.`,
    '',
    '| what | round trips | read units | write units | $ per million | floor |',
    '|---|---:|---:|---:|---:|---|',
    row(
      'a message, Slack',
      sent,
      "5 round trips: the configuration version's check (1 read unit, strongly consistent), the endpoint's 404/410 count (0.5 read unit, eventually consistent), the store's and the employee's names, the claim (1 write unit). Measured 6: the version is checked twice (the endpoint, then the words)",
    ),
    row('a message, Teams', card, 'the same 5 (an endpoint that shows the comment reads the case too: 1 more round trip)'),
    row(
      'the same message delivered again',
      again,
      'the same reads; the claim refused (billed 1 write unit, reported as none on its error); nothing posted',
    ),
  ].join('\n');
}
