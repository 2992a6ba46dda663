import { describe, expect, it } from 'vitest';
import { ENTRY_MAX_BYTES, fitted } from '../../shared/adapters/audit-log.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('an audit entry too large for one item', () => {
  it('keeps a change list that fits as it is', () => {
    const changes = [{ path: 'name', old: 'a', new: 'b' }];
    expect(fitted(changes)).toEqual(changes);
  });

  it('gives the size of the largest values in their place, keeping every path and the small values', () => {
    const large = 'x'.repeat(100_000);
    const changes = [
      { path: 'journeys[id=1]', old: null, new: { name: large } },
      { path: 'delivery.webhooks', old: null, new: [{ url: 'https://exfiltra.example/' }] },
      ...Array.from({ length: 5 }, (_, i) => ({ path: `journeys[id=${i + 2}]`, old: large, new: large })),
    ];

    const fit = fitted(changes);

    expect(bytes(fit)).toBeLessThanOrEqual(ENTRY_MAX_BYTES);
    expect(fit.map((change) => change.path)).toEqual(changes.map((change) => change.path));
    expect(fit[1]).toEqual(changes[1]);
    expect(fit.filter((change) => JSON.stringify(change).includes('omitted_bytes')).length).toBeGreaterThan(0);
  });

  it('keeps the first paths and counts the rest when the paths alone are too many', () => {
    const changes = Array.from({ length: 20_000 }, (_, i) => ({ path: `groups[id=${i + 1}]`, old: null, new: { id: i + 1, name: 'g' } }));

    const fit = fitted(changes);

    expect(bytes(fit)).toBeLessThanOrEqual(ENTRY_MAX_BYTES);
    const last = fit.at(-1)!;
    expect(last.path).toBe('...');
    expect(fit.length - 1 + (last.new as { omitted_changes: number }).omitted_changes).toBe(20_000);
    expect(fit[0]).toEqual({ path: 'groups[id=1]', old: null, new: { omitted_bytes: bytes({ id: 1, name: 'g' }) } });
  });
});
