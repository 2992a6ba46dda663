import { BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { DispatchMessage } from '../surveys/dispatch.js';
import type { DueStore } from '../surveys/scheduler.js';
import { TABLE } from '../table.js';
import { db, queryAll } from './dynamodb.js';

/** A due attempt left in the table this long after its time (the scheduler stopped for a month) is dropped. */
const DUE_TTL_DAYS = 30;

/** Survey attempts waiting in the table by due minute, and the scheduler's checkpoint. */
export const dueAttempts: DueStore = {
  async put(minute, message) {
    const { client, tableName } = db();
    const expiresAt = Math.floor(Date.parse(message.dueAt ?? `${minute}:00Z`) / 1000) + DUE_TTL_DAYS * 86_400;
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.dueAttempt(minute, message.tenantId, message.transactionId, message.attemptId),
          [TABLE.entityAttribute]: 'DUE_ATTEMPT',
          message,
          [TABLE.ttlAttribute]: expiresAt,
        },
      }),
    );
  },

  async dueIn(minute) {
    // A minute's partition holds the attempts due in it: released within ten minutes of their time, never grown.
    const items = await queryAll(db(), { partition: keys.dueMinute(minute) });
    return items.map((item) => ({ id: String(item[TABLE.sortKey]), message: v.parse(DispatchMessage, item.message) }));
  },

  async remove(minute, ids) {
    const { client, tableName } = db();
    for (let i = 0; i < ids.length; i += 25) {
      let requests: NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string] = ids
        .slice(i, i + 25)
        .map((id) => ({ DeleteRequest: { Key: { [TABLE.partitionKey]: keys.dueMinute(minute), [TABLE.sortKey]: id } } }));
      for (let round = 0; requests.length && round < 5; round++) {
        const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
        requests = out.UnprocessedItems?.[tableName] ?? [];
      }
      if (requests.length) throw new Error('Released survey attempts could not be removed; they will be released again.');
    }
  },

  async checkpoint() {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.dueCheckpoint(), ConsistentRead: true }));
    return typeof Item?.minute === 'string' ? Item.minute : undefined;
  },

  async saveCheckpoint(minute) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.dueCheckpoint(), [TABLE.entityAttribute]: 'DUE_CHECKPOINT', minute } }),
    );
  },
};
