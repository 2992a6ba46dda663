import { batchWrite, db } from '../shared/adapters/dynamodb.js';
import { commentAnalyser } from '../shared/adapters/wiring/themes.js';
import { keys } from '../shared/keys.js';
import { newTenant } from '../test/support/tenant.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/**
 * Amazon Comprehend's list prices (us-east-1, 2026-11): $0.0001 per unit of 100 characters for language detection,
 * sentiment and key phrases alike, each request billed at least 3 units.
 */
export const COMPREHEND = { unitPrice: 0.0001, unitCharacters: 100, minimumUnits: 3, calls: 3 } as const;

/** Comprehend's units of one request of `text`. */
export const comprehendUnits = (text: string): number =>
  Math.max(COMPREHEND.minimumUnits, Math.ceil(text.length / COMPREHEND.unitCharacters));

/**
 * What analysing a million comments costs (issue 47): each comment's analysis through the analyser's function against
 * DynamoDB Local (its round trips and the capacity DynamoDB reports), Comprehend's three calls priced by the comment's
 * length, the queue's requests (a send, and a receive and a delete shared by a batch of 10) and the Lambda request (one
 * per batch), beside its floor: one GetItem and one TransactWriteItems (the answer's analysis, its counters and its list
 * entries, all or nothing), and Comprehend's minimum of 3 units for each call.
 */
export async function themesCost(): Promise<string> {
  const tenant = await newTenant();
  const comments: [label: string, text: string][] = [
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
  await batchWrite(
    db(),
    comments.map(([, text], i) => ({
      PutRequest: {
        Item: {
          ...keys.transaction(tenant.tenantId, 800_000_000 + i),
          id: 800_000_000 + i,
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
    })),
  );
  const metered = meter(db().client);
  const rows: string[] = [];
  for (const [i, [label, text]] of comments.entries()) {
    metered.reset();
    await metered.run(() => commentAnalyser.analyse(tenant.tenantId, 800_000_000 + i, 1));
    const { roundTrips, read, write } = metered.totals();
    const units = comprehendUnits(text);
    const comprehend = COMPREHEND.calls * units * COMPREHEND.unitPrice * 1e6;
    const floorComprehend = COMPREHEND.calls * COMPREHEND.minimumUnits * COMPREHEND.unitPrice * 1e6;
    const queue = PRICES.sqsRequest * 1.2 + PRICES.lambdaRequest / 10;
    const table = read * PRICES.readUnit + write * PRICES.writeUnit;
    rows.push(
      `| ${label} | ${roundTrips} | 2 | ${read} | ${write} | ${units} × ${COMPREHEND.calls} | $${comprehend.toFixed(0)} | $${floorComprehend.toFixed(0)} | $${queue.toFixed(2)} | $${table.toFixed(2)} | $${(comprehend + queue + table).toFixed(0)} |`,
    );
  }
  metered.stop();
  return [
    '### Comment analysis, per million comments (issue 47)',
    '',
    `Comprehend $${COMPREHEND.unitPrice} per unit of ${COMPREHEND.unitCharacters} characters, at least ${COMPREHEND.minimumUnits} units a request, ${COMPREHEND.calls} requests a comment (language, sentiment, key phrases); SQS $${PRICES.sqsRequest}/M (a send, a receive and a delete shared by 10); Lambda $${PRICES.lambdaRequest}/M requests, one per batch of 10 (duration not included); DynamoDB on-demand as above. Floor: one GetItem and one TransactWriteItems; Comprehend's minimum units.`,
    '',
    '| comment | round trips | floor | read units | write units | Comprehend units | Comprehend $/M | its floor $/M | queue and Lambda $/M | DynamoDB $/M | total $/M |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
