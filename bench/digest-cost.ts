import { randomUUID } from 'node:crypto';
import { db } from '../shared/adapters/dynamodb.js';
import { putDelivery } from '../shared/adapters/tenant-repository.js';
import { tenantService } from '../shared/adapters/wiring/tenants.js';
import { digestDays } from '../shared/digest/figures.js';
import { newTenant } from '../test/support/tenant.js';
import { CHANNEL_PRICES, PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * What one user's digest costs in DynamoDB: the consumer's work for one message (the user, the claim, the figures'
 * reports and case pages in the user's scope, the claim marked sent), and the same message delivered again (a
 * duplicate). Over the demo configuration's 4 journeys, for a user of every store and a user of one store.
 */
export async function digestCost(): Promise<string> {
  // The wiring reads its environment when it loads: the local stack has set it by now.
  const { digestSending } = await import('../shared/adapters/wiring/digest.js');
  const tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'resumo@loja.test' } });
  const [all, one] = [`todas-${randomUUID().slice(0, 8)}@loja.test`, `uma-${randomUUID().slice(0, 8)}@loja.test`];
  await tenantService.createUser(tenant.tenantId, { name: all, scope: 'all' });
  await tenantService.createUser(tenant.tenantId, { name: one, scope: { stores: [1], groups: [1] } });
  const from = digestDays('week', new Date(), 'America/Sao_Paulo').from;
  const message = (user: string) => ({ version: 1 as const, tenantId: tenant.tenantId, period: 'week' as const, from, user });

  const metered = meter(db().client);
  const measure = async (work: () => Promise<unknown>) => {
    metered.reset();
    await metered.run(work);
    return metered.totals();
  };
  const outcomes: string[] = [];
  const handle = (user: string) => async () => outcomes.push(await digestSending.handle(message(user)));
  const sentAll = await measure(handle(all));
  const sentOne = await measure(handle(one));
  const again = await measure(handle(all));
  metered.stop();
  if (outcomes.join() !== 'sent,sent,duplicate') throw new Error(`The bench digests answered ${outcomes.join()}`);

  const email = CHANNEL_PRICES.find(([channel]) => channel === 'email')![2];
  const row = (what: string, m: { roundTrips: number; read: number; write: number }, floor: string, ses = 0) =>
    `| ${what} | ${m.roundTrips} | ${m.read.toFixed(2)} | ${m.write.toFixed(2)} | $${(m.read * PRICES.readUnit + m.write * PRICES.writeUnit + ses + PRICES.sqsRequest + PRICES.lambdaRequest / 10).toFixed(2)} | ${floor} |`;
  return [
    "### What one user's digest costs (DynamoDB Local, ReturnConsumedCapacity)",
    '',
    "One DigestQueue message handled in process: the demo configuration's 4 journeys, a week. $ per million digests: DynamoDB units, the SES e-mail ($100 per million), one SQS request, a tenth of a Lambda request (batches of 10).",
    '',
    '| what | round trips | read units | write units | $ per million | floor |',
    '|---|---:|---:|---:|---:|---|',
    row(
      'a digest, user of every store',
      sentAll,
      "49 round trips, each needed but 3: the user (2 reads: name, then token) and the claim; the settings (the version and its items: 2, read 5 times, the 3 extra reads its floor would not make); per journey the period's and the week before's counters, for the journey and by store (4 x 4 = 16 Queries); the open and the overdue cases (the tenant's 4 shards each: 8); this bench's week had no answers, so the 4 months before are read per journey for the last weeks that had some (4 x 4 = 16); the claim marked sent: 2 + 1 + 5 + 16 + 8 + 16 + 1 = 49, floor 46. Most Queries find nothing and are billed half a unit each. A week with answers reads each top theme's examples instead of the months before (3 at most)",
      email,
    ),
    row(
      'a digest, user of one store',
      sentOne,
      "the same, with the journeys' reports by employee in that store and the store's own case partition in place of the tenant's shards",
      email,
    ),
    row(
      'the same digest delivered again',
      again,
      'the user and the claim refused: a conditional write DynamoDB bills 1 write unit but reports none on its error',
    ),
  ].join('\n');
}
