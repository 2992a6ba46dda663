import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { DuplicateError, NotFoundError } from '../errors.js';
import { keys, normaliseName, padId } from '../keys.js';
import { Store, type StoreChanges, type StoreFilters } from '../stores/schema.js';
import { TABLE } from '../table.js';
import { cancelledByCondition, db, isConditionFailure, queryPage, type Item, type Page, type QuerySpec } from './dynamodb.js';

const ENTITY = 'STORE';

/** Index attributes derived from a store's fields; recomputed whenever those fields change. */
function indexAttributes(tenantId: number, store: Pick<Store, 'id'> & Partial<Store>): Item {
  const attributes: Item = {};
  if (store.status !== undefined) {
    attributes.gsi2pk = keys.byStatus(tenantId, ENTITY, store.status);
    attributes.gsi2sk = padId(store.id);
  }
  if (store.trade_name !== undefined) {
    attributes.gsi3pk = keys.byName(tenantId, ENTITY);
    attributes.gsi3sk = keys.nameSort(normaliseName(store.trade_name), store.id);
  }
  if (store.store_id) {
    attributes.gsi4pk = keys.byExternalId(tenantId, ENTITY, store.store_id);
    attributes.gsi4sk = padId(store.id);
  }
  return attributes;
}

export function toItem(tenantId: number, store: Store): Item {
  return {
    ...keys.entity(tenantId, ENTITY, store.id),
    [TABLE.entityAttribute]: ENTITY,
    gsi1pk: keys.collection(tenantId, ENTITY),
    gsi1sk: padId(store.id),
    ...indexAttributes(tenantId, store),
    ...store,
  };
}

export const fromItem = (item: Item): Store => v.parse(Store, item);

export async function insertStore(tenantId: number, store: Store): Promise<void> {
  const { client, tableName } = db();
  const put = { TableName: tableName, Item: toItem(tenantId, store), ConditionExpression: 'attribute_not_exists(pk)' };
  if (!store.store_id) {
    await client.send(new PutCommand(put));
    return;
  }
  const guard = {
    TableName: tableName,
    Item: { ...keys.externalId(tenantId, ENTITY, store.store_id), [TABLE.entityAttribute]: 'STORE_EXT', id: store.id },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  try {
    await client.send(new TransactWriteCommand({ TransactItems: [{ Put: guard }, { Put: put }] }));
  } catch (error) {
    if (cancelledByCondition(error, 0)) {
      throw new DuplicateError(`A store with store_id "${store.store_id}" already exists.`, 'store_id');
    }
    throw error;
  }
}

export async function getStore(tenantId: number, id: number): Promise<Store | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, ENTITY, id) }));
  return Item ? fromItem(Item) : undefined;
}

/** Applies changes to an existing store and returns it as stored; NotFoundError when there is none. */
export async function updateStore(tenantId: number, id: number, changes: StoreChanges, now: string): Promise<Store> {
  const { client, tableName } = db();
  const set: Item = { ...changes, updated_at: now, ...indexAttributes(tenantId, { id, ...changes }) };
  const names = Object.fromEntries(Object.keys(set).map((name, i) => [`#a${i}`, name]));
  const values = Object.fromEntries(Object.values(set).map((value, i) => [`:a${i}`, value]));
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.entity(tenantId, ENTITY, id),
        UpdateExpression: `SET ${Object.keys(names).map((name, i) => `${name} = :a${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(`Store ${id} not found.`);
    throw error;
  }
}

/** Each filter has its own index; the most selective one present is the key condition, the rest filter. */
export async function listStores(tenantId: number, filters: StoreFilters): Promise<Page> {
  const { status, name, store_id: storeId } = filters;
  let spec: QuerySpec;
  if (storeId) {
    spec = { index: 'gsi4', partition: keys.byExternalId(tenantId, ENTITY, storeId), filters: status ? { status } : {} };
  } else if (name) {
    spec = { index: 'gsi3', partition: keys.byName(tenantId, ENTITY), sortBeginsWith: normaliseName(name), filters: status ? { status } : {} };
  } else if (status) {
    spec = { index: 'gsi2', partition: keys.byStatus(tenantId, ENTITY, status) };
  } else {
    spec = { index: 'gsi1', partition: keys.collection(tenantId, ENTITY) };
  }
  return queryPage(db(), spec, filters);
}
