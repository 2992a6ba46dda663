import { describe, expect, it } from 'vitest';
import { decodeCursor, decodeIdCursor, encodeCursor } from '../../shared/adapters/cursor.js';
import { ValidationError } from '../../shared/errors.js';

/** Cursors of paged lists: accepted only for the query that produced them. */

const byName = { index: 'gsi3' as const, partition: 'T#7#STORE#NAME', sortBeginsWith: 'loja' };
const key = { pk: 'T#7#STORE#0000000012', sk: 'STORE', gsi3pk: 'T#7#STORE#NAME', gsi3sk: 'loja centro#0000000012' };

const refused = (work: () => unknown) => {
  expect(work).toThrow(ValidationError);
  try {
    work();
  } catch (error) {
    expect((error as ValidationError).errors).toEqual([{ path: 'cursor', message: expect.stringContaining('next_cursor') }]);
  }
};

describe('cursors', () => {
  it('give back the key they were made from, for the same query', () => {
    expect(decodeCursor(encodeCursor(key), byName)).toEqual(key);
    expect(decodeIdCursor(encodeCursor({ id: 41 }))).toBe(41);
  });

  it('refuse another partition, another prefix, another index, extra or missing attributes', () => {
    const cursor = encodeCursor(key);
    refused(() => decodeCursor(cursor, { ...byName, partition: 'T#8#STORE#NAME' }));
    refused(() => decodeCursor(cursor, { ...byName, sortBeginsWith: 'mercado' }));
    refused(() => decodeCursor(cursor, { index: 'gsi1', partition: 'T#7#STORE#NAME' }));
    refused(() => decodeCursor(encodeCursor({ ...key, extra: 'x' }), byName));
    refused(() => decodeCursor(encodeCursor({ pk: key.pk, sk: key.sk, gsi3pk: key.gsi3pk }), byName));
  });

  it('refuse what is not a cursor', () => {
    for (const bad of ['', 'not base64!', Buffer.from('[1,2]').toString('base64url'), Buffer.from('{"id":0}').toString('base64url')]) {
      refused(() => decodeCursor(bad, byName));
      refused(() => decodeIdCursor(bad));
    }
    refused(() => decodeIdCursor(encodeCursor({ id: 1.5 })));
    refused(() => decodeIdCursor(encodeCursor({ id: 2, more: 1 })));
  });
});
