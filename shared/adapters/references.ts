import { keys, type Entity } from '../keys.js';
import { batchGet, db, type Item } from './dynamodb.js';

/** An entity named by its internal id or its external code, as transactions name their store, employee, customer. */
export interface Reference {
  entity: Entity;
  id?: number | undefined;
  externalId?: string | undefined;
}

/**
 * Reads the entities several references name in at most two BatchGetItem round trips: the first reads entities
 * by id and external-code guards (plus any `alsoKeys`), the second the entities those guards point at. Returns the
 * item of each reference (undefined when absent), and the items at `alsoKeys`.
 */
export async function readReferences(tenantId: number, references: Reference[], alsoKeys: Key[] = []): Promise<{ found: (Item | undefined)[]; also: (Item | undefined)[] }> {
  const keyOf = (ref: Reference) => (ref.id !== undefined ? keys.entity(tenantId, ref.entity, ref.id) : keys.externalId(tenantId, ref.entity, ref.externalId!));
  const first = [...references.map(keyOf), ...alsoKeys];
  const byKey = new Map<string, Item>();
  const remember = (items: Item[]) => items.forEach((item) => byKey.set(`${item.pk}|${item.sk}`, item));
  remember(await batchGet(db(), dedupe(first)));

  const viaGuard = references.map((ref): Key | undefined => {
    if (ref.id !== undefined) return undefined;
    const guard = byKey.get(keyString(keyOf(ref)));
    return guard ? keys.entity(tenantId, ref.entity, Number(guard.id)) : undefined;
  });
  const second = viaGuard.filter((key): key is Key => key !== undefined && !byKey.has(keyString(key)));
  if (second.length) remember(await batchGet(db(), dedupe(second)));

  return {
    found: references.map((ref, i) => byKey.get(keyString(ref.id !== undefined ? keyOf(ref) : (viaGuard[i] ?? { pk: '', sk: '' })))),
    also: alsoKeys.map((key) => byKey.get(keyString(key))),
  };
}

export type Key = { pk: string; sk: string };
const keyString = (key: Key) => `${key.pk}|${key.sk}`;
const dedupe = (list: Key[]) => [...new Map(list.map((key) => [keyString(key), key])).values()];
