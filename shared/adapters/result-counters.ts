import { TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { CounterRow, ResultCounters } from '../results/ports.js';
import { shardOf, type Dimension, type Tally } from '../results/tally.js';
import { TABLE } from '../table.js';
import { cancelledByCondition, db, isConditionFailure, queryAll, type Item } from './dynamodb.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The writes that add a tally: each delta to its day counter and its month counter (ADD creates them), in the shard
 * the transaction (`transactionId`) or the counter's first id falls in.
 */
export function counterUpdates(tenantId: number, { journeyId, deltas, shards = 1 }: Tally, transactionId: number): TransactItem[] {
  const { tableName } = db();
  return deltas.flatMap((delta) =>
    (['day', 'month'] as const).map((grain) => {
      const period = grain === 'day' ? delta.day : delta.day.slice(0, 7);
      const partition = grain === 'day' ? delta.day.slice(0, 7) : delta.day.slice(0, 4);
      const names: Record<string, string> = { '#entity': TABLE.entityAttribute };
      const values: Item = { ':entity': 'RESULT' };
      const adds = Object.entries(delta.add).map(([name, value], i) => {
        names[`#c${i}`] = name;
        values[`:c${i}`] = value;
        return `#c${i} :c${i}`;
      });
      return {
        Update: {
          TableName: tableName,
          Key: {
            pk: keys.results(tenantId, { journeyId, partition, shard: shardOf(delta, transactionId, shards) }),
            sk: keys.resultSort({ grain, dimension: delta.dimension, ids: delta.ids, period }),
          },
          UpdateExpression: `SET #entity = :entity ADD ${adds.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      };
    }),
  );
}

/**
 * One conditional update of an item together with the counters it moves, all or nothing: a redelivered answer or
 * send fails the update's condition and counts nothing. False when the condition failed.
 */
export async function updateCounting(update: UpdateCommandInput, counters: TransactItem[]): Promise<boolean> {
  const { client } = db();
  try {
    if (counters.length === 0) await client.send(new UpdateCommand(update));
    else
      await client.send(
        new TransactWriteCommand({ TransactItems: [{ Update: update as NonNullable<TransactItem['Update']> }, ...counters] }),
      );
    return true;
  } catch (error) {
    if (isConditionFailure(error) || cancelledByCondition(error, 0)) return false;
    throw error;
  }
}

const NOT_COUNTS = new Set<string>([TABLE.partitionKey, TABLE.sortKey, TABLE.entityAttribute]);

function rowOf(item: Item): CounterRow {
  const [, dimension, ...rest] = String(item[TABLE.sortKey]).split('#');
  const period = rest.pop()!;
  return {
    dimension: dimension as Dimension,
    ids: rest.map(Number),
    period,
    counts: Object.fromEntries(Object.entries(item).filter(([name]) => !NOT_COUNTS.has(name)) as [string, number][]),
  };
}

export const resultCounters: ResultCounters = {
  // The unsharded partition and the dimension's shards, in parallel: a counter is one row per partition it was written
  // to, summed by the report. A store's, an employee's or a pair's counters are all in the shard of their first id.
  async read({ tenantId, journeyId, dimension, grain, partition, ids = [], shards = 1 }) {
    const keyed = dimension !== 'all' && ids.length > 0;
    const shardsRead =
      shards <= 1
        ? []
        : keyed
          ? [shardOf({ dimension, ids }, 0, shards)!]
          : Array.from({ length: shards }, (_, index) => ({ dimension, index }));
    const reads = [undefined, ...shardsRead].map((shard) =>
      queryAll(db(), {
        partition: keys.results(tenantId, { journeyId, partition, shard }),
        sortBeginsWith: keys.resultSort({ grain, dimension, ids }),
      }),
    );
    return (await Promise.all(reads)).flat().map(rowOf);
  },
};
