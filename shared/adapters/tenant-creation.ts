import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, padId } from '../keys.js';
import { inIndex } from '../table.js';
import type { FirstStore, Tenant } from '../tenants/ports.js';
import { db, type Item } from './dynamodb.js';
import { employees, storeLink } from './employee-repository.js';
import { stores } from './store-repository.js';
import { brandItem } from './brand-repository.js';
import { entity } from './entity.js';

/*
 * A new tenant with its first store and employee: the operator's command only (wiring/tenants.ts), apart from the
 * tenant repository, so that the admin functions do not bundle the store and employee entities.
 */

/**
 * Creates a tenant with its first store 1 and employee 1, named as the operator gave them, and its brand (the
 * tenant's name until a tenant file sets one), atomically. With no id, one is allocated from the tenant counter; an
 * id taken by a tenant created with an explicit id is skipped.
 */
export async function insertTenant(name: string, first: FirstStore, requestedId?: number): Promise<Tenant> {
  const { client, tableName } = db();
  for (;;) {
    const id = requestedId ?? (await nextTenantId());
    const now = new Date().toISOString();
    const tenant: Tenant = { id, name, created_at: now };
    const put = (Item: Item) => ({ Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
    const counter = (entityName: 'STORE' | 'EMPLOYEE') => put({ ...keys.counter(id, entityName), value: 1 });
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            put({ ...keys.tenant(id), ...entity('TENANT'), ...inIndex('gsi1', keys.tenantCollection(), padId(id)), ...tenant }),
            put(
              stores.toItem(id, {
                id: 1,
                store_id: null,
                trade_name: first.store,
                company_name: null,
                status: 'active',
                created_at: now,
                updated_at: now,
              }),
            ),
            put(
              employees.toItem(id, {
                id: 1,
                employee_id: null,
                name: first.employee,
                email: null,
                store_id: null,
                status: 'active',
                stores: [1],
                groups: [],
                created_at: now,
                updated_at: now,
              }),
            ),
            put(storeLink(id, 1, 1)),
            put(brandItem(id, { name })),
            counter('STORE'),
            counter('EMPLOYEE'),
          ],
        }),
      );
      return tenant;
    } catch (error) {
      const taken = error instanceof Error && error.name === 'TransactionCanceledException';
      if (taken && requestedId === undefined) continue;
      if (taken) throw new Error(`Tenant ${requestedId} already exists.`);
      throw error;
    }
  }
}

async function nextTenantId(): Promise<number> {
  const { client, tableName } = db();
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.tenantCounter(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value);
}
