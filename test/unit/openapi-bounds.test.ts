import { describe, expect, it } from 'vitest';
import { longestMatch, withBounds } from '../../infra/openapi-bounds.js';

describe('the bounds the OpenAPI document derives from a schema', () => {
  it("states an anchored pattern's longest match as maxLength, and none where the pattern has no bound", () => {
    expect(longestMatch('^\\d{4}-\\d{2}-\\d{2}$')).toBe(10);
    expect(longestMatch('^[\\w.-]{1,100}$')).toBe(100);
    expect(longestMatch('^#([0-9a-f]{3}|[0-9a-f]{6})$')).toBe(7);
    expect(longestMatch('^[a-z]{2,3}(_[A-Z]{2})?$')).toBe(6);
    expect(longestMatch('^([01]\\d|2[0-3]):[0-5]\\d$')).toBe(5);
    expect(longestMatch('^[0-9a-f]{64}\\.(png|jpg|webp)$')).toBe(69);
    for (const unbounded of ['^\\d+$', '^a*$', '^a{2,}$', '\\d{4}', '^\\d{4}', '^(?=a)a$', '^(a)\\1$', '^a\\b$', '^[a-$'])
      expect(longestMatch(unbounded), unbounded).toBeUndefined();
  });

  it("gives a bounded integer its width, and leaves a schema's own maxLength and the examples alone", () => {
    const document = withBounds({
      a: { type: 'integer', minimum: 1, maximum: 100 },
      b: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      c: { type: 'integer', minimum: 0 },
      d: { type: 'string', pattern: '^\\d{11}$', maxLength: 20 },
      e: { type: 'string', pattern: '^\\d{3}$', example: { type: 'string', pattern: '^\\d{3}$' } },
    });
    expect(document).toEqual({
      a: { type: 'integer', minimum: 1, maximum: 100, format: 'int32' },
      b: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' },
      c: { type: 'integer', minimum: 0 },
      d: { type: 'string', pattern: '^\\d{11}$', maxLength: 20 },
      e: { type: 'string', pattern: '^\\d{3}$', maxLength: 3, example: { type: 'string', pattern: '^\\d{3}$' } },
    });
  });

  it('reads a property named examples as the schema it is', () => {
    const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    expect(withBounds({ type: 'object', properties: { examples: { type: 'array', items: id } } })).toEqual({
      type: 'object',
      properties: { examples: { type: 'array', items: { ...id, format: 'int64' } } },
    });
  });
});
