import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** One DynamoDB round trip and the capacity it consumed, as DynamoDB reports it (ReturnConsumedCapacity TOTAL). */
export interface Call {
  command: string;
  read: number;
  write: number;
  /** The partition key of the item a single-item command names (GetItem, PutItem, UpdateItem, DeleteItem). */
  pk?: string;
  /** With `byIndex`: the units of the table's items and of each index's entries (`table`, `gsi8`, ...). */
  where?: Record<string, number>;
}

type Capacity = {
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

/**
 * Which measured piece of work the running code belongs to. The local stack runs its queue pollers (the survey
 * dispatcher, the consumer) in the same process and on the same clients as the benchmarks: without this, their
 * calls and log lines would be counted against whatever operation happened to be measured at the time.
 */
const scope = new AsyncLocalStorage<ReadonlySet<object>>();

/** Runs `work` as a measured piece of work: what it does, and what it awaits, is attributed to `token` (and to the pieces it runs within). */
export const within = <T>(token: object, work: () => Promise<T>): Promise<T> =>
  scope.run(new Set([...(scope.getStore() ?? []), token]), work);
export const isWithin = (token: object): boolean => scope.getStore()?.has(token) ?? false;

/**
 * Counts the round trips a client makes and the capacity each consumed: a middleware on the real client asks
 * DynamoDB for ConsumedCapacity on every call and adds it up. Nothing is mocked. Once `run` is used, only the calls
 * made inside it are counted (not those of pollers running beside it).
 */
export function meter(client: DynamoDBDocumentClient, { byIndex = false }: { byIndex?: boolean } = {}) {
  const calls: Call[] = [];
  const name = `meter-${Math.random()}`;
  const token = {};
  let scoped = false;
  // A call in flight when the count is reset (a poller's, sent before `run` scoped the count) is not the next
  // operation's: counted, it gave the first operation measured a round trip it never made.
  let resets = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (scoped && !isWithin(token)) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity ??= byIndex ? 'INDEXES' : 'TOTAL';
      const startedAfter = resets;
      const result = await next(args);
      if (startedAfter !== resets) return result;
      const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
      const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
      const command = lowLevelName(String(context.commandName));
      const isWrite = /Put|Update|Delete|TransactWrite|BatchWrite/.test(command);
      const reported = list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      const units = isWrite ? reported : Math.max(reported, leastRead(command, input));
      const pk = partitionOf(input.Key ?? input.Item);
      const where: Record<string, number> = {};
      for (const c of list) {
        if (c.Table?.CapacityUnits) where.table = (where.table ?? 0) + c.Table.CapacityUnits;
        for (const [index, used] of Object.entries(c.GlobalSecondaryIndexes ?? {}))
          where[index] = (where[index] ?? 0) + (used.CapacityUnits ?? 0);
      }
      calls.push({
        command,
        read: isWrite ? 0 : units,
        write: isWrite ? units : 0,
        ...(pk ? { pk } : {}),
        ...(byIndex ? { where } : {}),
      });
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    calls,
    reset: () => {
      resets++;
      calls.splice(0);
    },
    totals: () => ({ roundTrips: calls.length, read: sum(calls, 'read'), write: sum(calls, 'write') }),
    stop: () => client.middlewareStack.remove(name),
    run<T>(work: () => Promise<T>): Promise<T> {
      scoped = true;
      return within(token, work);
    },
  };
}

/**
 * The least DynamoDB bills a read, which DynamoDB Local reports as nothing when nothing is found: a read of an item
 * that does not exist, and a Query or Scan that finds nothing, still consume a read, half a unit eventually consistent
 * and one strongly consistent ("Capacity unit consumption for read operations" in DynamoDB's guide); BatchGetItem
 * reads each key as a GetItem, and a transactional read is two units an item.
 */
export function leastRead(command: string, input: Record<string, unknown>): number {
  const unit = (consistent: unknown) => (consistent === true ? 1 : 0.5);
  if (command === 'GetItem' || command === 'Query' || command === 'Scan') return unit(input.ConsistentRead);
  if (command === 'BatchGetItem') {
    const tables = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>);
    return tables.reduce((least, table) => least + (table.Keys?.length ?? 0) * unit(table.ConsistentRead), 0);
  }
  if (command === 'TransactGetItems') return 2 * ((input.TransactItems as unknown[] | undefined)?.length ?? 0);
  return 0;
}

/** The `pk` of a key or item, whether the document client has marshalled it yet or not. */
const partitionOf = (key: unknown): string | undefined => {
  const pk = (key as { pk?: unknown } | undefined)?.pk;
  return typeof pk === 'string' ? pk : typeof (pk as { S?: unknown })?.S === 'string' ? (pk as { S: string }).S : undefined;
};

const sum = (calls: Call[], field: 'read' | 'write') => Math.round(calls.reduce((total, call) => total + call[field], 0) * 100) / 100;

/** DynamoDB's own operation names, whether the document client or the low-level client made the call. */
const DOCUMENT_TO_LOW_LEVEL: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};
export const lowLevelName = (commandName: string) => {
  const name = commandName.replace(/Command$/, '');
  return DOCUMENT_TO_LOW_LEVEL[name] ?? name;
};
