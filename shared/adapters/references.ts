import { TABLE } from '../table.js';
import { keys, type Entity } from '../keys.js';
import type { Referenced, ReferenceReader } from '../transactions/ports.js';
import { transactionIdFor } from '../transactions/request-key.js';
import { customers } from './customer-repository.js';
import { batchGet, db, type Item } from './dynamodb.js';
import { employees } from './employee-repository.js';
import { stores } from './store-repository.js';
import { toRequestRecord } from './transaction-repository.js';

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

/**
 * The item of each reference (undefined when absent), and the items at `alsoKeys`, in the order asked. A reference
 * that gives both an id and an external code is found by its id; `externalTargets` then says which id the code
 * names (null when it names nothing), so that the caller can refuse the two when they disagree.
 */
export interface ReferencesRead {
  found: (Item | undefined)[];
  also: (Item | undefined)[];
  externalTargets: (number | null | undefined)[];
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
  const keyOf = (tenantId: number, ref: Reference) =>
    ref.id !== undefined ? keys.entity(tenantId, ref.entity, ref.id) : keys.externalId(tenantId, ref.entity, ref.externalId!);
  const guardOf = (tenantId: number, ref: Reference) =>
    ref.id !== undefined && ref.externalId !== undefined ? keys.externalId(tenantId, ref.entity, ref.externalId) : undefined;
  const byKey = new Map<string, Item>();
  const remember = (items: Item[]) => items.forEach((item) => byKey.set(keyString(item as Key), item));
  const first = requests.flatMap(({ tenantId, references, alsoKeys = [] }) => [
    ...references.flatMap((ref) => [keyOf(tenantId, ref), guardOf(tenantId, ref)].filter((key): key is Key => key !== undefined)),
    ...alsoKeys,
  ]);
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

  return requests.map(({ tenantId, references, alsoKeys = [] }, i) => ({
    found: targets[i]!.map((key) => byKey.get(keyString(key))),
    also: alsoKeys.map((key) => byKey.get(keyString(key))),
    externalTargets: references.map((ref) => {
      const guard = guardOf(tenantId, ref);
      if (!guard) return undefined;
      const item = byKey.get(keyString(guard));
      return item ? Number(item.id) : null;
    }),
  }));
}

export type Key = { pk: string; sk: string };
const NOTHING: Key = { pk: '', sk: '' };
const keyString = (key: Key) => `${key.pk}|${key.sk}`;
const dedupe = (list: Key[]) => [...new Map(list.map((key) => [keyString(key), key])).values()];

/**
 * What registering transactions reads first, for many requests at once: the store, employee and customer each
 * names, what its request key holds (at the first id the key derives: a key whose id another key took is found
 * when the write probes on), and the fallback store.
 */
export const readTransactionReferences: ReferenceReader = async (requests) => {
  const reads = await readManyReferences(
    requests.map(({ tenantId, requestKey, store, employee, customer, fallbackStoreId }) => ({
      tenantId,
      references: [
        { entity: 'STORE', ...store },
        { entity: 'EMPLOYEE', ...employee },
        { entity: 'CUSTOMER', ...customer },
      ],
      alsoKeys: [keys.transaction(tenantId, transactionIdFor(requestKey)), keys.entity(tenantId, 'STORE', fallbackStoreId)],
    })),
  );
  return reads.map(({ found: [store, employee, customer], also: [held, fallbackStore], externalTargets }, i): Referenced => ({
    store: store && stores.parse(store),
    employee: employee && employees.parse(employee),
    // An erased customer's marker is no customer: a transaction naming its id is told the customer is unknown.
    customer: customer?.[TABLE.entityAttribute] === 'CUSTOMER' ? customers.parse(customer) : undefined,
    externalTargets: { store: externalTargets[0], employee: externalTargets[1], customer: externalTargets[2] },
    existing: held?.request_key === requests[i]!.requestKey ? toRequestRecord(held) : undefined,
    fallbackStore: fallbackStore && stores.parse(fallbackStore),
  }));
};
