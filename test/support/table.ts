import { randomInt, randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { createTable } from '../../infra/local/setup.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { ENV } from '../../shared/config.js';
import { keys } from '../../shared/keys.js';

/**
 * A table of the calling test file's own, declared as the stack's (shared/table.ts), for the files that read their
 * tenant's items with a Scan after each check (test/reliability/fixtures.ts `snapshot`): a Scan reads the whole table,
 * and the shared one holds every file's tenants, so each read there costs DynamoDB Local more as the run goes on.
 *
 * Everything this process does goes to it (the handlers in-process, the consumers these files call); the local stack's
 * consumers keep the shared table, so the file's queues must be private too (usePrivateQueue). Its tenants are numbered
 * from a random point far above the shared table's, because the other emulators (S3 keys, Cognito attributes) name
 * tenants by id alone.
 */
export function usePrivateTable(): void {
  const tableName = `survey-${randomUUID()}`;
  const previous = process.env[ENV.tableName];
  // Set at once, not in a hook: the default client is made on first use, with the name it finds then.
  process.env[ENV.tableName] = tableName;
  const client = new DynamoDBClient({});
  beforeAll(async () => {
    if (db().tableName !== tableName) throw new Error('The table was in use before usePrivateTable() was called: call it first.');
    await createTable(client, tableName);
    await db().client.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.tenantCounter(), value: randomInt(1_000_000, 2_000_000) } }),
    );
  });
  afterAll(async () => {
    process.env[ENV.tableName] = previous;
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    client.destroy();
  });
}
