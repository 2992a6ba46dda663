import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { ScoreDropPorts } from '../results/score-drop.js';
import { TABLE } from '../table.js';
import { db, isConditionFailure } from './dynamodb.js';

/** A claim outlives the week it holds: kept 8 weeks, then the table's TTL removes it. */
const KEPT_SECONDS = 8 * 7 * 86_400;

/** A store's score-drop alert of a week, claimed by a conditional put: the second check of the week finds it taken. */
export const claimScoreDrop: ScoreDropPorts['claim'] = async (tenantId, storeId, week) => {
  const { client, tableName } = db();
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.scoreDropAlert(tenantId, storeId, week),
          [TABLE.entityAttribute]: 'SCORE_DROP_ALERT',
          [TABLE.ttlAttribute]: Math.floor(Date.now() / 1000) + KEPT_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
