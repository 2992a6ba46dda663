import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../shared/http/reference.js';
import { EXAMPLE_FIXTURE, validRequests } from '../../infra/examples.js';

describe('the content coding the reference answers with', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['BR', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.1, gzip;q=0.9', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0', undefined],
    ['', undefined],
  ])('for Accept-Encoding %j is %s', (accept, coding) => {
    expect(chooseEncoding(accept)).toBe(coding);
  });

  it('is none without an Accept-Encoding header', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});

describe("the documents' examples", () => {
  // The reference is written at synthesis and bundled with the function that serves it: an example that changed from one
  // synthesis to the next (a random store code did) changed the function's asset hash, and so every deployment.
  it('are the same requests every time they are written, for every operation', () => {
    for (const [operationId, example] of Object.entries(validRequests))
      expect(example(EXAMPLE_FIXTURE), operationId).toEqual(example(EXAMPLE_FIXTURE));
  });

  it('against a real fixture, make a new store and a new manager each time (the tests send them again)', () => {
    const fixture = { ...EXAMPLE_FIXTURE };
    for (const operationId of ['createStore', 'createAdminUser'])
      expect(validRequests[operationId]!(fixture), operationId).not.toEqual(validRequests[operationId]!(fixture));
  });
});
