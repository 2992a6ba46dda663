import { GetCommand, PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { ExpiryStore, TransactionKey } from '../privacy/retention.js';
import { indexAttributes, TABLE } from '../table.js';
import { eraseCaseCopies } from './case-repository.js';
import { batchGet, db, type Item } from './dynamodb.js';
import { EXPIRY_SHARDS, personalCopiesExpired, stripPersonalCopies } from './personal-copies.js';

const BY_EXPIRY = indexAttributes('gsi9');
/** Transactions read and stripped at once: one BatchGetItem, then their updates side by side. */
const PAGE_SIZE = 100;

/** Transactions by the day their personal copies expire (gsi9, keys only), and the sweep's checkpoint. */
export const personalExpiry: ExpiryStore = {
  async *expired(day, now) {
    const { client, tableName } = db();
    for (let shard = 0; shard < EXPIRY_SHARDS; shard++) {
      let startKey: Item | undefined;
      do {
        const out: QueryCommandOutput = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi9',
            KeyConditionExpression: '#pk = :pk AND #sk <= :now',
            ExpressionAttributeNames: { '#pk': BY_EXPIRY.partitionKey, '#sk': BY_EXPIRY.sortKey },
            // Sort keys are the instant, then the transaction: `~` sorts after every character they hold.
            ExpressionAttributeValues: { ':pk': keys.personalExpiry(day, shard), ':now': `${now}~` },
            Limit: PAGE_SIZE,
            ExclusiveStartKey: startKey,
          }),
        );
        const page = (out.Items ?? []).map((item): TransactionKey => ({ pk: String(item.pk), sk: String(item.sk) }));
        if (page.length) yield page;
        startKey = out.LastEvaluatedKey;
      } while (startKey);
    }
  },

  async strip(transactions, now) {
    // The index is read eventually: each item is read again, and stripped only if its copies are still expired.
    const items = (await batchGet(db(), transactions)).filter((item) => personalCopiesExpired(item, now));
    const done = await Promise.all(
      items.map(async (item) => {
        // Its case, if its answer opened one, copied the customer's name and comment, and holds the managers' notes:
        // stripped first, as the transaction's strip takes it out of the index this sweep reads.
        const pk = String(item.pk);
        await eraseCaseCopies(keys.tenantIdOf(pk), [keys.transactionIdOf(pk)], { at: now, action: 'expired' });
        return stripPersonalCopies(item, { personal_expired_at: now }, { expiredBy: now });
      }),
    );
    return done.filter(Boolean).length;
  },

  async checkpoint() {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.personalExpiryCheckpoint(), ConsistentRead: true }),
    );
    return typeof Item?.day === 'string' ? Item.day : undefined;
  },

  async saveCheckpoint(day) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.personalExpiryCheckpoint(), [TABLE.entityAttribute]: 'EXPIRY_CHECKPOINT', day },
      }),
    );
  },
};
