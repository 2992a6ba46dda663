/**
 * The cursors of paged lists: where the next page starts, as the client carries it. A cursor is sealed with
 * AES-256-GCM under a key derived from the deployment's cursor secret, the query it belongs to (index, partition
 * and prefix, which name the tenant) as its associated data: the client can neither read the table's keys in it nor
 * alter it, nor use it with another query or tenant. Anything else is a 422 naming `cursor`.
 */
import { ENV, requireEnv } from '../config.js';
import { ValidationError } from '../errors.js';
import { MAX_INT_ID } from '../schema.js';
import { sealer } from '../sealed.js';
import { TABLE, type IndexName } from '../table.js';

type Key = Record<string, unknown>;

/** What a cursor must match: the query that produced it. */
export interface CursorScope {
  index?: IndexName | undefined;
  partition: string;
  sortBeginsWith?: string | undefined;
}

const cursors = sealer(() => requireEnv(ENV.cursorSecret), 'list-cursor-v1');

/** Seals any JSON value for one query. */
export const sealCursor = (value: unknown, query: string): string => cursors.seal(value, query);

/** The value a cursor sealed for this query; a 422 for anything else (altered, forged, another query). */
export function openCursor(cursor: string, query: string): unknown {
  const value = cursors.open(cursor, query);
  if (value === undefined) throw invalidCursor();
  return value;
}

const queryOf = (spec: CursorScope) => JSON.stringify(['query', spec.index ?? '', spec.partition, spec.sortBeginsWith ?? '']);

/** The cursor after `key`, the last key a Query read. */
export const encodeCursor = (key: Key, spec: CursorScope): string => sealCursor(key, queryOf(spec));

/** A cursor is only accepted for the query that produced it: same index, same partition, same prefix. */
export function decodeCursor(cursor: string, spec: CursorScope): Key {
  const key = openCursor(cursor, queryOf(spec));
  const index = spec.index ? TABLE.indexes.find((i) => i.name === spec.index)! : undefined;
  const expected = [TABLE.partitionKey, TABLE.sortKey, ...(index ? [index.partitionKey, index.sortKey] : [])];
  const keyString = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 1024;
  if (
    typeof key !== 'object' ||
    key === null ||
    Array.isArray(key) ||
    Object.keys(key).length !== expected.length ||
    !expected.every((name) => keyString((key as Key)[name])) ||
    (key as Key)[index?.partitionKey ?? TABLE.partitionKey] !== spec.partition ||
    !String((key as Key)[index?.sortKey ?? TABLE.sortKey]).startsWith(spec.sortBeginsWith ?? '')
  ) {
    throw invalidCursor();
  }
  return key as Key;
}

/** The scope of a list paged by id range: the tenant and the entity. */
const idsOf = (tenantId: number, entity: string) => JSON.stringify(['ids', tenantId, entity]);

/** The cursor of a list paged by id range: the next id. */
export const encodeIdCursor = (id: number, tenantId: number, entity: string): string => sealCursor({ id }, idsOf(tenantId, entity));

export function decodeIdCursor(cursor: string, tenantId: number, entity: string): number {
  const decoded = openCursor(cursor, idsOf(tenantId, entity));
  const id = (decoded as { id?: unknown } | null)?.id;
  if (typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_INT_ID && Object.keys(decoded as object).length === 1)
    return id;
  throw invalidCursor();
}

const invalidCursor = () =>
  new ValidationError('The cursor is not valid for this query.', [
    { path: 'cursor', message: 'must be a next_cursor returned by this list with the same filters' },
  ]);
