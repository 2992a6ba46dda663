import { describe, expect, it } from 'vitest';
import { lazyFormat } from '../../shared/text.js';

describe('lazyFormat', () => {
  it('makes its formatter at the first use, once, and formats as that formatter does', () => {
    let made = 0;
    const percent = lazyFormat<number>(() => {
      made++;
      return new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });
    });
    expect(made).toBe(0);

    const shown = [0.1234, 1, 0.5].map((n) => percent.format(n));

    expect(made).toBe(1);
    expect(shown).toEqual(
      [0.1234, 1, 0.5].map((n) => new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 }).format(n)),
    );
  });
});
