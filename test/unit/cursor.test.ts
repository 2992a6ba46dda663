import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor, openCursor, sealCursor } from '../../shared/adapters/cursor.js';
import { ValidationError } from '../../shared/errors.js';

/** Cursors of paged lists: sealed, opaque, accepted only for the query (and tenant) that produced them. */

beforeAll(() => {
  process.env.CURSOR_SECRET = 'unit-cursor-secret';
});

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
  it('give back the key they were made from, for the same query, and show nothing of it', () => {
    const cursor = encodeCursor(key, byName);
    expect(decodeCursor(cursor, byName)).toEqual(key);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/STORE|loja|T#7/);
    expect(encodeCursor(key, byName)).not.toBe(cursor);
    expect(decodeIdCursor(encodeIdCursor(41, 7, 'CUSTOMER'), 7, 'CUSTOMER')).toBe(41);
  });

  it('refuse another partition, prefix, index, tenant or entity', () => {
    const cursor = encodeCursor(key, byName);
    refused(() => decodeCursor(cursor, { ...byName, partition: 'T#8#STORE#NAME' }));
    refused(() => decodeCursor(cursor, { ...byName, sortBeginsWith: 'mercado' }));
    refused(() => decodeCursor(cursor, { index: 'gsi1', partition: 'T#7#STORE#NAME' }));
    refused(() => decodeIdCursor(encodeIdCursor(41, 7, 'CUSTOMER'), 8, 'CUSTOMER'));
    refused(() => decodeIdCursor(encodeIdCursor(41, 7, 'CUSTOMER'), 7, 'STORE'));
  });

  it('refuse a cursor altered by one bit, forged from the old readable format, or not a cursor at all', () => {
    const bytes = Buffer.from(encodeCursor(key, byName), 'base64url');
    bytes[20] = bytes[20]! ^ 1;
    refused(() => decodeCursor(bytes.toString('base64url'), byName));
    refused(() => decodeCursor(Buffer.from(JSON.stringify(key)).toString('base64url'), byName));
    refused(() => decodeIdCursor(Buffer.from('{"id":2}').toString('base64url'), 7, 'CUSTOMER'));
    for (const bad of ['', 'not base64!', 'x'.repeat(10_000)]) refused(() => decodeCursor(bad, byName));
  });

  it('seal any value for one query; the sealed content is checked after opening', () => {
    expect(openCursor(sealCursor({ month: '2026-11' }, 'q'), 'q')).toEqual({ month: '2026-11' });
    refused(() => openCursor(sealCursor({ month: '2026-11' }, 'q'), 'another'));
    refused(() => decodeIdCursor(sealCursor({ id: 1.5 }, JSON.stringify(['ids', 7, 'CUSTOMER'])), 7, 'CUSTOMER'));
    refused(() => decodeCursor(encodeCursor({ ...key, extra: 'x' }, byName), byName));
  });
});
