import { keys, type Entity } from '../keys.js';
import { batchGet, db, type Item } from './dynamodb.js';

/** An entity named by its internal id or its external code, as transactions name their store, employee, customer. */
export interface Reference {
  entity: Entity;
  id?: number | undefined;
  externalId?: string | undefined;
}

/** What one reader asks for: the entities its references name, and any other keys read alongside. */
export interface ReferenceRequest {
  tenantId: number;
  references: Reference[];
  alsoKeys?: Key[];
}

/** The item of each reference (undefined when absent), and the items at `alsoKeys`, in the order asked. */
export interface ReferencesRead {
  found: (Item | undefined)[];
  also: (Item | undefined)[];
}

/** Reads what one request names; see readManyReferences. */
export async function readReferences(tenantId: number, references: Reference[], alsoKeys: Key[] = []): Promise<ReferencesRead> {
  return (await readManyReferences([{ tenantId, references, alsoKeys }]))[0]!;
}

/**
 * Reads what several requests name in at most two BatchGetItem round trips in all, each key once: the first reads
 * entities by id and external-code guards (plus the `alsoKeys`), the second the entities those guards point at.
 * The consumer reads a whole batch of transactions this way.
 */
export async function readManyReferences(requests: ReferenceRequest[]): Promise<ReferencesRead[]> {
  const keyOf = (tenantId: number, ref: Reference) => (ref.id !== undefined ? keys.entity(tenantId, ref.entity, ref.id) : keys.externalId(tenantId, ref.entity, ref.externalId!));
  const byKey = new Map<string, Item>();
  const remember = (items: Item[]) => items.forEach((item) => byKey.set(keyString(item as Key), item));
  const first = requests.flatMap(({ tenantId, references, alsoKeys = [] }) => [...references.map((ref) => keyOf(tenantId, ref)), ...alsoKeys]);
  remember(await batchGet(db(), dedupe(first)));

  // What an external code names: the entity its guard points at.
  const targets = requests.map(({ tenantId, references }) =>
    references.map((ref): Key => {
      if (ref.id !== undefined) return keyOf(tenantId, ref);
      const guard = byKey.get(keyString(keyOf(tenantId, ref)));
      return guard ? keys.entity(tenantId, ref.entity, Number(guard.id)) : NOTHING;
    }),
  );
  const second = targets.flat().filter((key) => key !== NOTHING && !byKey.has(keyString(key)));
  if (second.length) remember(await batchGet(db(), dedupe(second)));

  return requests.map(({ alsoKeys = [] }, i) => ({
    found: targets[i]!.map((key) => byKey.get(keyString(key))),
    also: alsoKeys.map((key) => byKey.get(keyString(key))),
  }));
}

export type Key = { pk: string; sk: string };
const NOTHING: Key = { pk: '', sk: '' };
const keyString = (key: Key) => `${key.pk}|${key.sk}`;
const dedupe = (list: Key[]) => [...new Map(list.map((key) => [keyString(key), key])).values()];
