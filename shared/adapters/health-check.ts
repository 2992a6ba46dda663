import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { db } from './dynamodb.js';

export async function checkTable(abortSignal: AbortSignal): Promise<void> {
  const { client, tableName } = db();
  await client.send(new GetCommand({ TableName: tableName, Key: keys.health() }), { abortSignal });
}
