import { batchWrite, db } from '../shared/adapters/dynamodb.js';
import { putSettings } from '../shared/adapters/tenant-repository.js';
import { commentAnalyser } from '../shared/adapters/wiring/themes.js';
import { keys } from '../shared/keys.js';
import { DEMO_SETTINGS, newTenant } from '../test/support/tenant.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * Amazon Comprehend's list prices (us-east-1, 2026-11): $0.0001 per unit of 100 characters for language detection,
 * sentiment and key phrases alike, each request billed at least 3 units.
 */
export const COMPREHEND = { unitPrice: 0.0001, unitCharacters: 100, minimumUnits: 3 } as const;

/**
 * What analysing a million comments may cost at most (issue 59): with Comprehend's sentiment (its one call, at least
 * $300 of it), and without (the tenant turned it off: the queue, Lambda's requests and DynamoDB alone).
 */
export const ANALYSIS_TARGETS = { withSentiment: 350, withoutSentiment: 10 } as const;

/** Comprehend's units of one request of `text`. */
export const comprehendUnits = (text: string): number =>
  Math.max(COMPREHEND.minimumUnits, Math.ceil(text.length / COMPREHEND.unitCharacters));

/** What the local Comprehend endpoint received (infra/local/comprehend.ts keeps every request). */
async function comprehendRequests(): Promise<{ operation: string; input: { Text?: string; TextList?: string[] } }[]> {
  const url = process.env.AWS_ENDPOINT_URL_COMPREHEND;
  if (!url) throw new Error('The comment analysis benchmark needs the local stack (AWS_ENDPOINT_URL_COMPREHEND)');
  return (await (await fetch(`${url}/requests`)).json()) as { operation: string; input: { Text?: string; TextList?: string[] } }[];
}

/** A comment's answer, stored as the survey page stores one, ready for its analysis. */
const answerItem = (tenantId: number, id: number, text: string) => ({
  PutRequest: {
    Item: {
      ...keys.transaction(tenantId, id),
      id,
      status: 'created',
      journey_id: 1,
      store_id: 1,
      employee_id: 1,
      customer_id: 1,
      answer_version: 1,
      answered_at: new Date().toISOString(),
      rating: { score: 3, comment: text },
      rating_items: [],
    },
  },
});

const COMMENTS: [label: string, text: string][] = [
  ['1 theme, 50 characters', 'A fila estava enorme, esperei 40 minutos na loja.'],
  [
    '2 themes, 150 characters',
    'O atendente foi muito educado e prestativo, mas o preço da maioria dos produtos subiu bastante desde o mês passado, não volto tão cedo.',
  ],
  [
    'no theme, 300 characters',
    `${'Comprei um presente para minha mãe e voltei para casa contente com a compra de hoje. '.repeat(3)}Obrigado!`.slice(0, 300),
  ],
];

/**
 * What analysing a million comments costs (issues 47 and 59), in both of a tenant's modes: each comment's analysis
 * through the analyser's function against DynamoDB Local (its round trips and the capacity DynamoDB reports) and the
 * local Comprehend endpoint (the calls it received, each priced by its text's units), the queue's requests (a send,
 * and a receive and a delete shared by a batch of 10) and the Lambda request (one per batch), beside its floor: one
 * GetItem and one TransactWriteItems (the answer's analysis, its counters and its list entries, all or nothing), and
 * with the sentiment one call of Comprehend's minimum 3 units. The language and key phrases are the service's own: no
 * call.
 */
export async function themesCost(): Promise<string> {
  const on = await newTenant();
  const off = await newTenant();
  await putSettings(off.tenantId, { ...DEMO_SETTINGS, commentAnalysis: { comprehendSentiment: false } });
  for (const tenant of [on, off])
    await batchWrite(
      db(),
      COMMENTS.map(([, text], i) => answerItem(tenant.tenantId, 800_000_000 + i, text)),
    );
  const metered = meter(db().client);
  const queue = PRICES.sqsRequest * 1.2 + PRICES.lambdaRequest / 10;
  const floorSentiment = COMPREHEND.minimumUnits * COMPREHEND.unitPrice * 1e6;
  const rows: string[] = [];
  const totals = { with: 0, without: 0 };
  for (const [i, [label]] of COMMENTS.entries()) {
    const measured = [];
    for (const tenant of [on, off]) {
      const before = (await comprehendRequests()).length;
      metered.reset();
      await metered.run(() => commentAnalyser.analyse(tenant.tenantId, 800_000_000 + i, 1));
      const { roundTrips, read, write } = metered.totals();
      const calls = (await comprehendRequests()).slice(before);
      const units = calls
        .flatMap((call) => call.input.TextList ?? [call.input.Text ?? ''])
        .reduce((sum, sent) => sum + comprehendUnits(sent), 0);
      const table = read * PRICES.readUnit + write * PRICES.writeUnit;
      measured.push({
        roundTrips,
        read,
        write,
        calls: calls.map((call) => call.operation),
        units,
        table,
        comprehend: units * COMPREHEND.unitPrice * 1e6,
      });
    }
    const [withIt, withoutIt] = measured as [(typeof measured)[number], (typeof measured)[number]];
    const total = (m: typeof withIt) => m.comprehend + queue + m.table;
    totals.with = Math.max(totals.with, total(withIt));
    totals.without = Math.max(totals.without, total(withoutIt));
    rows.push(
      `| ${label} | ${withIt.roundTrips} | 2 | ${withIt.read} | ${withIt.write} | ${withIt.calls.join(', ') || 'none'} (${withIt.units} units) | $${withIt.comprehend.toFixed(0)} | $${queue.toFixed(2)} | $${withIt.table.toFixed(2)} | $${total(withIt).toFixed(0)} | $${(floorSentiment + queue + withIt.table).toFixed(0)} | ${withoutIt.calls.join(', ') || 'none'} | $${total(withoutIt).toFixed(2)} | $${(queue + withoutIt.table).toFixed(2)} |`,
    );
  }
  metered.stop();
  return [
    '### Comment analysis, per million comments (issues 47 and 59)',
    '',
    `Comprehend $${COMPREHEND.unitPrice} per unit of ${COMPREHEND.unitCharacters} characters, at least ${COMPREHEND.minimumUnits} units a request, the requests the local endpoint received (the sentiment, unless the tenant turned it off: the language and key phrases are the service's own; three calls, $906, before issue 59); SQS $${PRICES.sqsRequest}/M (a send, a receive and a delete shared by 10); Lambda $${PRICES.lambdaRequest}/M requests, one per batch of 10 (duration not included); DynamoDB on-demand as above. Floor: one GetItem and one TransactWriteItems; with the sentiment, one request of Comprehend's minimum units.`,
    '',
    '| comment | round trips | floor | read units | write units | Comprehend calls | Comprehend $/M | queue and Lambda $/M | DynamoDB $/M | with sentiment $/M | its floor $/M | without: Comprehend calls | without sentiment $/M | its floor $/M |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows,
    '',
    `Targets (issue 59): with Comprehend's sentiment at most $${ANALYSIS_TARGETS.withSentiment} per million comments, **${totals.with <= ANALYSIS_TARGETS.withSentiment ? 'met' : 'missed'}** (highest $${totals.with.toFixed(0)}); without it under $${ANALYSIS_TARGETS.withoutSentiment}, **${totals.without < ANALYSIS_TARGETS.withoutSentiment ? 'met' : 'missed'}** (highest $${totals.without.toFixed(2)}).`,
  ].join('\n');
}
