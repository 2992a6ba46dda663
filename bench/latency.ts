import * as documentCommands from '@aws-sdk/lib-dynamodb';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SendMessageBatchCommandInput,
  type SendMessageCommandInput,
} from '@aws-sdk/client-sqs';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { authorizerEvent, lambdaContext } from '../infra/local/events.js';
import { createRouter, loadHandler } from '../infra/local/gateway.js';
import { authorizers, routes, succeeded, type ApiName, type Route } from '../infra/routes.js';
import { ENV, requireEnv } from '../shared/config.js';
import { signSurveyLink } from '../shared/surveys/link.js';
import { db } from '../shared/adapters/dynamodb.js';
import { sqs } from '../shared/adapters/sqs.js';
import { lowLevelName } from './metering.js';
import { QUEUES, type QueueId } from '../shared/queues.js';
import { inProcess, prepare } from '../test/support/api.js';
import { keyFor, validRequests, type Fixture } from '../infra/examples.js';
import { MAX_NOTES } from '../shared/cases/record.js';

/**
 * Warm latency of the handler stack: every operation invoked in-process through its real handler (middy,
 * validation, the authorizer's context, mapping) against DynamoDB Local and the SQS server, beside its floor: the
 * very DynamoDB and SQS calls that invocation made, captured as the SDK received them and replayed directly. The two alternate call by call, so that both see the same machine.
 * Only the ratios mean anything.
 */
export interface LatencyOptions {
  calls: number;
  /** The local stack's switch for a queue's consumer, when it runs in this process (npm run bench). */
  setConsumerEnabled?: (queue: QueueId, enabled: boolean) => void;
}

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
interface Captured {
  command: string;
  input: Record<string, any>;
  started: number;
  ended?: number;
}

/** Records every call the document client and the SQS client make, with its input as the caller gave it. */
export function capture() {
  const calls: Captured[] = [];
  const name = `capture-${randomUUID()}`;
  const middleware = (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: { input: unknown }) => {
    const call: Captured = {
      command: String(context.commandName),
      input: structuredClone(args.input as Record<string, any>),
      started: performance.now(),
    };
    calls.push(call);
    try {
      return await next(args);
    } finally {
      call.ended = performance.now();
    }
  };
  db().client.middlewareStack.add(middleware as never, { step: 'initialize', priority: 'high', name });
  sqs().middlewareStack.add(middleware as never, { step: 'initialize', priority: 'high', name });
  return {
    calls,
    stop: () => {
      db().client.middlewareStack.remove(name);
      sqs().middlewareStack.remove(name);
    },
  };
}

/** The document client's command for a call, whichever name the middleware saw (GetItemCommand or GetCommand). */
const LOW_LEVEL_TO_DOCUMENT: Record<string, string> = {
  GetItem: 'Get',
  PutItem: 'Put',
  UpdateItem: 'Update',
  DeleteItem: 'Delete',
  BatchGetItem: 'BatchGet',
  BatchWriteItem: 'BatchWrite',
  TransactGetItems: 'TransactGet',
  TransactWriteItems: 'TransactWrite',
};
const documentName = (command: string) => {
  const name = command.replace(/Command$/, '');
  return `${LOW_LEVEL_TO_DOCUMENT[name] ?? name}Command`;
};

/**
 * A captured call made again. A Put that may only create (attribute_not_exists) goes to a fresh key of its own, so
 * that it succeeds as the original did. Other Puts (a place taken over from its previous holder), updates and deletes
 * go to the same items without their conditions, which a replay would fail (a version or holder has moved on);
 * condition checks in a transaction are left out. Both make the floor
 * cheaper than the calls it stands for, never dearer.
 */
export function replayable({ command, input }: Captured): () => Promise<unknown> {
  if (command === 'SendMessageCommand') return () => sqs().send(new SendMessageCommand(structuredClone(input) as SendMessageCommandInput));
  if (command === 'SendMessageBatchCommand')
    return () => sqs().send(new SendMessageBatchCommand(structuredClone(input) as SendMessageBatchCommandInput));
  const name = documentName(command);
  const Command = (documentCommands as unknown as Record<string, new (input: unknown) => any>)[name];
  if (!Command) throw new Error(`No document client command for ${command}`);
  let replayed = input;
  if (name === 'PutCommand') replayed = fresh(input);
  if (name === 'UpdateCommand' || name === 'DeleteCommand') replayed = withoutCondition(input);
  if (name === 'TransactWriteCommand') {
    const items = (input.TransactItems as Record<string, any>[]).filter((item) => !item.ConditionCheck);
    replayed = {
      ...input,
      TransactItems: items.map((item) =>
        item.Put
          ? { Put: fresh(item.Put) }
          : item.Update
            ? { Update: withoutCondition(item.Update) }
            : item.Delete
              ? { Delete: withoutCondition(item.Delete) }
              : item,
      ),
    };
  }
  return () => db().client.send(new Command(structuredClone(replayed)));
}

/** A Put that may create goes to a fresh key; one conditioned on the item's earlier state goes without its condition. */
const fresh = (put: Record<string, any>) =>
  /attribute_not_exists/.test(put.ConditionExpression ?? '')
    ? { ...put, Item: { ...put.Item, pk: `BENCH#${randomUUID()}` } }
    : withoutCondition(put);

/** The operation without its ConditionExpression, and without the names and values only the condition used. */
function withoutCondition({
  ConditionExpression: _,
  ExpressionAttributeNames: names,
  ExpressionAttributeValues: values,
  ...rest
}: Record<string, any>): Record<string, any> {
  const used = Object.entries(rest)
    .filter(([field]) => field.endsWith('Expression'))
    .map(([, text]) => String(text))
    .join(' ');
  const keep = (map: Record<string, unknown> | undefined) => {
    const kept = Object.entries(map ?? {}).filter(([token]) => new RegExp(`${token}(?![\\w])`).test(used));
    return kept.length ? Object.fromEntries(kept) : undefined;
  };
  const [n, v] = [keep(names), keep(values)];
  return { ...rest, ...(n ? { ExpressionAttributeNames: n } : {}), ...(v ? { ExpressionAttributeValues: v } : {}) };
}

/**
 * The calls as the handler ordered them: each waits for the calls that had ended before it started, and for no
 * other, so calls the handler made side by side are replayed side by side.
 */
function causalOrder(calls: Captured[]): number[][] {
  return calls.map((call) => calls.flatMap((other, j) => ((other.ended ?? Infinity) <= call.started ? [j] : [])));
}

/** Replays the calls in their causal order. */
async function replayAll(calls: Captured[]): Promise<void> {
  const after = causalOrder(calls);
  const replays = calls.map(replayable);
  const done: Promise<unknown>[] = [];
  calls.forEach((_, i) => done.push(Promise.all(after[i]!.map((j) => done[j])).then(() => replays[i]!())));
  await Promise.all(done);
}

/** How the calls read: those at the same depth of the causal order side by side (∥), the depths one after another. */
function describe(calls: Captured[]): string {
  const after = causalOrder(calls);
  const depth: number[] = [];
  after.forEach((deps, i) => (depth[i] = deps.length ? Math.max(...deps.map((j) => depth[j]!)) + 1 : 0));
  const levels = Array.from({ length: Math.max(0, ...depth) + 1 }, (_, level) =>
    calls.filter((_, i) => depth[i] === level).map((c) => lowLevelName(c.command)),
  );
  return levels.map((level) => level.join(' ∥ ')).join(', then ');
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

/** Requests that cannot be repeated as they are: each call gets its own target. */
async function variants(route: Route, f: Fixture, count: number): Promise<(i: number) => Fixture> {
  // Each replacement would need the ETag of the one before (and the floor's replay raises the version too): the
  // bench replaces whatever is current, `If-Match: *`.
  if (route.operationId === 'putAdminConfig') return () => ({ ...f, configEtag: '*' });
  // A key is rotated once: each call rotates a key of its own, issued beforehand.
  // One after another: each issue raises the configuration version, and a thousand raises at once exhaust their retries.
  if (route.operationId === 'rotateAdminKey') {
    const issue = inProcess('public');
    const issued: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await issue({ method: 'POST', path: '/public/admin/keys', key: f.adminKey, body: { scope: 'public', name: 'bench' } });
      if (res.status !== 201) throw new Error(`Issuing a key to rotate answered ${res.status}: ${JSON.stringify(res.body)}`);
      issued.push(res.body.id as string);
    }
    return (i) => ({ ...f, rotatableKeyId: issued[i]! });
  }
  // A case keeps at most MAX_NOTES notes: each run of that many calls adds its note to a case of its own.
  if (route.operationId === 'updateCase') {
    // Loaded here: the fixtures' module wires functions, which read the local stack's environment at load.
    const { openCase } = await import('../test/reliability/fixtures.js');
    const cases: number[] = [];
    for (let i = 0; i < Math.ceil(count / MAX_NOTES); i++) cases.push(await openCase(f, `${f.marker}-N${i}`));
    return (i) => ({ ...f, caseId: cases[Math.floor(i / MAX_NOTES)]! });
  }
  if (route.operationId !== 'postSurvey' && route.operationId !== 'postSurveyPage') return () => f;
  // An answer closes its attempt: each call answers a transaction of its own, created beforehand.
  const api = inProcess('public', 300);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api({
      method: 'POST',
      path: '/public/transaction',
      key: f.key,
      body: { store_id: f.storeId, employee_id: f.employeeId, customer_id: f.customerId, journey: 'loja' },
    });
    ids.push(res.body.id);
  }
  const secret = requireEnv(ENV.surveySecret);
  const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
  return (i) => ({
    ...f,
    transactionId: ids[i]!,
    surveyToken: signSurveyLink({ tenantId: f.tenantId, transactionId: ids[i]!, attemptId: 1, channel: 'whatsapp', expiresAt }, secret),
  });
}

const keyOf = (api: ApiName, f: Fixture) => (api === 'chatbot' ? f.chatbotKey : f.key);
/** The authorizer context a route's calls carry: its API's key, or the admin key on an admin route. */
type ContextOf = ApiName | 'admin';

/** What the API's real authorizer answers for the fixture's key: the context API Gateway hands each handler. */
async function authorizerContext(api: ApiName, f: Fixture, key = keyOf(api, f)): Promise<unknown> {
  const route = routes.find((r) => r.api === api && !r.anonymous)!;
  const { url, headers, body } = prepare({ ...validRequests[route.operationId]!(f), method: route.method, key });
  const { event } = createRouter(api)(route.method, new URL(url, 'http://localhost'), { headers, body })!;
  const authorize = await loadHandler(authorizers[api].handler);
  const result = (await authorize(authorizerEvent(event, [key]), lambdaContext(`${api}-authorizer`))) as {
    isAuthorized: boolean;
    context: unknown;
  };
  if (!result.isAuthorized) throw new Error(`The ${api} authorizer refused the fixture's key`);
  return result.context;
}

export async function warmLatency(f: Fixture, { calls, setConsumerEnabled }: LatencyOptions): Promise<string> {
  const contexts = new Map<ContextOf, unknown>();
  for (const api of Object.keys(authorizers) as ApiName[]) contexts.set(api, await authorizerContext(api, f));
  contexts.set('admin', await authorizerContext('public', f, f.adminKey));

  // postV2Transaction's messages go to a queue of their own: the local stack's poller, in this process, would
  // otherwise consume them while calls are being captured and timed. Its transaction consumer is paused meanwhile:
  // its role may read only the queue the environment names, which has moved.
  const { QueueUrl: privateQueue } = await sqs().send(new CreateQueueCommand({ QueueName: `bench-latency-${randomUUID()}` }));
  const transactionQueue = process.env[QUEUES.transactions.urlEnv];
  setConsumerEnabled?.('transactions', false);
  process.env[QUEUES.transactions.urlEnv] = privateQueue;
  try {
    return await measure(f, calls, contexts);
  } finally {
    process.env[QUEUES.transactions.urlEnv] = transactionQueue;
    setConsumerEnabled?.('transactions', true);
    await sqs().send(new DeleteQueueCommand({ QueueUrl: privateQueue }));
  }
}

async function measure(f: Fixture, calls: number, contexts: Map<ContextOf, unknown>): Promise<string> {
  const rows: string[] = [];
  const warmUp = Math.min(20, calls);
  // Deactivations last: the operations before them use the same store and employee.
  for (const route of [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))) {
    const router = createRouter(route.api);
    const handler = (await loadHandler(route.handler)) as Handler;
    const fixtureFor = await variants(route, f, warmUp + calls);
    const stack: number[] = [];
    const floor: number[] = [];
    const shapes = new Map<string, number>();
    for (let i = 0; i < warmUp + calls; i++) {
      const { url, headers, body } = prepare({
        ...validRequests[route.operationId]!(fixtureFor(i)),
        method: route.method,
        key: keyFor(route, f),
      });
      const { event } = router(route.method, new URL(url, 'http://localhost'), { headers, body })!;
      if (!route.anonymous) event.requestContext.authorizer = { lambda: contexts.get(route.admin ? 'admin' : route.api) } as never;

      const captured = capture();
      let t = performance.now();
      const res = await handler(event, lambdaContext(route.operationId));
      const handlerMs = performance.now() - t;
      captured.stop();
      if (!succeeded(route, res.statusCode ?? 500)) throw new Error(`${route.operationId} answered ${res.statusCode}: ${res.body}`);

      t = performance.now();
      await replayAll(captured.calls);
      const floorMs = performance.now() - t;
      if (i >= warmUp) {
        stack.push(handlerMs);
        floor.push(floorMs);
      }
      const shape = describe(captured.calls);
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    // The calls most invocations made (a warm process seldom refills its block of ids, for one).
    const floorCalls = [...shapes].sort((x, y) => y[1] - x[1])[0]![0];
    const [s50, s99, f50, f99] = [percentile(stack, 50), percentile(stack, 99), percentile(floor, 50), percentile(floor, 99)];
    rows.push(
      `| ${route.operationId} | ${s50.toFixed(1)} | ${s99.toFixed(1)} | ${floorCalls} | ${f50.toFixed(1)} | ${f99.toFixed(1)} | ${(s50 / f50).toFixed(2)} | ${(s99 / f99).toFixed(2)} |`,
    );
  }
  return [
    `### Warm latency of the handler stack (${calls} calls each after ${warmUp} unmeasured, alternating with the floor; DynamoDB Local)`,
    '',
    'The floor replays, with the bare SDK clients, the calls the same invocation made, each after the calls that had ended before it started: side by side (∥) where the handler made them side by side. The calls shown are those most invocations made.',
    '',
    '| operation | p50 ms | p99 ms | floor: bare SDK calls | floor p50 | floor p99 | p50 ratio | p99 ratio |',
    '|---|---:|---:|---|---:|---:|---:|---:|',
    ...rows,
    '',
    'Targets: p50 ratio at most 1.25, p99 ratio at most 1.5.',
  ].join('\n');
}
