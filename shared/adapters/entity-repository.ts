import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { DuplicateError, NotFoundError } from '../errors.js';
import { keys, padId, type Entity, type IndexedField } from '../keys.js';
import { indexAttributes, inIndex, TABLE, type IndexName } from '../table.js';
import { capitalise } from '../text.js';
import { batchGet, cancelledByCondition, db, isConditionFailure, type Item } from './dynamodb.js';

/**
 * What the table needs to know about one kind of entity (store, customer, employee): how to read it back, which
 * field is its unique external code, and which index attributes each field feeds. The repository below does the
 * rest the same way for all of them.
 */
export interface EntityModel<T extends { id: number }> {
  entity: Entity;
  /** Validates an item read back from the table and keeps only the resource's fields. */
  parse: (item: Item) => T;
  /** The client's code for the entity, unique per tenant (guarded by a lookup item). */
  externalId?: keyof T & string;
  /** Index attributes derived from one field's value; an undefined attribute takes the item out of that index. */
  derived: { [F in keyof T & string]?: (tenantId: number, id: number, value: T[F]) => Record<string, string | undefined> };
  /** Whether gsi1 lists the whole collection in id order (small collections; large ones page by id range). */
  collection: boolean;
}

type Changes<T> = Partial<Omit<T, 'id' | 'created_at'>>;

/**
 * Index attributes holding one exact value of a field (a status, a code, an e-mail...) in `index`; absent when the
 * value is, which takes the item out of that index.
 */
export const exactIndex = (index: IndexName, entity: Entity, field: IndexedField) => {
  const { partitionKey, sortKey } = indexAttributes(index);
  return (tenantId: number, id: number, value: string | null | undefined) => ({
    [partitionKey]: value ? keys.byValue(tenantId, { entity, field, value }) : undefined,
    [sortKey]: value ? padId(id) : undefined,
  });
};

export function entityRepository<T extends { id: number; updated_at: string }>(model: EntityModel<T>) {
  const { entity } = model;
  const derivedFrom = (tenantId: number, id: number, fields: Partial<T>) => {
    const attributes: Record<string, string | undefined> = {};
    for (const [field, derive] of Object.entries(model.derived) as [
      keyof T & string,
      (t: number, i: number, v: unknown) => Record<string, string | undefined>,
    ][]) {
      if (field in fields) Object.assign(attributes, derive(tenantId, id, fields[field]));
    }
    return attributes;
  };
  /** An item of this entity, not the marker an erasure leaves in its place (its entity is `<ENTITY>_ERASED`). */
  const isLive = (item: Item | undefined): item is Item => item?.[TABLE.entityAttribute] === entity;
  const guardKey = (tenantId: number, code: unknown) => keys.externalId(tenantId, entity, String(code));
  const duplicate = () => DuplicateError.of(entity.toLowerCase(), model.externalId!);

  function toItem(tenantId: number, value: T): Item {
    return {
      ...keys.entity(tenantId, entity, value.id),
      [TABLE.entityAttribute]: entity,
      ...(model.collection ? inIndex('gsi1', keys.collection(tenantId, entity), padId(value.id)) : {}),
      ...derivedFrom(tenantId, value.id, value),
      ...value,
    };
  }

  /**
   * Writes a new entity. With an external code, its guard is written first, then the entity: two plain writes cost
   * half a transaction (whose index writes are doubled too). A guard left without its entity by a crash between
   * the two is taken over once it is ORPHAN_GUARD_SECONDS old, so a retry can finish the create.
   */
  async function insert(tenantId: number, value: T, extra: NonNullable<TransactWriteCommandInput['TransactItems']> = []): Promise<void> {
    const { client, tableName } = db();
    const put = { TableName: tableName, Item: toItem(tenantId, value), ConditionExpression: 'attribute_not_exists(pk)' };
    const code = model.externalId ? value[model.externalId] : undefined;
    if (code != null) await claimGuard(tenantId, code, value.id);
    if (extra.length) await client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...extra] }));
    else await client.send(new PutCommand(put));
  }

  async function claimGuard(tenantId: number, code: unknown, id: number): Promise<void> {
    const { client, tableName } = db();
    const now = Date.now();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...guardKey(tenantId, code), [TABLE.entityAttribute]: `${entity}_EXT`, id, claimed_at: now },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item: guard } = await client.send(
      new GetCommand({ TableName: tableName, Key: guardKey(tenantId, code), ConsistentRead: true }),
    );
    const orphan = guard && Number(guard.claimed_at ?? 0) < now - ORPHAN_GUARD_SECONDS * 1000 && !(await get(tenantId, Number(guard.id)));
    if (!orphan) throw duplicate();
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: guardKey(tenantId, code),
          UpdateExpression: 'SET id = :id, claimed_at = :now',
          ConditionExpression: 'id = :old',
          ExpressionAttributeValues: { ':id': id, ':now': now, ':old': guard.id },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw duplicate();
      throw error;
    }
  }

  /** The entity an external code names: its guard, then the entity (strongly consistent, no index needed). */
  async function findByExternalId(tenantId: number, code: string): Promise<T | undefined> {
    const { client, tableName } = db();
    const { Item: guard } = await client.send(new GetCommand({ TableName: tableName, Key: guardKey(tenantId, code) }));
    return guard ? get(tenantId, Number(guard.id)) : undefined;
  }

  async function get(tenantId: number, id: number): Promise<T | undefined> {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, entity, id) }));
    return isLive(Item) ? model.parse(Item) : undefined;
  }

  /** Reads several entities in one round trip (at most 100 ids), in the order asked; absent ones are skipped. */
  async function getMany(tenantId: number, ids: number[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const items = await batchGet(
      db(),
      [...new Set(ids)].map((id) => keys.entity(tenantId, entity, id)),
    );
    const found = new Map(
      items
        .filter(isLive)
        .map((item) => model.parse(item))
        .map((value) => [value.id, value]),
    );
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }

  /**
   * Applies changes to an existing entity and returns it as stored; NotFoundError when there is none. Changing the
   * external code moves its guard in the same transaction, so the code stays unique.
   */
  async function update(tenantId: number, id: number, { changes, now }: { changes: Changes<T>; now: string }): Promise<T> {
    const { client, tableName } = db();
    const key = keys.entity(tenantId, entity, id);
    const attributes: Item = { ...changes, updated_at: now, ...derivedFrom(tenantId, id, changes as Partial<T>) };
    const set = Object.entries(attributes).filter(([, value]) => value !== undefined);
    const remove = Object.entries(attributes)
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    const names: Record<string, string> = {};
    const values: Item = {};
    const setParts = set.map(([name, value], i) => {
      names[`#s${i}`] = name;
      values[`:s${i}`] = value;
      return `#s${i} = :s${i}`;
    });
    const removeParts = remove.map((name, i) => {
      names[`#r${i}`] = name;
      return `#r${i}`;
    });
    // An erased entity's marker keeps its key: it is not there to edit.
    let condition = '#entity = :entity';
    names['#entity'] = TABLE.entityAttribute;
    values[':entity'] = entity;
    const guards: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
    const field = model.externalId;
    if (field && field in changes) {
      const current = await get(tenantId, id);
      if (!current) throw new NotFoundError(`${capitalise(entity.toLowerCase())} ${id} not found.`);
      const before = current[field];
      const after = (changes as Partial<T>)[field];
      if (before !== after) {
        // Only apply if nobody changed the code meanwhile.
        names['#code'] = field;
        values[':before'] = before ?? null;
        condition += before == null ? ' AND (attribute_not_exists(#code) OR #code = :before)' : ' AND #code = :before';
        if (before != null) guards.push({ Delete: { TableName: tableName, Key: guardKey(tenantId, before) } });
        if (after != null)
          guards.push({
            Put: {
              TableName: tableName,
              Item: { ...guardKey(tenantId, after), [TABLE.entityAttribute]: `${entity}_EXT`, id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          });
      }
    }
    const expression = [setParts.length ? `SET ${setParts.join(', ')}` : '', removeParts.length ? `REMOVE ${removeParts.join(', ')}` : '']
      .join(' ')
      .trim();
    const updateInput = {
      TableName: tableName,
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    try {
      if (guards.length === 0) {
        const { Attributes } = await client.send(new UpdateCommand({ ...updateInput, ReturnValues: 'ALL_NEW' }));
        return model.parse(Attributes!);
      }
      await client.send(new TransactWriteCommand({ TransactItems: [{ Update: updateInput }, ...guards] }));
    } catch (error) {
      if (isConditionFailure(error) || cancelledByCondition(error, 0))
        throw new NotFoundError(`${capitalise(entity.toLowerCase())} ${id} not found.`);
      if (guards.length && cancelledByCondition(error, guards.length)) throw duplicate();
      throw error;
    }
    return (await get(tenantId, id))!;
  }

  return { toItem, parse: model.parse, insert, get, getMany, findByExternalId, update };
}

/** A guard this old whose entity does not exist was left by a create that crashed between its two writes. */
export const ORPHAN_GUARD_SECONDS = 60;
