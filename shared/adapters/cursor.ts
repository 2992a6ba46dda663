/**
 * The cursors of paged lists: where the next page starts, as the client carries it. A cursor is accepted only for
 * the query that produced it (same index, same partition, same prefix); anything else is a 422 naming `cursor`.
 */
import { ValidationError } from '../errors.js';
import { MAX_INT_ID } from '../schema.js';
import { TABLE, type IndexName } from '../table.js';

type Key = Record<string, unknown>;

/** What a cursor must match: the query that produced it. */
export interface CursorScope {
  index?: IndexName | undefined;
  partition: string;
  sortBeginsWith?: string | undefined;
}

export function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A cursor is only accepted for the query that produced it: same index, same partition. */
export function decodeCursor(cursor: string, spec: CursorScope): Key {
  const invalid = invalidCursor();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
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
    throw invalid;
  }
  return key as Key;
}

/** The cursor of a list paged by id range: the next id. */
export function decodeIdCursor(cursor: string): number {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    const id = (decoded as { id?: unknown })?.id;
    if (typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_INT_ID && Object.keys(decoded as object).length === 1)
      return id;
  } catch {
    // falls through to the validation error
  }
  throw invalidCursor();
}

const invalidCursor = () =>
  new ValidationError('The cursor is not valid for this query.', [
    { path: 'cursor', message: 'must be a next_cursor returned by this list with the same filters' },
  ]);
