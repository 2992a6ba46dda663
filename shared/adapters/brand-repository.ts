import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import type { BrandSettings } from '../brand/ports.js';
import { LogoObject } from '../brand/logo.js';
import { cancelledByCondition, db, type Item } from './dynamodb.js';
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

/**
 * Records a logo as the tenant's, counted on the tenant's item (`logo_count`) in the same transaction; with `atMost`,
 * only while the tenant has recorded fewer: `full` otherwise. `exists` when it was recorded already (not counted again).
 */
export async function recordLogo(tenantId: number, logo: LogoObject, atMost?: number): Promise<'recorded' | 'exists' | 'full'> {
  const { client, tableName } = db();
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.tenantLogo(tenantId, logo.file), ...entity('LOGO'), ...logo },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.tenant(tenantId),
              UpdateExpression: 'ADD logo_count :one',
              ...(atMost === undefined ? {} : { ConditionExpression: 'attribute_not_exists(logo_count) OR logo_count < :most' }),
              ExpressionAttributeValues: { ':one': 1, ...(atMost === undefined ? {} : { ':most': atMost }) },
            },
          },
        ],
      }),
    );
    return 'recorded';
  } catch (error) {
    if (cancelledByCondition(error, 0)) return 'exists';
    if (cancelledByCondition(error, 1)) return 'full';
    throw error;
  }
}

export async function findLogo(tenantId: number, file: string): Promise<LogoObject | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.tenantLogo(tenantId, file), ConsistentRead: true }));
  return Item && v.parse(LogoItem, Item);
}
