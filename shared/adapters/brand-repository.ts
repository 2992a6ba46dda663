import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import type { BrandSettings } from '../tenants/config-schema.js';
import { LogoObject } from '../brand/logo.js';
import { db, isConditionFailure, type Item } from './dynamodb.js';
import { entity } from './entity.js';

export const brandItem = (tenantId: number, brand: BrandSettings): Item => ({
  pk: keys.config(tenantId),
  sk: keys.brandConfig,
  ...entity('BRAND'),
  ...brand,
});

/** Replaces the tenant's brand. */
export async function putBrand(tenantId: number, brand: BrandSettings): Promise<void> {
  const { client, tableName } = db();
  await client.send(new PutCommand({ TableName: tableName, Item: brandItem(tenantId, brand) }));
}

const LogoItem = /* @__PURE__ */ v.object(LogoObject.entries);

export async function recordLogo(tenantId: number, logo: LogoObject): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.tenantLogo(tenantId, logo.file), ...entity('LOGO'), ...logo },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function findLogo(tenantId: number, file: string): Promise<LogoObject | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.tenantLogo(tenantId, file), ConsistentRead: true }));
  return Item && v.parse(LogoItem, Item);
}
