import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { CaseContacts, CaseNames, CaseUser, CaseUsers } from '../cases/ports.js';
import { TABLE } from '../table.js';
import { keys } from '../keys.js';
import { UserRecord } from '../access/ports.js';
import { db, queryAll } from './dynamodb.js';
import { findUserByName } from './access-repository.js';

/** What cases need beside their own items: the tenant's users, and the names of stores and employees. */

const holds = (scope: UserRecord['scope'], storeId: number, regions: readonly number[]) =>
  scope === 'all' || scope.stores.includes(storeId) || (scope.regions ?? []).some((region) => regions.includes(region));

const caseUserOf = (user: UserRecord): CaseUser => ({ name: user.name, scope: user.scope, disabled: Boolean(user.disabled_at) });

export const caseUsers: CaseUsers = {
  /**
   * The tenant's users (gsi1, one Query of its user collection) whose scope holds the store. A tenant's users are a few
   * per store: hundreds of small items at most, read once per case opened and per case page.
   */
  async holding(tenantId, storeId, regions) {
    const items = await queryAll(db(), { index: 'gsi1', partition: keys.userCollection(tenantId) });
    return items
      .map((item) => v.parse(UserRecord, item))
      .filter((user) => holds(user.scope, storeId, regions))
      .map(caseUserOf);
  },
  /** The same Query as `holding` (the people alerted are the store's): only the users who set a phone. */
  async phonesOf(tenantId, names) {
    const wanted = new Set(names);
    const items = await queryAll(db(), { index: 'gsi1', partition: keys.userCollection(tenantId) });
    const users = items.map((item) => v.parse(UserRecord, item)).filter((user) => wanted.has(user.name) && user.phone);
    return new Map(users.map((user) => [user.name, user.phone!]));
  },
  async find(tenantId, name) {
    const user = await findUserByName(tenantId, name);
    return user && caseUserOf(user);
  },
};

const nameOf = async (tenantId: number, { entity, id, field }: { entity: 'STORE' | 'EMPLOYEE'; id: number; field: string }) => {
  const { client, tableName } = db();
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.entity(tenantId, entity, id),
      ProjectionExpression: '#n',
      ExpressionAttributeNames: { '#n': field },
    }),
  );
  return typeof Item?.[field] === 'string' ? Item[field] : '';
};

export const caseNames: CaseNames = {
  store: (tenantId, storeId) => nameOf(tenantId, { entity: 'STORE', id: storeId, field: 'trade_name' }),
  employee: (tenantId, employeeId) => nameOf(tenantId, { entity: 'EMPLOYEE', id: employeeId, field: 'name' }),
};

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export const caseContacts: CaseContacts = {
  /** The customer's item (one GetItem); an erased customer's marker has another entity and gives nothing. */
  async of(tenantId, customerId) {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, 'CUSTOMER', customerId), ConsistentRead: true }),
    );
    if (!Item || Item[TABLE.entityAttribute] !== 'CUSTOMER') return undefined;
    return { name: text(Item.name), phone: text(Item.phone), email: text(Item.email) };
  },
};
