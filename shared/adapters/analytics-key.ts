import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { conditionHeld, db } from './dynamodb.js';
import { entity } from './entity.js';

/**
 * The tenant's pseudonym key (the analytics export's customer_key): random, made on the first export by a conditional
 * put (two first exports at once keep one), kept with the tenant's configuration, never in a response or a log. The
 * export run by the operator and the one an erasure runs read the same key, so a customer's rows stay joinable.
 */
export async function pseudonymKey(tenantId: number): Promise<string> {
  const { client, tableName } = db();
  const Key = { pk: keys.config(tenantId), sk: keys.analyticsKey };
  const read = async () => (await client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }))).Item?.key;
  const kept = await read();
  if (typeof kept === 'string') return kept;
  await conditionHeld(
    client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...Key, ...entity('ANALYTICS_KEY'), key: randomBytes(32).toString('base64url') },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return String(await read());
}
