import * as dynamodb from '@aws-sdk/client-dynamodb';
import { db } from '../shared/adapters/dynamodb.js';
import { CHANNEL_PRICES, PRICES } from './cost.js';
import { CountingTable, type Units } from './scale/counting-table.js';
import { hourlyRates, LARGE_TENANT, type DayShape } from './scale/day.js';
import { simulate, type Counts } from './scale/simulate.js';

/** DynamoDB's limits per partition, per second. */
export const PARTITION_LIMITS = { write: 1_000, read: 3_000 };
/** The issue's bound: no key above this share of a partition's limit at the peak. */
export const HOT_SHARE = 0.1;

export interface HotKey {
  partition: string;
  write: number;
  read: number;
  /** The larger of its write and read shares of the partition limits. */
  share: number;
}

/** Each partition's highest write and read units in any one second of the window, hottest first. */
export function hottest(table: CountingTable): HotKey[] {
  const peaks = new Map<string, Units>();
  for (const second of table.perSecond.values())
    for (const [partition, units] of second) {
      const peak = peaks.get(partition) ?? peaks.set(partition, { read: 0, write: 0 }).get(partition)!;
      peak.write = Math.max(peak.write, units.write);
      peak.read = Math.max(peak.read, units.read);
    }
  return [...peaks]
    .map(([partition, { write, read }]) => ({
      partition,
      write,
      read,
      share: Math.max(write / PARTITION_LIMITS.write, read / PARTITION_LIMITS.read),
    }))
    .sort((a, b) => b.share - a.share);
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const money = (usd: number) => `$${Math.round(usd).toLocaleString('en-US')}`;
const round = (value: number) => Math.round(value * 10) / 10;

/** Assumed Lambda time per invocation on AWS (512 MB, arm64), from the local measurements of bench/end-to-end.ts, rounded up. */
const LAMBDA_MS = { api: 15, consumerBatch: 150, dispatcherBatch: 400, surveyPage: 30, schedulerRun: 2_000 };
const LAMBDA_GB = 0.5;

/** Daily volumes of the tenant, from its shape. */
function daily(shape: DayShape) {
  const transactions = shape.transactionsPerDay;
  const sent = transactions * (1 - shape.unreachableShare);
  const answers = sent * shape.responseRate;
  const byChannel = new Map<string, number>();
  let reminders = 0;
  for (const journey of shape.journeys) {
    const first = journey.attempts[0]!.channel;
    byChannel.set(first, (byChannel.get(first) ?? 0) + sent * journey.share);
    const second = journey.attempts[1];
    if (second) {
      const reminded = sent * journey.share * (1 - shape.responseRate);
      reminders += reminded;
      byChannel.set(second.channel, (byChannel.get(second.channel) ?? 0) + reminded);
    }
  }
  return { transactions, sent, answers, reminders, byChannel };
}

/**
 * A month of the tenant on AWS, part by part, at us-east-1 list prices (bench/cost.ts, 2026-11), beside the floor: the
 * requests no design avoids (one API request and one Lambda invocation per transaction, a queue message per survey,
 * the provider's message), and of DynamoDB only the writes of the items themselves (transactions and customers:
 * no index entry, guard, counter or read).
 */
function monthCost(shape: DayShape, table: CountingTable, counts: Counts) {
  const day = daily(shape);
  const month = (perDay: number) => perDay * 30;
  const perEvent = (flow: string, events: number) => {
    const units = table.byFlow.get(flow) ?? { read: 0, write: 0, floor: 0 };
    return events
      ? { read: units.read / events, write: units.write / events, floor: units.floor / events }
      : { read: 0, write: 0, floor: 0 };
  };
  const flows = [
    ['sale request', perEvent('sale request', counts.saleRequests), day.transactions],
    ['register', perEvent('register', counts.transactions), day.transactions],
    ['first send', perEvent('first send', counts.firstSends), day.sent],
    ['reminder send', perEvent('reminder send', counts.reminderSends), day.reminders],
    ['answer', perEvent('answer', counts.answers), day.answers],
    ['release', perEvent('release', counts.released), day.reminders],
    ['case', perEvent('case', counts.cases), counts.answers ? (day.answers * counts.cases) / counts.answers : 0],
  ] as const;
  const dynamo = flows.reduce(
    (sum, [, units, events]) => sum + (month(events) * (units.write * PRICES.writeUnit + units.read * PRICES.readUnit)) / 1e6,
    0,
  );
  const dynamoFloor = flows.reduce((sum, [, units, events]) => sum + (month(events) * units.floor * PRICES.writeUnit) / 1e6, 0);
  const pages = 2 * day.answers;
  const apiRequests = day.transactions + pages;
  const invocations = day.transactions + day.transactions / 10 + (day.sent + day.reminders) / 10 + pages + 1_440;
  const gbSeconds =
    (LAMBDA_GB / 1000) *
    (day.transactions * LAMBDA_MS.api +
      (day.transactions / 10) * LAMBDA_MS.consumerBatch +
      ((day.sent + day.reminders) / 10) * LAMBDA_MS.dispatcherBatch +
      pages * LAMBDA_MS.surveyPage +
      1_440 * LAMBDA_MS.schedulerRun);
  const floorGbSeconds = (LAMBDA_GB / 1000) * (day.transactions * LAMBDA_MS.api + pages * LAMBDA_MS.surveyPage);
  // Each message: one send, and per batch of ten one receive and one delete; later attempts are sent again (delayed).
  const sqsRequests = (messages: number) => messages + (2 * messages) / 10;
  const sqs = sqsRequests(day.transactions + day.sent + day.reminders * 2);
  const sqsFloor = sqsRequests(day.transactions + day.sent + day.reminders);
  // One INFO line of about 200 bytes per batch (bench/end-to-end.ts measures 39 bytes per transaction).
  const logGb = ((day.transactions / 10 + (day.sent + day.reminders) / 10) * 200) / 1e9;
  const channel = (name: string) => CHANNEL_PRICES.find(([channel]) => channel === name)![2] / 1e6;
  const channels = [...day.byChannel].map(([name, count]) => [name, month(count), month(count) * channel(name)] as const);
  const rows: [string, string, number, number][] = [
    [
      'API Gateway (HTTP API)',
      `${round(month(apiRequests) / 1e6)} M requests: each transaction, each survey page shown and posted`,
      (month(apiRequests) * PRICES.httpApiRequest) / 1e6,
      (month(apiRequests) * PRICES.httpApiRequest) / 1e6,
    ],
    [
      'Lambda',
      `${round(month(invocations) / 1e6)} M invocations, ${Math.round(month(gbSeconds) / 1e3)} k GB-s (512 MB; ${Object.entries(LAMBDA_MS)
        .map(([k, v]) => `${k} ${v} ms`)
        .join(', ')})`,
      (month(invocations) * PRICES.lambdaRequest + month(gbSeconds) * PRICES.lambdaGbSecond) / 1e6,
      (month(day.transactions + pages) * PRICES.lambdaRequest + month(floorGbSeconds) * PRICES.lambdaGbSecond) / 1e6,
    ],
    [
      'SQS',
      `${round(month(sqs) / 1e6)} M requests (transactions, dispatch, reminders re-queued)`,
      (month(sqs) * PRICES.sqsRequest) / 1e6,
      (month(sqsFloor) * PRICES.sqsRequest) / 1e6,
    ],
    ['DynamoDB (on demand)', "the units each flow took in the simulation, per event, times the month's events", dynamo, dynamoFloor],
    ['CloudWatch Logs', `${round(month(logGb))} GB ingested (one line per batch at INFO)`, month(logGb) * PRICES.logIngestionGb, 0],
  ];
  const service = rows.reduce((sum, row) => sum + row[2], 0);
  const serviceFloor = rows.reduce((sum, row) => sum + row[3], 0);
  const messaging = channels.reduce((sum, [, , usd]) => sum + usd, 0);
  return { rows, channels, service, serviceFloor, messaging, day, flows };
}

/** Runs the simulation in this process: from here on the process's table client answers from the counting table. */
export async function scaleSimulation(options: { shape?: DayShape; windowSeconds?: number; record?: boolean; releases?: boolean } = {}) {
  const shape = options.shape ?? LARGE_TENANT;
  const table = new CountingTable();
  table.recording = options.record ?? false;
  table.install(db().client);
  const counts = await simulate(table, shape, options.windowSeconds ?? 10, { releases: options.releases ?? true });
  return { table, counts, shape, hot: hottest(table) };
}

/** The section's tables: the hottest keys at the peak, the GSI partitions likewise, and the month's cost. */
export function scaleReport({ table, counts, shape, hot }: Awaited<ReturnType<typeof scaleSimulation>>, windowSeconds: number): string {
  const peakRate = Math.max(...hourlyRates(shape));
  const row = (key: HotKey & { count: number }) =>
    `| \`${key.partition.replace(' ', '` | `')}\` | ${key.count.toLocaleString('en-US')} | ${round(key.write)} | ${percent(key.write / PARTITION_LIMITS.write)} | ${round(key.read)} | ${percent(key.read / PARTITION_LIMITS.read)} |`;
  const header = [
    '| index | partition key (N: any number) | partitions | write units/s | of 1,000 | read units/s | of 3,000 |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  // One row per family of partitions (shards, stores, transactions...: the key with its last number as N), its hottest.
  const families = new Map<string, HotKey & { count: number }>();
  for (const key of hot) {
    const family = key.partition.replace(/#\d+$/, '#N');
    const known = families.get(family);
    if (known) known.count++;
    else families.set(family, { ...key, partition: family, count: 1 });
  }
  const tableKeys = [...families.values()].filter((key) => key.partition.startsWith('table ')).slice(0, 12);
  const indexKeys = [...families.values()].filter((key) => !key.partition.startsWith('table ')).slice(0, 10);
  // The keys once found hot and taken off since, shown wherever they fall: the configuration version and its copies,
  // the due minutes (parking and the release), the API keys the HTTP wrapper reads again.
  const watched = [...families.values()].filter((key) => /^table (T#\d+#CONFIG\b|DUE#|APIKEY#)/.test(key.partition));
  const worst = hot[0]!;
  const cost = monthCost(shape, table, counts);
  const total = cost.service + cost.messaging;
  const perSurvey = total / (30 * (cost.day.sent + cost.day.reminders));
  const perAnswer = total / (30 * cost.day.answers);
  return [
    `### Scale: a tenant with ${(shape.transactionsPerDay / 1e6).toLocaleString('en-US')} million transactions a day at its peak (simulated)`,
    '',
    `${shape.stores.toLocaleString('en-US')} stores, ${(shape.stores * shape.employeesPerStore).toLocaleString('en-US')} employees, ${shape.journeys.length} journeys (${shape.journeys.map((j) => `${j.slug} ${j.share * 100}%, resultShards ${j.resultShards}`).join('; ')}), a peak hour at ${shape.peakFactor}x the average (${Math.round(peakRate)} transactions a second), ${shape.responseRate * 100}% answered, reminders parked and released, retention ${shape.retentionDays ?? 'none'}. ${windowSeconds} s from the 40th minute of the peak hour played through the adapters over the counting table (bench/scale/counting-table.ts): ${counts.transactions.toLocaleString('en-US')} transactions (${counts.newCustomers.toLocaleString('en-US')} new customers), ${counts.firstSends.toLocaleString('en-US')} first sends, ${counts.reminderSends.toLocaleString('en-US')} reminders sent, ${counts.parked.toLocaleString('en-US')} parked, ${counts.released.toLocaleString('en-US')} released, ${counts.answers.toLocaleString('en-US')} answers, ${counts.cases.toLocaleString('en-US')} cases opened; ${counts.commands.toLocaleString('en-US')} DynamoDB commands. Each family's hottest partition in its highest second; transactional writes at 2 units per KB. The scheduler's release is counted in the second of its run (it reads a minute's timers and moves its checkpoint; the timers' TTL removes them, no delete).`,
    '',
    `**Hottest key: ${percent(worst.share)} of a partition's limit** (\`${worst.partition}\`); target at most ${percent(HOT_SHARE)}: **${worst.share <= HOT_SHARE ? 'met' : 'missed'}**.`,
    '',
    'Table partitions:',
    '',
    ...header,
    ...tableKeys.map(row),
    '',
    'Keys once hot (the configuration version and its copies, the due minutes, API keys), wherever they fall:',
    '',
    ...header,
    ...watched.map(row),
    '',
    'Index partitions:',
    '',
    ...header,
    ...indexKeys.map(row),
    '',
    `A month of this tenant on AWS (us-east-1 list prices of bench/cost.ts, written down 2026-11; ${(cost.day.transactions / 1e6).toFixed(1)} M transactions, ${(cost.day.sent / 1e6).toFixed(2)} M surveys, ${(cost.day.reminders / 1e6).toFixed(2)} M reminders and ${(cost.day.answers / 1e6).toFixed(2)} M answers a day):`,
    '',
    '| part | what | $ a month | floor $ a month |',
    '|---|---|---:|---:|',
    ...cost.rows.map(([part, what, usd, floor]) => `| ${part} | ${what} | ${money(usd)} | ${money(floor)} |`),
    `| **the service** | | **${money(cost.service)}** | **${money(cost.serviceFloor)}** |`,
    ...cost.channels.map(
      ([name, count, usd]) =>
        `| ${name} messages | ${round(count / 1e6)} M at ${CHANNEL_PRICES.find(([c]) => c === name)![1]} | ${money(usd)} | ${money(usd)} |`,
    ),
    `| **with the messages** | | **${money(total)}** | **${money(cost.serviceFloor + cost.messaging)}** |`,
    '',
    `Per survey sent (first attempts and reminders): $${perSurvey.toFixed(4)}, of which the service $${(cost.service / (30 * (cost.day.sent + cost.day.reminders))).toFixed(5)}; per answer: $${perAnswer.toFixed(3)}, of which the service $${(cost.service / (30 * cost.day.answers)).toFixed(4)}.`,
    '',
    'DynamoDB units per event, by flow (AWS rates):',
    '',
    '| flow | write units | read units | of which the item itself (floor) |',
    '|---|---:|---:|---:|',
    ...cost.flows.map(([flow, units]) => `| ${flow} | ${units.write.toFixed(2)} | ${units.read.toFixed(2)} | ${units.floor.toFixed(2)} |`),
  ].join('\n');
}

type Capacity = {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

/**
 * Keeps the counting table honest: sends the commands it received (recorded with `record`) to DynamoDB Local, in
 * order, and adds up the capacity DynamoDB Local reports for the counted ones, by the table and each index, beside what
 * the counting table counted at the same rates (`CountingTable.byIndex`): every write, a transaction's items each on
 * its own (DynamoDB Local reports only a transaction's first item), and the reads of GetItem. Commands on the
 * deployment's global scheduler checkpoint are left out, so that a shared local table's own scheduler is not moved.
 */
export async function replayAgainst(
  client: dynamodb.DynamoDBClient,
  table: CountingTable,
): Promise<{ index: string; counted: Units; local: Units }[]> {
  const local = new Map<string, Units>();
  const add = (index: string, kind: keyof Units, units: number | undefined) => {
    const entry = local.get(index) ?? local.set(index, { read: 0, write: 0 }).get(index)!;
    entry[kind] += units ?? 0;
  };
  const send = async (operation: string, input: Record<string, unknown>, counted: boolean) => {
    const key = (input.Key ?? input.Item) as Record<string, { S?: string }> | undefined;
    if (key?.pk?.S === 'DUE') return;
    const commands = dynamodb as unknown as Record<string, new (input: unknown) => never>;
    const output = (await client.send(new commands[`${operation}Command`]!({ ...input, ReturnConsumedCapacity: 'INDEXES' }))) as {
      ConsumedCapacity?: Capacity | Capacity[];
    };
    if (!counted) return;
    const kind: keyof Units = /Put|Update|Delete|Write/.test(operation) ? 'write' : 'read';
    const consumed = output.ConsumedCapacity === undefined ? [] : [output.ConsumedCapacity].flat();
    for (const capacity of consumed) {
      add('table', kind, capacity.Table?.CapacityUnits ?? capacity.CapacityUnits);
      for (const [index, units] of Object.entries(capacity.GlobalSecondaryIndexes ?? {})) add(index, kind, units.CapacityUnits);
    }
  };
  const ITEM_OPERATIONS = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem' } as const;
  for (const { operation, input, counted } of table.recorded) {
    if (operation === 'TransactWriteItems') {
      for (const item of input.TransactItems as Record<string, Record<string, unknown>>[])
        for (const [kind, single] of Object.entries(ITEM_OPERATIONS)) if (item[kind]) await send(single, item[kind], counted);
    } else if (operation !== 'Query' && operation !== 'BatchGetItem') await send(operation, input, counted);
  }
  return [...new Set([...table.byIndex.keys(), ...local.keys()])].sort().map((index) => ({
    index,
    counted: table.byIndex.get(index) ?? { read: 0, write: 0 },
    local: local.get(index) ?? { read: 0, write: 0 },
  }));
}
