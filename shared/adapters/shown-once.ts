import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { conditionHeld, db } from './dynamodb.js';

/** The one showing of a shown-once cookie: a conditional PutItem of its id, gone with the table's TTL after the cookie. */
export async function spendShownOnce(tenantId: number, id: string, until: Date): Promise<boolean> {
  const { client, tableName } = db();
  return conditionHeld(
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.shownOnce(tenantId, id),
          [TABLE.entityAttribute]: 'SHOWN_ONCE',
          [TABLE.ttlAttribute]: Math.ceil(until.getTime() / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}
