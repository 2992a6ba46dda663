import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { lambdaContext } from '../infra/local/events.js';
import { createRouter, loadHandler } from '../infra/local/gateway.js';
import { routes } from '../infra/routes.js';
import { db } from '../shared/adapters/dynamodb.js';
import { sqs } from '../shared/adapters/sqs.js';
import { requireEnv } from '../shared/config.js';
import { SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { SYSTEM_LOG_LEVEL } from '../infra/constructs/service-function.js';
import { logger } from '../shared/logger.js';
import { QUEUES } from '../shared/queues.js';
import { prepare } from '../test/support/api.js';
import type { Fixture } from '../infra/examples.js';
import { consume } from '../test/support/queues.js';
import { messageFor, v2Payload } from '../test/support/transactions.js';
import { CHANNEL_PRICES, PRICES } from './cost.js';
import { isWithin, meter, within, type Call } from './metering.js';

/**
 * What one v2 transaction costs end to end at list prices, measured: POST /v2/transactions (API Gateway, its
 * Lambda, one SendMessage), the queue (the event source's receive and delete, per batch of 10), the consumer
 * (its Lambda per batch, its DynamoDB units, the survey dispatch message) and the log lines of both. The mix is the
 * issue's: half the transactions bring a new customer, the other entities exist. Lambda time is the handler's wall
 * time here, against DynamoDB Local and the local SQS server, which answer more slowly than DynamoDB and SQS: it is
 * an upper bound.
 */
const MEMORY_GB = 0.5;
/**
 * The customer fields a customer can be searched by, each through an entry of its own: the seed contract's customer
 * table marks name, email, phone, cpf and the external id searchable. The external id's entry is its guard item
 * (`GET /public/customer?external_id=` reads it), which also makes the id unique.
 */
const SEARCHABLE_FIELDS = ['externalId', 'name', 'email', 'phone', 'cpf'] as const;
const BATCHES = 10;
/** Lambda's own START, END and REPORT lines per invocation: none at the stack's system log level (WARN). */
const PLATFORM_LOG_BYTES = SYSTEM_LOG_LEVEL === SystemLogLevel.WARN ? 0 : 300;

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode?: number }>;

/**
 * Runs `work` with the logger at INFO and the metrics on, as deployed, and counts the bytes it writes; `lines` are
 * the lines it wrote.
 */
async function withLogBytes<T>(work: () => Promise<T>): Promise<{ result: T; bytes: number; lines: string[] }> {
  let bytes = 0;
  const lines: string[] = [];
  const token = {};
  const write = process.stdout.write.bind(process.stdout);
  // Only what `work` logs counts: the local stack's pollers log to the same stdout.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    if (isWithin(token)) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      lines.push(...String(chunk).split('\n').filter(Boolean));
    }
    return true;
  }) as typeof process.stdout.write;
  const level = logger.getLevelName();
  const metrics = process.env.POWERTOOLS_METRICS_DISABLED;
  logger.setLogLevel('INFO');
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  try {
    return { result: await within(token, work), bytes, lines };
  } finally {
    logger.setLogLevel(level);
    if (metrics === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = metrics;
    process.stdout.write = write;
  }
}

/** A line's bytes without its metrics: the batch's one line as it would be with no metric on it. */
function withoutMetrics(line: string): number {
  const parsed = JSON.parse(line) as Record<string, unknown> & { _aws?: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] } };
  const { _aws, ...rest } = parsed;
  for (const name of _aws?.CloudWatchMetrics.flatMap((d) => d.Metrics.map((m) => m.Name)) ?? []) delete rest[name];
  return Buffer.byteLength(`${JSON.stringify(rest)}\n`);
}

/** The customer's external id entry: a table item of its own, by which the id is found and kept unique. */
const GUARD = "the customer's client_id guard (its external id entry)";
/** What a table item is, by its partition key; what an index entry is, by its index. */
const TABLE_ITEMS: [RegExp, string][] = [
  [/#TX#/, 'the transaction'],
  [/#CUSTOMER#EXT#/, GUARD],
  [/#CUSTOMER#\d+$/, 'the customer'],
  [/#COUNTER$/, 'a block of customer ids'],
  [/#SURVEYS#/, "the batch's entry in the export's list of the day's surveys"],
];
const INDEX_ENTRIES: Record<string, string> = {
  gsi3: "the customer's name entry",
  gsi4: "the customer's external code entry",
  gsi5: "the customer's e-mail entry",
  gsi6: "the customer's phone entry",
  gsi7: "the customer's cpf entry",
  gsi8: "the transaction's entry in the customer's index",
  gsi9: "the transaction's expiry entry (a tenant's retention)",
  gsi15: "the transaction's entry in the analytics export's list of the day's surveys",
};

/** The write units of the metered calls by what they wrote, per transaction. */
function writesByWhat(calls: Call[], transactions: number): [string, number][] {
  const units = new Map<string, number>();
  const add = (what: string, n: number) => units.set(what, (units.get(what) ?? 0) + n);
  for (const call of calls.filter((c) => c.write > 0)) {
    const where = call.where ?? { table: call.write };
    for (const [place, n] of Object.entries(where)) {
      if (place !== 'table') add(INDEX_ENTRIES[place] ?? `an entry in ${place}`, n);
      else add(TABLE_ITEMS.find(([pattern]) => pattern.test(call.pk ?? ''))?.[1] ?? `${call.command} ${call.pk ?? ''}`.trim(), n);
    }
  }
  return [...units].map(([what, n]): [string, number] => [what, n / transactions]).sort((a, b) => b[1] - a[1]);
}

/** Waits until a queue holds no message, visible or in flight (at most 60 s). */
async function drained(queueUrl: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const { Attributes: a } = await sqs().send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    if (Number(a?.ApproximateNumberOfMessages) === 0 && Number(a?.ApproximateNumberOfMessagesNotVisible) === 0) return;
  }
  throw new Error('The transaction queue did not drain in 60 s');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function endToEnd(f: Fixture): Promise<string> {
  const route = routes.find((r) => r.operationId === 'postV2Transaction')!;
  const api = (await loadHandler(route.handler)) as Handler;
  const router = createRouter('public');
  const known = { externalId: f.clientId };

  // The API side: the handler's time and log bytes per request.
  const apiEvent = (payload: Record<string, unknown>) => {
    const { url, headers, body } = prepare({ method: 'POST', path: '/v2/transactions', key: f.key, body: payload });
    const { event } = router('POST', new URL(url, 'http://localhost'), { headers, body })!;
    event.requestContext.authorizer = { lambda: { authenticated: true, tenantId: f.tenantId, scope: 'public' } } as never;
    return event;
  };
  const apiTimes: number[] = [];
  // Messages sent, by queue: the poller of the local stack sends too, so only the queue each side sends to counts.
  const sent = new Map<string, number>();
  const countSends = `count-sends-${randomUUID()}`;
  sqs().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { QueueUrl?: string; Entries?: unknown[] };
      sent.set(String(input.QueueUrl), (sent.get(String(input.QueueUrl)) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: countSends },
  );
  const [transactionQueue, dispatchQueue] = [requireEnv(QUEUES.transactions.urlEnv), requireEnv(QUEUES.surveyDispatch.urlEnv)];
  const apiLogs = await withLogBytes(async () => {
    for (let i = 0; i < BATCHES * 10; i++) {
      const t = performance.now();
      const res = await api(apiEvent(v2Payload(i % 2 ? { customer: known } : {})), lambdaContext(route.operationId));
      apiTimes.push(performance.now() - t);
      if (res.statusCode !== 201) throw new Error(`postV2Transaction answered ${res.statusCode}`);
    }
  });
  const apiSends = (sent.get(transactionQueue) ?? 0) / (BATCHES * 10);
  // The local stack's poller consumes what the API sent: let it finish, so that the consumer's figures are its own.
  await drained(transactionQueue);

  // The consumer side, on messages of its own.
  sent.clear();
  const metered = meter(db().client, { byIndex: true });
  const batchTimes: number[] = [];
  const consumerLogs = await withLogBytes(() =>
    metered.run(async () => {
      for (let b = 0; b < BATCHES; b++) {
        const messages = Array.from({ length: 10 }, (_, i) => messageFor(f.tenantId, v2Payload(i % 2 ? { customer: known } : {})));
        const t = performance.now();
        const { failed } = await consume(messages);
        batchTimes.push(performance.now() - t);
        if (failed.length) throw new Error(`${failed.length} records failed`);
      }
    }),
  );
  metered.stop();
  sqs().middlewareStack.remove(countSends);
  const transactions = BATCHES * 10;
  const { read, write } = metered.totals();
  const perTx = { read: read / transactions, write: write / transactions, dispatch: (sent.get(dispatchQueue) ?? 0) / transactions };
  const apiMs = Math.ceil(median(apiTimes));
  const batchMs = Math.ceil(median(batchTimes));
  const lambdaSeconds = (ms: number) => (ms / 1000) * MEMORY_GB * PRICES.lambdaGbSecond;
  const logBytes = (apiLogs.bytes + consumerLogs.bytes) / transactions + PLATFORM_LOG_BYTES * (1 + 1 / 10);

  // The design's floor for the same mix: the same requests and Lambda time, and only the writes the data needs.
  const newShare = 0.5;
  const searchable = SEARCHABLE_FIELDS.filter((field) => (v2Payload().customer as Record<string, unknown>)[field] != null);
  // The transaction and its entry in the customer's keys-only index of transactions (privacy exports and erasures).
  const floorWrites = 2 + newShare * (1 + searchable.length);
  const entryOf: Record<(typeof SEARCHABLE_FIELDS)[number], string> = {
    externalId: GUARD,
    name: INDEX_ENTRIES.gsi3!,
    email: INDEX_ENTRIES.gsi5!,
    phone: INDEX_ENTRIES.gsi6!,
    cpf: INDEX_ENTRIES.gsi7!,
  };
  const floorOf: Record<string, number> = {
    'the transaction': 1,
    [INDEX_ENTRIES.gsi8!]: 1,
    'the customer': newShare,
    ...Object.fromEntries(searchable.map((field) => [entryOf[field], newShare])),
  };
  const writes = writesByWhat(metered.calls, transactions);
  // One INFO line per batch, the consumer's own, as it would be without its metrics.
  const batchLines = consumerLogs.lines.filter((line) => (JSON.parse(line) as { message?: unknown }).message === 'Transaction batch');
  const floorLogBytes = batchLines.reduce((sum, line) => sum + withoutMetrics(line), 0) / transactions;

  const lines: [string, string, number, number][] = [
    ['API Gateway HTTP API', '1 request', PRICES.httpApiRequest, PRICES.httpApiRequest],
    [
      'Lambda postV2Transaction',
      `1 request, ${apiMs} ms × ${MEMORY_GB * 1024} MB`,
      PRICES.lambdaRequest + lambdaSeconds(apiMs),
      PRICES.lambdaRequest + lambdaSeconds(apiMs),
    ],
    [
      'SQS TransactionQueue',
      `${apiSends.toFixed(2)} SendMessage, a receive and a delete per batch of 10`,
      (apiSends + 2 / 10) * PRICES.sqsRequest,
      (1 + 2 / 10) * PRICES.sqsRequest,
    ],
    [
      'Lambda transactionConsumer',
      `1/10 request, ${batchMs} ms per batch × ${MEMORY_GB * 1024} MB / 10`,
      PRICES.lambdaRequest / 10 + lambdaSeconds(batchMs) / 10,
      PRICES.lambdaRequest / 10 + lambdaSeconds(batchMs) / 10,
    ],
    [
      'DynamoDB',
      `${perTx.read.toFixed(2)} read units, ${perTx.write.toFixed(2)} write units (floor: ${floorWrites.toFixed(2)} write units)`,
      perTx.read * PRICES.readUnit + perTx.write * PRICES.writeUnit,
      floorWrites * PRICES.writeUnit,
    ],
    [
      'SQS SurveyDispatchQueue',
      `${perTx.dispatch.toFixed(2)} requests (surveys scheduled)`,
      perTx.dispatch * PRICES.sqsRequest,
      (1 / 10) * PRICES.sqsRequest,
    ],
    [
      'CloudWatch Logs',
      `${logBytes.toFixed(0)} bytes ingested: the API ${(apiLogs.bytes / transactions).toFixed(0)}, the consumer ${(consumerLogs.bytes / transactions).toFixed(0)} (${(consumerLogs.lines.length / BATCHES).toFixed(1)} lines a batch) (floor: one line a batch without metrics, ${floorLogBytes.toFixed(0)} bytes; target: at most $0.05)`,
      (logBytes / 1024 ** 3) * PRICES.logIngestionGb * 1e6,
      (floorLogBytes / 1024 ** 3) * PRICES.logIngestionGb * 1e6,
    ],
  ];
  const total = lines.reduce((sum, [, , price]) => sum + price, 0);
  const floor = lines.reduce((sum, [, , , price]) => sum + price, 0);
  return [
    `### One v2 transaction end to end (${transactions} transactions, half with a new customer; list prices, us-east-1, arm64)`,
    '',
    '| part | per transaction | $ per million | floor $ per million | ratio |',
    '|---|---|---:|---:|---:|',
    ...lines.map(
      ([part, what, price, least]) => `| ${part} | ${what} | $${price.toFixed(2)} | $${least.toFixed(2)} | ${(price / least).toFixed(2)} |`,
    ),
    `| **total** | | **$${total.toFixed(2)}** | **$${floor.toFixed(2)}** | **${(total / floor).toFixed(2)}** |`,
    '',
    `The floor is this design's least for the same mix: the same requests and Lambda time, one SendMessage, one`,
    `dispatch request per batch, one log line per batch, and only the writes the data needs: the transaction and its`,
    `entry in the customer's index of transactions (which an erasure must reach), and for a new customer the customer`,
    `and one entry per searchable field it carries (${searchable.map((field) => (field === 'externalId' ? 'external id' : field)).join(', ')}: the seed contract's customer table), with no`,
    `reads. Target: total at most 1.1 × the floor; logs at most $0.05 per million. Lambda time is the median handler`,
    `time measured here against DynamoDB Local (an upper bound); Lambda at $${PRICES.lambdaGbSecond} per million`,
    `GB-seconds, logs at $${PRICES.logIngestionGb} per GB.`,
    '',
    "Its write units by what they wrote (DynamoDB's ConsumedCapacity by table and index), beside the floor's:",
    '',
    '| what | write units per transaction | floor | $ per million over the floor |',
    '|---|---:|---:|---:|',
    ...writes.map(
      ([what, units]) =>
        `| ${what} | ${units.toFixed(2)} | ${(floorOf[what] ?? 0).toFixed(2)} | $${((units - (floorOf[what] ?? 0)) * PRICES.writeUnit).toFixed(2)} |`,
    ),
    '',
    'Each survey then sent adds its channel (dispatcher: one receive and delete per batch, one conditional write to claim, one to mark sent):',
    '',
    '| channel | list price | $ per million surveys |',
    '|---|---|---:|',
    ...CHANNEL_PRICES.map(([channel, basis, price]) => `| ${channel} | ${basis} | $${price.toLocaleString('en-US')} |`),
  ].join('\n');
}
