import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { projectionOf, TABLE } from '../../shared/table.js';

/**
 * A counting table: it stands in for DynamoDB behind the service's own document client, so that the adapters run
 * unchanged and send their real commands, and it answers each command as DynamoDB would bill it. It receives the
 * request the SDK serialized (the marshalled item, its keys, its update expression) and counts, per partition key of
 * the table and of each index and per simulated second, the read and write units that request consumes: item sizes by
 * DynamoDB's rules (names and values in UTF-8, numbers by their digits, 3 bytes per map or list), 1 KB write units and
 * 4 KB read units, eventually consistent reads at half, transactional writes at double (index writes too), and an
 * index written only when the item enters, leaves or changes in it (a keys-only index only when its keys move).
 *
 * It keeps what the counting needs of each item (the size of each attribute, the values of key attributes, the
 * numbers it adds), not the items: reads answer nothing found, and conditions are taken to hold (the simulation sends
 * no duplicate). It is kept honest by replaying the same commands against DynamoDB Local (`replayAgainst` in
 * bench/scale.ts): the units agree per operation within the figure that comparison prints.
 */
export interface Units {
  read: number;
  write: number;
}

/** A partition key as counted: the table's (`table`) or an index's, and the key's value. */
export const partitionId = (index: string, key: string) => `${index} ${key}`;

interface Stored {
  /** Each attribute's size in bytes, its name included. */
  sizes: Map<string, number>;
  /** The values of the key attributes of the table and of every index. */
  keys: Map<string, string>;
  /** Numbers added with ADD (an id counter's value). */
  numbers: Map<string, number>;
}

type AttributeValue = Record<string, unknown>;
type Marshalled = Record<string, AttributeValue>;

const KEY_ATTRIBUTES = new Set<string>([
  TABLE.partitionKey,
  TABLE.sortKey,
  ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
]);
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: about one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** The size DynamoDB counts for a value (its attribute name apart). */
export function valueSize(value: AttributeValue): number {
  if ('S' in value) return utf8(String(value.S));
  if ('N' in value) return numberSize(String(value.N));
  if ('B' in value) return Buffer.from(String(value.B), 'base64').length;
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('L' in value) return 3 + (value.L as AttributeValue[]).reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if ('M' in value)
    return 3 + Object.entries(value.M as Marshalled).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
  if ('SS' in value) return (value.SS as string[]).reduce((sum, text) => sum + utf8(text), 0);
  if ('NS' in value) return (value.NS as string[]).reduce((sum, text) => sum + numberSize(text), 0);
  return 0;
}

const total = (item: Stored | undefined) => (item ? [...item.sizes.values()].reduce((sum, size) => sum + size, 0) : 0);
const itemId = (pk: string, sk: string) => `${pk}\u0000${sk}`;
const units = (bytes: number, per: number) => Math.max(1, Math.ceil(bytes / per));

/** Whether `item` is in `index`, and its entry's keys and size there. */
function entryOf(item: Stored | undefined, index: (typeof TABLE.indexes)[number]) {
  const pk = item?.keys.get(index.partitionKey);
  const sk = item?.keys.get(index.sortKey);
  if (!item || pk === undefined || sk === undefined) return undefined;
  const projection = projectionOf(index);
  const kept = [TABLE.partitionKey, TABLE.sortKey, index.partitionKey, index.sortKey];
  const size =
    projection.type === 'ALL'
      ? total(item)
      : [...kept, ...(projection.type === 'INCLUDE' ? projection.attributes : [])].reduce(
          (sum, name) => sum + (item.sizes.get(name) ?? 0),
          0,
        );
  return { pk, sk, size };
}

export class CountingTable {
  /** The simulated second the next commands belong to. */
  second = 0;
  /** Off: commands change the kept state but are not counted (the state before the simulated window). */
  counting = true;
  /** Units by second, then by partition (`partitionId`). */
  readonly perSecond = new Map<number, Map<string, Units>>();
  /**
   * Units by the table and each index (`table`, `gsi2`...) as the replay check compares them with DynamoDB Local: writes
   * at the plain rate (the check replays a transaction's items one by one: DynamoDB Local reports only a transaction's
   * first item), reads of GetItem only (DynamoDB Local bills a BatchGetItem of absent items and an empty Query nothing,
   * where DynamoDB bills its minimum, as the counting table does).
   */
  readonly byIndex = new Map<string, Units>();
  /** Every command received while `recording`, as the low-level request, and whether it was counted: the replay check sends them to DynamoDB Local. */
  readonly recorded: { operation: string; input: Record<string, unknown>; counted: boolean }[] = [];
  /** Commands counted. */
  commands = 0;
  /**
   * Units billed (AWS rates) by the flow of work they belong to (`flow`), and of those the writes of the items
   * themselves (a transaction's or a customer's item in the table, no index entry, guard or counter): the floor.
   */
  readonly byFlow = new Map<string, Units & { floor: number }>();
  private readonly currentFlow = new AsyncLocalStorage<string>();
  /** The operation being answered (commands are answered one at a time, synchronously). */
  private operation = '';

  /** Runs `work` as part of `name`: the units its commands take are added to that flow. */
  flow<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.currentFlow.run(name, work);
  }
  recording = false;
  private readonly items = new Map<string, Stored>();
  /** The items of each partition of the table and of each index, by item, with their entry's size. */
  private readonly partitions = new Map<string, Map<string, { sk: string; size: number }>>();

  /** Puts the table behind `client`: from now on its commands are answered and counted here, never sent. */
  install(client: DynamoDBDocumentClient): void {
    // A process runs one simulation at a time: a new table replaces the one before.
    client.middlewareStack.remove('countingTable');
    client.middlewareStack.add(
      () => async (args) => {
        const request = args.request as { headers: Record<string, string>; body: string | Uint8Array };
        const operation = String(request.headers['x-amz-target']).split('.')[1]!;
        const body = typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
        const input = JSON.parse(body) as Record<string, unknown>;
        if (this.recording) this.recorded.push({ operation, input, counted: this.counting });
        if (this.counting) this.commands++;
        return {
          output: { $metadata: {}, ...this.handle(operation, input) } as never,
          response: { statusCode: 200, headers: {}, body: '' },
        };
      },
      { step: 'build', priority: 'high', name: 'countingTable' },
    );
  }

  /** The units each partition took in `second`. */
  at(second: number): Map<string, Units> {
    return this.perSecond.get(second) ?? new Map();
  }

  private charge(partition: string, kind: keyof Units, amount: number, plain: number): void {
    if (!this.counting) return;
    const second = this.perSecond.get(this.second) ?? this.perSecond.set(this.second, new Map()).get(this.second)!;
    const counted = second.get(partition) ?? second.set(partition, { read: 0, write: 0 }).get(partition)!;
    counted[kind] += amount;
    const flowName = this.currentFlow.getStore() ?? 'other';
    const flow = this.byFlow.get(flowName) ?? this.byFlow.set(flowName, { read: 0, write: 0, floor: 0 }).get(flowName)!;
    flow[kind] += amount;
    if (kind === 'write' && /^table T#\d+#(TX|CUSTOMER)#\d+$/.test(partition)) flow.floor += amount;
    const index = partition.slice(0, partition.indexOf(' '));
    const byIndex = this.byIndex.get(index) ?? this.byIndex.set(index, { read: 0, write: 0 }).get(index)!;
    if (kind === 'write' || this.operation === 'GetItem') byIndex[kind] += plain;
  }

  private handle(operation: string, input: Record<string, unknown>): Record<string, unknown> {
    this.operation = operation;
    switch (operation) {
      case 'GetItem':
        this.read(operation, input.Key as Marshalled, input.ConsistentRead === true);
        return {};
      case 'BatchGetItem': {
        const requests = input.RequestItems as Record<string, { Keys: Marshalled[]; ConsistentRead?: boolean }>;
        for (const { Keys, ConsistentRead } of Object.values(requests))
          for (const key of Keys) this.read(operation, key, ConsistentRead === true);
        return { Responses: Object.fromEntries(Object.keys(requests).map((table) => [table, []])), UnprocessedKeys: {} };
      }
      case 'Query':
        this.query(input);
        return { Items: [], Count: 0, ScannedCount: 0 };
      case 'PutItem':
        this.put(operation, input.Item as Marshalled, 1);
        return {};
      case 'DeleteItem':
        this.delete(operation, input.Key as Marshalled, 1);
        return {};
      case 'UpdateItem':
        return { Attributes: this.update(operation, input, 1) };
      case 'TransactWriteItems':
        for (const item of input.TransactItems as Record<string, Record<string, unknown>>[]) {
          if (item.Put) this.put(operation, item.Put.Item as Marshalled, 2);
          else if (item.Delete) this.delete(operation, item.Delete.Key as Marshalled, 2);
          else if (item.Update) this.update(operation, item.Update, 2);
          else if (item.ConditionCheck) this.read(operation, item.ConditionCheck.Key as Marshalled, true, 2);
        }
        return {};
      case 'BatchWriteItem': {
        const requests = input.RequestItems as Record<string, Record<string, { Item?: Marshalled; Key?: Marshalled }>[]>;
        for (const list of Object.values(requests))
          for (const request of list) {
            if (request.PutRequest) this.put(operation, request.PutRequest.Item!, 1);
            if (request.DeleteRequest) this.delete(operation, request.DeleteRequest.Key!, 1);
          }
        return { UnprocessedItems: {} };
      }
      default:
        throw new Error(`The counting table does not answer ${operation}.`);
    }
  }

  private keyOf(key: Marshalled) {
    const pk = String(key[TABLE.partitionKey]!.S);
    const sk = String(key[TABLE.sortKey]!.S);
    return { pk, sk, id: itemId(pk, sk) };
  }

  private read(_operation: string, key: Marshalled, consistent: boolean, factor = consistent ? 1 : 0.5): void {
    const { pk, id } = this.keyOf(key);
    const amount = units(total(this.items.get(id)), 4096) * factor;
    this.charge(partitionId('table', pk), 'read', amount, amount);
  }

  private query(input: Record<string, unknown>): void {
    const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
    const values = (input.ExpressionAttributeValues ?? {}) as Marshalled;
    const condition = String(input.KeyConditionExpression);
    const index = (input.IndexName as string | undefined) ?? 'table';
    // The key condition's partition value is the first placeholder it compares with `=`.
    const pkPlaceholder = /=\s*(:\w+)/.exec(condition)![1]!;
    const pk = String(values[pkPlaceholder]!.S);
    const rest = condition
      .split(/\bAND\b/i)
      .slice(1)
      .join(' AND ');
    const placeholder = (name: string) => String(values[name]?.S ?? values[name]?.N ?? '');
    let inRange: (sk: string) => boolean = () => true;
    const beginsWith = /begins_with\([^,]+,\s*(:\w+)\)/.exec(rest);
    const between = /BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/i.exec(rest);
    const compare = /(<=|>=|<|>|=)\s*(:\w+)/.exec(rest);
    if (beginsWith) inRange = (sk) => sk.startsWith(placeholder(beginsWith[1]!));
    else if (between) inRange = (sk) => sk >= placeholder(between[1]!) && sk <= placeholder(between[2]!);
    else if (compare) {
      const [, op, name] = compare;
      const bound = placeholder(name!);
      inRange = (sk) =>
        op === '<=' ? sk <= bound : op === '>=' ? sk >= bound : op === '<' ? sk < bound : op === '>' ? sk > bound : sk === bound;
    }
    void names;
    const limit = typeof input.Limit === 'number' ? input.Limit : Infinity;
    let bytes = 0;
    let count = 0;
    for (const { sk, size } of this.partitions.get(partitionId(index, pk))?.values() ?? []) {
      if (count >= limit) break;
      if (!inRange(sk)) continue;
      bytes += size;
      count++;
    }
    const amount = units(bytes, 4096) * (input.ConsistentRead === true ? 1 : 0.5);
    this.charge(partitionId(index, pk), 'read', amount, amount);
  }

  /** Moves an item from `before` to `after` (either absent), counting the table's and each index's writes. */
  private write(
    _operation: string,
    id: string,
    before: Stored | undefined,
    after: Stored | undefined,
    touched: Set<string> | 'all',
    factor: number,
  ) {
    const pk = (before ?? after)!.keys.get(TABLE.partitionKey)!;
    const tableUnits = units(Math.max(total(before), total(after)), 1024);
    this.charge(partitionId('table', pk), 'write', tableUnits * factor, tableUnits);
    this.track(
      'table',
      id,
      before && { pk, sk: before.keys.get(TABLE.sortKey)!, size: total(before) },
      after && { pk, sk: after.keys.get(TABLE.sortKey)!, size: total(after) },
    );
    for (const index of TABLE.indexes) {
      const old = entryOf(before, index);
      const next = entryOf(after, index);
      if (!old && !next) continue;
      const projection = projectionOf(index);
      if (old && next && old.pk === next.pk && old.sk === next.sk) {
        const projected =
          touched === 'all' || projection.type === 'ALL'
            ? true
            : projection.type === 'INCLUDE' && projection.attributes.some((name) => touched.has(name));
        if (!projected) continue;
        const amount = units(Math.max(old.size, next.size), 1024);
        this.charge(partitionId(index.name, next.pk), 'write', amount * factor, amount);
      } else {
        if (old) this.charge(partitionId(index.name, old.pk), 'write', units(old.size, 1024) * factor, units(old.size, 1024));
        if (next) this.charge(partitionId(index.name, next.pk), 'write', units(next.size, 1024) * factor, units(next.size, 1024));
      }
      this.track(index.name, id, old, next);
    }
    if (after) this.items.set(id, after);
    else this.items.delete(id);
  }

  private track(index: string, id: string, old: { pk: string; sk: string; size: number } | undefined, next: typeof old): void {
    if (old) this.partitions.get(partitionId(index, old.pk))?.delete(id);
    if (next) {
      const partition = partitionId(index, next.pk);
      (this.partitions.get(partition) ?? this.partitions.set(partition, new Map()).get(partition)!).set(id, {
        sk: next.sk,
        size: next.size,
      });
    }
  }

  private put(operation: string, item: Marshalled, factor: number): void {
    const { id } = this.keyOf(item);
    const stored: Stored = { sizes: new Map(), keys: new Map(), numbers: new Map() };
    for (const [name, value] of Object.entries(item)) {
      stored.sizes.set(name, utf8(name) + valueSize(value));
      if (KEY_ATTRIBUTES.has(name) && 'S' in value) stored.keys.set(name, String(value.S));
    }
    this.write(operation, id, this.items.get(id), stored, 'all', factor);
  }

  private delete(operation: string, key: Marshalled, factor: number): void {
    const { id, pk } = this.keyOf(key);
    const before = this.items.get(id);
    if (before) this.write(operation, id, before, undefined, 'all', factor);
    else this.charge(partitionId('table', pk), 'write', factor, 1);
  }

  /**
   * Applies an update expression's SET, REMOVE and ADD to the kept sizes. A top-level attribute takes its new value's
   * size; a nested path (`#survey.#status`, `#attempts[1].#due_at`) adds its value's size only when its attribute is
   * new, so replacing a nested value is taken as the same size (the replay check measures what that leaves out).
   */
  private update(operation: string, input: Record<string, unknown>, factor: number): Record<string, unknown> | undefined {
    const { id, pk, sk } = this.keyOf(input.Key as Marshalled);
    const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
    const values = (input.ExpressionAttributeValues ?? {}) as Marshalled;
    const before = this.items.get(id);
    const after: Stored = before
      ? { sizes: new Map(before.sizes), keys: new Map(before.keys), numbers: new Map(before.numbers) }
      : {
          sizes: new Map([
            [TABLE.partitionKey, utf8(TABLE.partitionKey) + utf8(pk)],
            [TABLE.sortKey, utf8(TABLE.sortKey) + utf8(sk)],
          ]),
          keys: new Map([
            [TABLE.partitionKey, pk],
            [TABLE.sortKey, sk],
          ]),
          numbers: new Map(),
        };
    const touched = new Set<string>();
    const returned: Record<string, unknown> = {};
    const resolve = (token: string) => (token.startsWith('#') ? names[token]! : token);
    for (const [, clause, body] of String(input.UpdateExpression).matchAll(
      /\b(SET|REMOVE|ADD|DELETE)\b\s+((?:(?!\b(?:SET|REMOVE|ADD|DELETE)\b)[\s\S])*)/g,
    )) {
      for (const action of splitTopLevel(body!)) {
        const path = /^\s*([#\w]+)((?:\.[#\w]+|\[\d+\])*)/.exec(action)!;
        const top = resolve(path[1]!);
        const nested = path[2] !== '';
        touched.add(top);
        if (clause === 'REMOVE') {
          if (!nested) {
            after.sizes.delete(top);
            after.keys.delete(top);
          }
          continue;
        }
        const placeholders = [...action.slice(path[0].length).matchAll(/:\w+/g)].map((match) => match[0]);
        const value = values[placeholders.at(-1)!];
        if (!value) continue;
        const size = valueSize(value);
        if (clause === 'ADD' && 'N' in value) {
          const sum = (after.numbers.get(top) ?? 0) + Number(value.N);
          after.numbers.set(top, sum);
          after.sizes.set(top, utf8(top) + numberSize(String(sum)));
          returned[top] = sum;
          continue;
        }
        const keeps = /if_not_exists/.test(action) && (nested || after.sizes.has(top));
        if (nested) {
          if (!after.sizes.has(top)) after.sizes.set(top, utf8(top) + 3 + size + 8);
        } else if (!keeps) {
          after.sizes.set(top, utf8(top) + size);
          if (KEY_ATTRIBUTES.has(top) && 'S' in value) after.keys.set(top, String(value.S));
        }
      }
    }
    this.write(operation, id, before, after, touched, factor);
    return input.ReturnValues && input.ReturnValues !== 'NONE' ? returned : undefined;
  }
}

/** The comma-separated actions of a clause, commas inside function calls kept. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts.filter((part) => part.trim() !== '');
}
