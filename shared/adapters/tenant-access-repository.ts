import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { ApiKeyRecord, UserRecord, type TenantAccessRepository } from '../tenants/ports.js';
import { db } from './dynamodb.js';

/** The two reads that check a caller, apart from the tenant repository so that every function behind the API bundles only these. */
export async function findApiKey(hash: string): Promise<ApiKeyRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(hash) }));
  return Item ? v.parse(ApiKeyRecord, Item) : undefined;
}

export async function findUserByToken(tenantId: number, tokenHash: string): Promise<UserRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.userToken(tenantId, tokenHash) }));
  return Item ? v.parse(UserRecord, Item) : undefined;
}

export const tenantAccessRepository: TenantAccessRepository = { findApiKey, findUserByToken };
